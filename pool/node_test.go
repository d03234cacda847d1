package pool

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestNodeGenesisTimeRequired: New refuses a Node without GenesisTime (the
// zero time would put every message outside the slot window), naming the
// field; the Unix epoch, a genesis some test chains use, is accepted.
func TestNodeGenesisTimeRequired(t *testing.T) {
	e := newEnv(t, 1, 8, 10)
	n := e.node
	n.GenesisTime = time.Time{}
	if _, err := New(Config{}, n); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "GenesisTime") {
		t.Fatalf("zero GenesisTime: %v, want ErrConfig naming GenesisTime", err)
	}
	n.GenesisTime = time.Unix(0, 0)
	p, err := New(Config{}, n)
	if err != nil {
		t.Fatalf("GenesisTime at the Unix epoch: %v", err)
	}
	p.Close()
}
