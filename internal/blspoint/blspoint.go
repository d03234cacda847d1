// Package blspoint gives attpool's verifier and pool the curve points inside
// package crypto's keys, signatures and hashed messages, which crypto keeps
// out of its public API (its documentation shows only BLS). Each of these
// types is defined over its point, so a pointer to the value converts to a
// pointer to the point: the functions alias their argument and cost nothing.
package blspoint

import (
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/curve"
)

// Key returns pk's point. It aliases pk: do not modify it.
func Key(pk *crypto.PublicKey) *curve.G1Affine { return (*curve.G1Affine)(pk) }

// Signature returns s's point. It aliases s.
func Signature(s *crypto.Signature) *curve.G2Affine { return (*curve.G2Affine)(s) }

// Message returns m's point, the hash of its message. It aliases m: do not
// modify it.
func Message(m *crypto.HashedMessage) *curve.G2Affine { return (*curve.G2Affine)(m) }

// NewSignature returns a signature holding a copy of p. Nothing is checked:
// p is not known to be in G2 (the tests build signatures outside it).
func NewSignature(p *curve.G2Affine) *crypto.Signature {
	s := crypto.Signature(*p)
	return &s
}
