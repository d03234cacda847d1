package verifier

import "github.com/attpool/attpool/crypto"

// Verifier verifies batches of signature sets. It owns Config.Workers
// goroutines, started by New and stopped by Close. It is safe for concurrent
// use; concurrent calls share the goroutines.
type Verifier struct {
	cfg Config
	w   *workers
}

// New returns a Verifier for cfg (the zero Config means DefaultConfig).
func New(cfg Config) (*Verifier, error) {
	cfg, err := cfg.sanitize()
	if err != nil {
		return nil, err
	}
	return &Verifier{cfg: cfg, w: newWorkers(cfg.Workers)}, nil
}

// Close stops the Verifier's goroutines. Verify still answers after Close,
// on the calling goroutine alone.
func (v *Verifier) Close() { v.w.close() }

// Verify returns one verdict per set, in order: verdicts[i] is what verifying
// sets[i] alone would say.
func (v *Verifier) Verify(sets []Set) []bool {
	out := make([]bool, len(sets))
	v.w.forEach(len(sets), 4, func(i int) {
		s := &sets[i]
		sig, err := crypto.SignatureFromBytes(s.Signature[:])
		out[i] = err == nil && crypto.Verify(s.PublicKey, s.Root[:], sig)
	})
	return out
}
