package curve

import (
	"unsafe"

	blst "github.com/supranational/blst/bindings/go"
)

// G1Affine is a point of the G1 curve in affine coordinates. The zero value
// is the point at infinity.
type G1Affine struct{ p blst.P1Affine }

// G2Affine is a point of the G2 curve in affine coordinates. The zero value
// is the point at infinity.
type G2Affine struct{ p blst.P2Affine }

// G1 is a point of the G1 curve in Jacobian coordinates (an accumulator).
// The zero value (Z = 0) is the identity.
type G1 struct{ p blst.P1 }

// G2 is a point of the G2 curve in Jacobian coordinates (an accumulator).
// The zero value (Z = 0) is the identity.
type G2 struct{ p blst.P2 }

// G1Infinity returns the identity of G1: the zero value.
func G1Infinity() G1 { return G1{} }

// G2Infinity returns the identity of G2: the zero value.
func G2Infinity() G2 { return G2{} }

// Blst returns the blst point p holds, for package crypto's signatures. It
// aliases p.
func (p *G1Affine) Blst() *blst.P1Affine { return &p.p }

// Blst returns the blst point p holds, for package crypto's signatures. It
// aliases p.
func (p *G2Affine) Blst() *blst.P2Affine { return &p.p }

// SetCompressed sets p to the decoded 48-byte compressed point, checking the
// encoding and that it is on the curve (not the subgroup), and reports
// blst's verdict; p is the point at infinity unless it is [Decoded].
func (p *G1Affine) SetCompressed(in *[48]byte) DecodeResult {
	r := DecodeResult(uncompressG1(&p.p, in))
	if r != Decoded {
		*p = G1Affine{}
	}
	return r
}

// SetCompressed sets p to the decoded 96-byte compressed point, as
// [G1Affine.SetCompressed].
func (p *G2Affine) SetCompressed(in *[96]byte) DecodeResult {
	r := DecodeResult(uncompressG2(&p.p, in))
	if r != Decoded {
		*p = G2Affine{}
	}
	return r
}

// InG1 reports whether p is in the prime-order subgroup G1.
func (p *G1Affine) InG1() bool { return p.p.InG1() }

// G1Generator returns the standard generator of G1.
func G1Generator() G1Affine { return G1Affine{p: *blst.P1Generator().ToAffine()} }

// G2Generator returns the standard generator of G2.
func G2Generator() G2Affine { return G2Affine{p: *blst.P2Generator().ToAffine()} }

// IsInfinity reports whether p is the identity.
func (p *G1Affine) IsInfinity() bool { return p1AffIsInf(&p.p) }

// IsInfinity reports whether p is the identity.
func (p *G2Affine) IsInfinity() bool { return p2AffIsInf(&p.p) }

// InG2 reports whether p is in the prime-order subgroup G2.
func (p *G2Affine) InG2() bool { return p.p.InG2() }

// Equal reports whether p and q are the same point.
func (p *G2Affine) Equal(q *G2Affine) bool { return p.p.Equals(&q.p) }

// Bytes returns the 96-byte compressed encoding of p.
func (p *G2Affine) Bytes() [96]byte {
	var out [96]byte
	copy(out[:], p.p.Compress())
	return out
}

// Uncompressed returns the 192-byte uncompressed encoding x.c1||x.c0||y.c1||y.c0.
func (p *G2Affine) Uncompressed() [192]byte {
	var out [192]byte
	copy(out[:], p.p.Serialize())
	return out
}

// Jacobian returns p as an accumulator.
func (p *G1Affine) Jacobian() G1 {
	var q G1
	q.p.FromAffine(&p.p)
	return q
}

// Jacobian returns p as an accumulator.
func (p *G2Affine) Jacobian() G2 {
	var q G2
	q.p.FromAffine(&p.p)
	return q
}

// Affine returns p in affine coordinates (one field inversion).
func (p *G1) Affine() G1Affine { return G1Affine{p: *p.p.ToAffine()} }

