package curve

// Split multiplications. Each group has an endomorphism that multiplies
// its points by x^2 (x the BLS parameter) at the cost of a field
// multiplication or two: (X, Y) -> (c*X, -Y), c a cube root of unity. A
// scalar k written k = k0 + k1*x^2 then costs the doublings of the longer
// of k0 and k1 instead of those of k. The verifier draws its small calls'
// scalars as two short halves of that form (sparse, so they also cost few
// additions).

/*
#include "straus.h"
*/
import "C"

import "math/big"

// splitBase is x^2 (128 bits), x = -0xd201000000010000 the BLS12-381
// parameter.
var splitBase = new(big.Int).SetBytes([]byte{
	0xac, 0x45, 0xa4, 0x01, 0x00, 0x01, 0xa4, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00})

// SplitBase returns x^2, the factor of a split scalar's high half.
func SplitBase() *big.Int { return new(big.Int).Set(splitBase) }

// MultiExpG1Split returns sum_i k_i*points[i] as [MultiExpG1] does, for
// points in G1. Below StrausMax points a scalar of more than 128 bits is
// split as k = k0 + k1*x^2 with |k0| <= x^2/2, and k1 multiplies the
// point's image under the endomorphism: a scalar drawn in that form with
// short halves costs the doublings of the longer half. The points must be
// in G1, where the endomorphism multiplies by x^2.
func MultiExpG1Split(points []*G1Affine, scalars []byte, nbits int) G1 {
	k, neg, kbits, ok := splitFor(len(points), scalars, nbits)
	switch {
	case !ok:
		return MultiExpG1(points, scalars, nbits)
	case kbits == 0:
		return G1{}
	}
	return strausG1(points, k, kbits, neg)
}

// MultiExpG2Split is [MultiExpG1Split] in G2: the points must be in G2.
func MultiExpG2Split(points []*G2Affine, scalars []byte, nbits int) G2 {
	k, neg, kbits, ok := splitFor(len(points), scalars, nbits)
	switch {
	case !ok:
		return MultiExpG2(points, scalars, nbits)
	case kbits == 0:
		return G2{}
	}
	return strausG2(points, k, kbits, neg)
}

// splitFor returns the n points' scalars split (splitScalars), or false
// when a split multiplication does not apply: not from one to StrausMax-1
// points, scalars of at most 128 bits, or too few scalar bytes.
func splitFor(n int, scalars []byte, nbits int) (k, neg []byte, kbits int, ok bool) {
	nb := (nbits + 7) / 8
	if n == 0 || n >= StrausMax || nbits <= 128 || len(scalars) < n*nb {
		return nil, nil, 0, false
	}
	k, neg, kbits = splitScalars(scalars[:n*nb], n, nbits)
	return k, neg, kbits, true
}

// splitScalars writes each of the n scalars (little-endian, nbits bits
// read) as k0 + k1*x^2 with |k0| <= x^2/2, k1 >= 0. It returns the 2n
// magnitudes |k0|, k1 in turn, little-endian of (kbits+7)/8 bytes, where
// kbits is the longest; neg[i] is 1 when k0 of scalar i is negative.
func splitScalars(scalars []byte, n, nbits int) (k []byte, neg []byte, kbits int) {
	nb := (nbits + 7) / 8
	half := new(big.Int).Rsh(splitBase, 1)
	var v, k0, k1 big.Int
	parts := make([]big.Int, 2*n)
	neg = make([]byte, n)
	be := make([]byte, nb)
	for i := range n {
		for j, b := range scalars[i*nb : (i+1)*nb] {
			be[nb-1-j] = b
		}
		if extra := nb*8 - nbits; extra > 0 {
			be[0] &= 0xff >> extra
		}
		v.SetBytes(be)
		k1.Add(&v, half)
		k1.Quo(&k1, splitBase)
		k0.Mul(&k1, splitBase)
		k0.Sub(&v, &k0)
		if k0.Sign() < 0 {
			neg[i] = 1
			k0.Neg(&k0)
		}
		parts[2*i].Set(&k0)
		parts[2*i+1].Set(&k1)
		kbits = max(kbits, k0.BitLen(), k1.BitLen())
	}
	kb := (kbits + 7) / 8
	k = make([]byte, max(1, 2*n*kb))
	for i := range parts {
		parts[i].FillBytes(be[:kb])
		for j := range kb {
			k[i*kb+j] = be[kb-1-j]
		}
	}
	return k, neg, kbits
}

// ExpSplit returns a^k as [GT.Exp] does, splitting a scalar of more than
// 128 bits as the multiplications do: a^k = a^k0 * (a^(x^2))^k1, where
// a^(x^2) is a's Frobenius map squared. So a scalar of the split form costs
// the squarings of its longer half and a multiplication per nonzero digit.
func (a *GT) ExpSplit(k []byte, nbits int) GT {
	nbits = min(nbits, 8*len(k))
	if nbits <= 128 {
		return a.Exp(k, nbits)
	}
	h, neg, kbits := splitScalars(k[:(nbits+7)/8], 1, nbits)
	if kbits == 0 {
		return GTOne()
	}
	kb := (kbits + 7) / 8
	dig := make([]C.schar, 2*(kbits+1))
	var out GT
	C.attpool_gt_exp_split(cFp12(&out.f), cFp12(&a.f), (*C.byte)(&h[0]), (*C.byte)(&h[kb]),
		C.int(neg[0]), C.size_t(kbits), &dig[0])
	return out
}
