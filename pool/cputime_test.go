package pool

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process used so far, for
// TestFlood's cost ratio and the benchmarks on a shared machine (0 where
// getrusage fails).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// CPUTime is cpuTime for the benchmarks of package pool_test.
var CPUTime = cpuTime
