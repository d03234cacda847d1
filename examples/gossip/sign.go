package main

import (
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/attpool/attpool/crypto"
)

// signAll calls sign(i) for every i in [0, n) on all cores: the signing of
// a slot's messages, each independent of the others.
func signAll(n int, sign func(i int)) {
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range n {
		g.Go(func() error { sign(i); return nil })
	}
	_ = g.Wait() // sign returns no error
}

// mulSign is crypto.Sign for a message already hashed: a slot's attesters
// all sign one root, so it is hashed to G2 once.
func mulSign(sk *crypto.SecretKey, h *crypto.HashedMessage) [crypto.SignatureSize]byte {
	return h.Sign(sk).Bytes()
}