// Affine returns p in affine coordinates (one field inversion).
func (p *G2) Affine() G2Affine { return G2Affine{p: *p.p.ToAffine()} }

// Add sets p = p + q (any points, doubling included) and returns p.
func (p *G1) Add(q *G1) *G1 { p1Add(&p.p, &p.p, &q.p); return p }

// Add sets p = p + q (any points, doubling included) and returns p.
func (p *G2) Add(q *G2) *G2 { p2Add(&p.p, &p.p, &q.p); return p }

// AddAffine sets p = p + q and returns p.
func (p *G2) AddAffine(q *G2Affine) *G2 { p.p.AddAssign(&q.p); return p }

// AddAffine sets p = p + q and returns p.
func (p *G1) AddAffine(q *G1Affine) *G1 { p.p.AddAssign(&q.p); return p }

// Sub sets p = p - q and returns p.
func (p *G1) Sub(q *G1) *G1 { t := *q; p1Neg(&t.p); return p.Add(&t) }

// Sub sets p = p - q and returns p.
func (p *G2) Sub(q *G2) *G2 { t := *q; p2Neg(&t.p); return p.Add(&t) }

// Neg sets p = -p and returns p.
func (p *G2) Neg() *G2 { p2Neg(&p.p); return p }

// Neg sets p = -p and returns p.
func (p *G1) Neg() *G1 { p1Neg(&p.p); return p }

// Double sets p = 2p and returns p.
func (p *G2) Double() *G2 { p2Double(&p.p); return p }

// Mul13Add sets p = 13p + h and returns p: one step of Horner's rule in base 13.
func (p *G2) Mul13Add(h *G2) *G2 { p2Mul13Add(&p.p, &h.p); return p }

// Mul13Add sets p = 13p + h and returns p.
func (p *G1) Mul13Add(h *G1) *G1 { p1Mul13Add(&p.p, &h.p); return p }

// Mul sets p = k*p for a little-endian scalar k of nbits bits and returns p.
// Any point of the curve and any scalar size work (multiples by cofactors
// too). Only the first nbits bits of k are read, and no more than k holds;
// nbits <= 0 gives the identity.
func (p *G2) Mul(k []byte, nbits int) *G2 {
	return mulBits(p, k, nbits, func(n int) { p2Mult(&p.p, &p.p, k, n) })
}

// Mul sets p = k*p for a little-endian scalar k of nbits bits and returns
// p, as [G2.Mul].
func (p *G1) Mul(k []byte, nbits int) *G1 {
	return mulBits(p, k, nbits, func(n int) { p1Mult(&p.p, &p.p, k, n) })
}

// mulBits is G1.Mul and G2.Mul: the identity for no bits, else mult of the
// bits k holds.
func mulBits[J any](p *J, k []byte, nbits int, mult func(nbits int)) *J {
	nbits = min(nbits, 8*len(k))
	if nbits <= 0 {
		*p = *new(J)
		return p
	}
	mult(nbits)
	return p
}

// IsInfinity reports whether p is the identity.
func (p *G2) IsInfinity() bool { return p2IsInf(&p.p) }

// IsInfinity reports whether p is the identity.
func (p *G1) IsInfinity() bool { return p1IsInf(&p.p) }

// InG2 reports whether p is in G2 (Scott's endomorphism test, about 45 µs).
func (p *G2) InG2() bool { return p2InG2(&p.p) }

// Equal reports whether p and q are the same point.
func (p *G2) Equal(q *G2) bool { return p.p.Equals(&q.p) }

// Equal reports whether p and q are the same point.
func (p *G1) Equal(q *G1) bool { return p.p.Equals(&q.p) }

// SumG2 returns the sum of the points, with blst's batch-affine addition (one
// shared inversion per batch, about 0.8 µs a point). It runs on the calling
// goroutine. The sum of no points is the identity.
func SumG2(points []*G2Affine) G2 {
	if len(points) == 0 {
		return G2{}
	}
	ps := unsafe.Slice((**blst.P2Affine)(unsafe.Pointer(&points[0])), len(points))
	return G2{p: *blst.P2AffinesAdd(ps)}
}

