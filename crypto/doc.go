// Package crypto is attpool's BLS12-381 layer: Ethereum's BLS signatures
// (min-pk: public keys in G1, 48 bytes; signatures in G2, 96 bytes; the
// proof-of-possession ciphersuite) and the point arithmetic that the batch
// verifier is built from. It is the only package of attpool that touches
// blst, so cgo stays in one place.
//
// Who should use it: code that decodes, signs or verifies single signatures
// and aggregates (a beacon node's key cache, tests, the spec-test runner) uses
// [PublicKeyFromBytes], [SignatureFromBytes], [Sign], [Verify] and the
// aggregate forms. Code that verifies many signatures at once should use
// package verifier, not the building blocks here.
//
// The building blocks ([G1], [G2], [G1Affine], [G2Affine], [GT],
// [MultiExpG1], [SumG2], [MillerLoop], ...) are an internal-facing API for
// the verifier: they do no input validation beyond what their documentation
// says, and a [Signature] decoded with [Signature.SetBytesNoSubgroupCheck]
// must have its subgroup checked by the caller.
//
// No input, however malformed, makes a function of this package panic;
// decoders return errors that wrap the sentinel errors below.
package crypto
