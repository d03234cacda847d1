package crypto

import "github.com/attpool/attpool/internal/curve"

// signatureFromPoint returns a signature holding a copy of p.
func signatureFromPoint(p *curve.G2Affine) *Signature {
	s := Signature(*p)
	return &s
}
