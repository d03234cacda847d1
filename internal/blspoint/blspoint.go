// Package blspoint gives attpool's verifier and pool the curve points inside
// package crypto's keys, signatures and hashed messages, which crypto keeps
// out of its public API (its documentation shows only BLS). Each type holds
// its point as its only field, so a pointer to the value is a pointer to the
// point; crypto's build fails if one of them grows beyond it.
package blspoint

import (
	"unsafe"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/curve"
)

// Key returns pk's point. It aliases pk: do not modify it.
func Key(pk *crypto.PublicKey) *curve.G1Affine {
	return (*curve.G1Affine)(unsafe.Pointer(pk))
}

// Signature returns s's point. It aliases s.
func Signature(s *crypto.Signature) *curve.G2Affine {
	return (*curve.G2Affine)(unsafe.Pointer(s))
}

// Message returns m's point, the hash of its message. It aliases m: do not
// modify it.
func Message(m *crypto.HashedMessage) *curve.G2Affine {
	return (*curve.G2Affine)(unsafe.Pointer(m))
}

// NewSignature returns a signature holding a copy of p. Nothing is checked:
// p is not known to be in G2 (the tests build signatures outside it).
func NewSignature(p *curve.G2Affine) *crypto.Signature {
	s := new(crypto.Signature)
	*Signature(s) = *p
	return s
}