// SumG1 returns the sum of the points with batch-affine addition.
func SumG1(points []*G1Affine) G1 {
	if len(points) == 0 {
		return G1{}
	}
	ps := unsafe.Slice((**blst.P1Affine)(unsafe.Pointer(&points[0])), len(points))
	return G1{p: *blst.P1AffinesAdd(ps)}
}

// MultiExpG1 returns sum_i k_i*points[i], with scalars the concatenated
// little-endian k_i of (nbits+7)/8 bytes each; too few scalar bytes or
// nbits <= 0 give the identity. The points must be in G1. From two to
// StrausMax-1 points are multiplied by Straus's method on the calling
// goroutine; one point and StrausMax or more by blst (Pippenger from
// StrausMax points), which spreads over GOMAXPROCS goroutines of its own,
// joined before it returns.
func MultiExpG1(points []*G1Affine, scalars []byte, nbits int) G1 {
	return multiExp(points, scalars, nbits, strausG1, func(ps []*blst.P1Affine) G1 {
		return G1{p: *blst.P1AffinesMult(ps, scalars, nbits)}
	})
}

// MultiExpG2 returns sum_i k_i*points[i], as [MultiExpG1]. The points must
// be in G2 for the result to be defined as a plain sum of products.
func MultiExpG2(points []*G2Affine, scalars []byte, nbits int) G2 {
	return multiExp(points, scalars, nbits, strausG2, func(ps []*blst.P2Affine) G2 {
		return G2{p: *blst.P2AffinesMult(ps, scalars, nbits)}
	})
}

// StrausMax is the fewest points blst's Pippenger takes. Below it blst
// multiplies each point on its own, at two to four times Straus's CPU per
// point, and from it Pippenger costs less (BenchmarkSmallMultiExp).
const StrausMax = 32

// multiExp is MultiExpG1 and MultiExpG2: the checks and one point's case
// here, straus below StrausMax points, Pippenger (pippenger, over the points
// as blst's type B) for more.
func multiExp[A interface{ Jacobian() J }, J any, PJ interface {
	*J
	Mul([]byte, int) *J
}, B any](points []A, scalars []byte, nbits int, straus func([]A, []byte, int, []byte) J, pippenger func([]B) J) J {
	var zero J
	nbytes := (nbits + 7) / 8
	if nbits <= 0 || len(points) == 0 || len(scalars) < len(points)*nbytes {
		return zero
	}
	if len(points) == 1 {
		q := points[0].Jacobian()
		return *PJ(&q).Mul(scalars[:nbytes], nbits)
	}
	if len(points) < StrausMax {
		return straus(points, scalars[:len(points)*nbytes], nbits, nil)
	}
	// *G1Affine is a *blst.P1Affine, *G2Affine a *blst.P2Affine.
	return pippenger(unsafe.Slice((*B)(unsafe.Pointer(&points[0])), len(points)))
}

// BatchAffineG1 converts many G1 points to affine with one shared inversion.
func BatchAffineG1(points []G1) []G1Affine {
	out := make([]G1Affine, len(points))
	if len(points) == 0 {
		return out
	}
	ptrs := make([]*blst.P1, len(points))
	for i := range points {
		ptrs[i] = &points[i].p
	}
	aff := blst.P1sToAffine(ptrs)
	for i := range aff {
		out[i].p = aff[i]
	}
	return out
}

// HashToG2 hashes msg to G2 with the given domain separation tag
// (hash_to_curve, SSWU, random oracle; about 170 µs). Package crypto hashes
// messages under the signatures' tag.
func HashToG2(msg, dst []byte) G2Affine {
	return G2Affine{p: *blst.HashToG2(msg, dst).ToAffine()}
}

// MulSecret returns sk*p, as blst signs a message hashed to p (constant time
// in sk).
func (p *G2Affine) MulSecret(sk *blst.SecretKey) G2Affine {
	q := p.Jacobian()
	var out G2
	signHash(&out.p, &q.p, sk)
	return out.Affine()
}

