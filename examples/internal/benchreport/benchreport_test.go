package benchreport

import (
	"strings"
	"testing"
)

// cpuinfos are /proc/cpuinfo contents and the model name each gives.
var cpuinfos = map[string]string{
	"processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 17\nmodel name\t: AMD EPYC  7B13 64-Core Processor\n": "AMD EPYC 7B13 64-Core Processor",
	"processor\t: 0\nBogoMIPS\t: 50.00\n": "",
	"":                                    "",
	"Processor\t: ARMv7 Processor rev 4 (v7l)\n": "ARMv7 Processor rev 4 (v7l)",
}

func TestParseCPUModel(t *testing.T) {
	for in, want := range cpuinfos {
		if got := ParseCPUModel(strings.NewReader(in)); got != want {
			t.Errorf("ParseCPUModel(%q) = %q, want %q", in, got, want)
		}
	}
}
