package pool

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
)

// TestBoundsLoggedOncePerSlot: a flood that hits MaxPending a hundred times
// in a slot is counted in attpool_bound_hits_total{bound="max_pending"} as
// it goes, and logged in one warning once the clock is in the next slot
// (however often the pool looks at the clock), with the hundred hits; a
// slot without hits logs nothing.
func TestBoundsLoggedOncePerSlot(t *testing.T) {
	e := newEnv(t, 1, 128, 200)
	e.setSlot(testSlot, 1000)
	logger, hook := logtest.NewNullLogger()
	logger.SetLevel(logrus.WarnLevel)
	reg := prometheus.NewRegistry()
	p := e.pool(Config{fixed: fifo(1024, 1024, time.Hour), MaxPending: 3, Logger: logger, Registerer: reg})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d := e.data(testSlot)
	refused := 0
	for pos := range uint64(103) {
		att, subnet := e.single(d, 0, pos)
		select {
		case r := <-p.validateAttestationAsync(ctx, NoPeer, att, subnet):
			wantResult(t, r, Ignore, ErrQueueFull)
			refused++
		default:
		}
	}
	if refused != 100 {
		t.Fatalf("%d refused, want 100", refused)
	}
	if n := scrape(t, reg, "attpool_bound_hits_total", map[string]string{"bound": "max_pending"}); n != 100 {
		t.Fatalf("attpool_bound_hits_total{bound=max_pending} %v, want 100", n)
	}
	warnings := func() []*logrus.Entry {
		var out []*logrus.Entry
		for _, en := range hook.AllEntries() {
			if en.Level == logrus.WarnLevel {
				out = append(out, en)
			}
		}
		return out
	}
	for range 5 {
		p.logBounds()
	}
	if w := warnings(); len(w) > 0 {
		t.Fatalf("%d warnings within the slot of the hits", len(w))
	}
	hook.Reset()
	e.setSlot(testSlot+1, 0)
	for range 5 {
		p.logBounds()
	}
	w := warnings()
	if len(w) != 1 {
		t.Fatalf("%d warnings in the next slot, want 1", len(w))
	}
	if got := w[0].Data["max_pending"]; got != int64(100) {
		t.Fatalf("the warning's max_pending %v, want 100 (%v)", got, w[0].Data)
	}
	hook.Reset()
	e.setSlot(testSlot+2, 0)
	p.logBounds()
	if w := warnings(); len(w) != 0 {
		t.Fatalf("%d warnings for a slot without hits", len(w))
	}
}
