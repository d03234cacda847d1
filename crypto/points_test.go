package crypto

import "github.com/attpool/attpool/internal/curve"

// The tests reach the points of keys and signatures as the verifier does
// through package internal/blspoint (which imports crypto, so these tests
// cannot).

func (pk *PublicKey) point() *curve.G1Affine { return &pk.a }

func (s *Signature) point() *curve.G2Affine { return &s.a }

func signatureFromPoint(p *curve.G2Affine) *Signature { return &Signature{a: *p} }
