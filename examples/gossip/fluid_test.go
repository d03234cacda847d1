package main

import (
	"testing"
	"time"
)

// TestFluidQueue checks the bound on the mainnet model: the peak of 32,768
// attestations is near 36.9k a second at the density's mode (exp(mu -
// sigma^2), 440 ms), a server faster than the peak never queues, and a
// slower one queues longer the slower it is.
func TestFluidQueue(t *testing.T) {
	a, err := newArrival(831*time.Millisecond, 1962*time.Millisecond, 4*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	fast := fluidQueue(a, 32768, 40000)
	if fast.Peak < 36000 || fast.Peak > 38000 || fast.PeakAtMs < 430 || fast.PeakAtMs > 450 {
		t.Errorf("peak %.0f/s at %.0f ms, want about 36.9k/s at 440 ms", fast.Peak, fast.PeakAtMs)
	}
	if fast.WaitMs != 0 {
		t.Errorf("a server above the peak waits %.1f ms", fast.WaitMs)
	}
	w30, w20 := fluidQueue(a, 32768, 30000).WaitMs, fluidQueue(a, 32768, 20000).WaitMs
	if !(0 < w30 && w30 < w20) {
		t.Errorf("waits at 30k/s %.1f ms, at 20k/s %.1f ms: want 0 < the first < the second", w30, w20)
	}
	if b := fluidQueue(a, 32768, 0); b.WaitMs != 0 || b.Peak != 0 {
		t.Errorf("rate 0: %+v, want the zero bound", b)
	}
}
