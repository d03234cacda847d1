package verifier

import (
	"math"
	"sync"
)

// invalidShare keeps the share of invalid verdicts among the sets of the
// recent calls. Its counts halve whenever the sets pass invalidShareWindow.
// So the share follows a change of traffic within a few batches. It only
// steers the locate step (whether it searches at all, and its first move).
// No verdict depends on it.
type invalidShare struct {
	mu            sync.Mutex
	sets, invalid float64
}

// invalidShareWindow is about the number of recent sets the share is over:
// a few thousand, a few of the pool's batches.
const invalidShareWindow = 4096

// observe adds a call's verdicts.
func (s *invalidShare) observe(verdicts []bool) {
	bad := 0
	for _, ok := range verdicts {
		if !ok {
			bad++
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sets += float64(len(verdicts))
	s.invalid += float64(bad)
	for s.sets > invalidShareWindow {
		s.sets, s.invalid = s.sets/2, s.invalid/2
	}
}

// expected is the expected number of invalid sets among m at the recent
// share (0 before any call).
func (s *invalidShare) expected(m int) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sets == 0 {
		return 0
	}
	return float64(m) * s.invalid / s.sets
}

// singleShare is the chance that a failing call of m sets holds a single
// invalid set, for a Poisson number of them at the recent share. With mean
// l = expected(m), it is l e^-l / (1 - e^-l), which is 1 before any invalid
// set.
func (s *invalidShare) singleShare(m int) float64 {
	l := s.expected(m)
	if l < 1e-9 {
		return 1
	}
	return l * math.Exp(-l) / -math.Expm1(-l)
}