// GT is an element of the Miller loop's target field Fp12, before the final
// exponentiation. Its zero value is the zero of Fp12, which every check
// rejects (see the package doc); start products from [MillerLoop] or [GTOne].
type GT struct{ f blst.Fp12 }

// GTOne returns the identity of Fp12.
func GTOne() GT { return GT{f: blst.Fp12One()} }

// MillerLoop returns the product of the Miller loops of the pairs
// (ps[i], qs[i]), on the calling goroutine (about 280 µs a pair). No pairs
// give one; slices of different lengths give the zero GT, which no final
// exponentiation accepts.
func MillerLoop(ps []G1Affine, qs []G2Affine) GT { return MillerLoopLines(ps, qs, nil) }

// Lines are the line functions of a G2 point's Miller loop, computed once
// (blst_precompute_lines): a Miller loop of a pair with that point that is
// given them skips computing them, a fifth of a one-root check's two-pair
// loop (it is worth keeping them for a signing root's hash, which many
// checks pair with). 19,584 bytes. The zero value is not usable: use
// [NewLines].
type Lines struct{ l [68 * 36]uint64 } // 68 blst_fp6 of 36 limbs

// NewLines returns q's lines, or nil when q is the point at infinity (whose
// pairs contribute one and need none).
func NewLines(q *G2Affine) *Lines {
	if p2AffIsInf(&q.p) {
		return nil
	}
	l := new(Lines)
	precomputeLines(l, &q.p)
	return l
}

// MillerLoopLines is [MillerLoop] where lines[i], when not nil, holds the
// lines of qs[i] (from [NewLines](&qs[i]): other lines give another value).
// A nil lines slice is MillerLoop; one of another length than ps gives the
// zero GT, which no final exponentiation accepts.
func MillerLoopLines(ps []G1Affine, qs []G2Affine, lines []*Lines) GT {
	n := len(ps)
	if n != len(qs) || (lines != nil && n != len(lines)) {
		return GT{}
	}
	if n == 0 {
		return GTOne()
	}
	var out GT
	q := unsafe.Slice((*blst.P2Affine)(unsafe.Pointer(&qs[0])), n)
	p := unsafe.Slice((*blst.P1Affine)(unsafe.Pointer(&ps[0])), n)
	if lines == nil {
		millerLoopN(&out.f, q, p)
	} else {
		millerLoopMixed(&out.f, q, p, lines)
	}
	return out
}

// Mul sets a = a*b and returns a.
func (a *GT) Mul(b *GT) *GT { fp12Mul(&a.f, &a.f, &b.f); return a }

// FinalExpIsOne applies the final exponentiation (about 470 µs) and reports
// whether the result is one: whether the product of pairings a stands for is
// the identity of GT.
func (a *GT) FinalExpIsOne() bool { return finalExpIsOne(&a.f) }

// FinalExp returns a raised to the final exponentiation: the value in GT of
// the product of pairings a stands for.
func (a *GT) FinalExp() GT {
	var out GT
	finalExp(&out.f, &a.f)
	return out
}

// IsOne reports whether a is one.
func (a *GT) IsOne() bool { return fp12IsOne(&a.f) }

// Equal reports whether a and b are equal.
func (a *GT) Equal(b *GT) bool { return fp12Equal(&a.f, &b.f) }

// Exp returns a^k for a value a of GT (the result of [GT.FinalExp]) and a
// little-endian scalar k of nbits bits (only the first nbits bits are read,
// and no more than k holds; nbits <= 0 gives one). It uses cyclotomic
// squaring, which is only right for values of GT: do not call it on a
// Miller loop's output.
func (a *GT) Exp(k []byte, nbits int) GT {
	nbits = min(nbits, 8*len(k))
	if nbits <= 0 {
		return GTOne()
	}
	var out GT
	gtExp(&out.f, &a.f, k, nbits)
	return out
}

// Conjugate sets a to its conjugate and returns a. For a value of GT (after
// the final exponentiation) that is its inverse.
func (a *GT) Conjugate() *GT { fp12Conjugate(&a.f); return a }
