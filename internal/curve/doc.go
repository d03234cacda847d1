// Package curve is attpool's BLS12-381 point arithmetic over blst: points of
// G1 and G2 in affine and Jacobian form, multi-scalar multiplication
// (Straus's method in C below [StrausMax] points, blst's Pippenger above;
// split through the endomorphism that multiplies by x^2 for scalars drawn
// in that form, [MultiExpG2Split]),
// batch-affine sums, the verifier's digit rounds (batch-affine bucket
// accumulation in C), Miller loops (with a G2 point's lines precomputed,
// [Lines], or computed as they go) and the final exponentiation. Package
// crypto builds the BLS signatures on it and package verifier its batch
// checks; it is internal because it validates no more than its documentation
// says (a point is trusted to be on the curve, usually in the subgroup).
//
// Zero values: the zero [G1], [G2], [G1Affine] and [G2Affine] are the point
// at infinity (blst's encoding of the identity), so sums may start from
// them. The zero [GT] is the zero of Fp12, not an element of GT: products
// with it stay zero and [GT.FinalExpIsOne] and [GT.IsOne] report false, so
// it never passes a check; start products from [MillerLoop] or [GTOne].
//
// Scalars are little-endian byte strings of (nbits+7)/8 bytes each.
//
// Together with package crypto it is the only importer of blst, so cgo stays
// in these two places.
package curve
