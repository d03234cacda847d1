package pool

import (
	"reflect"
	"runtime"
	"testing"
	"time"
)

// TestZeroConfigTakesDefaults: every field DefaultConfig sets is what a zero
// Config gets, and the fields it leaves zero get their derived values.
func TestZeroConfigTakesDefaults(t *testing.T) {
	d := DefaultConfig()
	got, err := Config{}.sanitize()
	if err != nil {
		t.Fatal(err)
	}
	fromDefaults, err := d.sanitize()
	if err != nil {
		t.Fatalf("DefaultConfig() as a Config: %v", err)
	}
	fromDefaults.Logger = got.Logger
	if !reflect.DeepEqual(fromDefaults, got) {
		t.Errorf("DefaultConfig() means %+v, the zero Config %+v", fromDefaults, got)
	}
	dv, gv := reflect.ValueOf(d), reflect.ValueOf(got)
	for i := range dv.NumField() {
		f := dv.Type().Field(i)
		if dv.Field(i).IsZero() {
			continue
		}
		if !reflect.DeepEqual(dv.Field(i).Interface(), gv.Field(i).Interface()) {
			t.Errorf("%s: zero Config gets %v, DefaultConfig says %v", f.Name, gv.Field(i), dv.Field(i))
		}
	}
	procs := runtime.GOMAXPROCS(0)
	if got.VerifyWorkers != procs ||
		got.peerHalfLife != got.SlotDuration || got.MaxPendingPerPeer != got.MaxPending/4 || got.Logger == nil {
		t.Errorf("derived defaults: %+v", got)
	}
}

// TestConfigKeepsSetFields: a field set to a valid value is never replaced
// by its default.
func TestConfigKeepsSetFields(t *testing.T) {
	c := Config{
		SlotsPerEpoch: 8, SlotDuration: 6 * time.Second,
		BatchSize: 100, BatchTime: 7 * time.Millisecond, LatencyBudget: 3 * time.Millisecond, VerifyWorkers: 3,
		MaxPeers: 5, peerHalfLife: time.Second, MaxPending: 99, MaxPendingPerPeer: 33,
		MaxAggregates: 98, MaxData: 97, seenAggregates: 96, rootCache: 95,
		MaxValidators: 94, pruneEvery: time.Second,
	}
	got, err := c.sanitize()
	if err != nil {
		t.Fatal(err)
	}
	got.Logger = nil
	if !reflect.DeepEqual(got, c) {
		t.Errorf("sanitize changed set fields:\n got %+v\nwant %+v", got, c)
	}
}
