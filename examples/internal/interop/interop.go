// Package interop derives the interop keys (crypto.InteropSecretKey) of a
// simulated validator set, on all cores, for the examples that need a whole
// set at start.
package interop

import (
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/attpool/attpool/crypto"
)

// SecretKeys returns the interop secret keys of validators [0, n).
func SecretKeys(n int) ([]*crypto.SecretKey, error) {
	sks := make([]*crypto.SecretKey, n)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range sks {
		g.Go(func() (err error) {
			sks[i], err = crypto.InteropSecretKey(uint64(i))
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return sks, nil
}
