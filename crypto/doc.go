// Package crypto is attpool's BLS12-381 signature layer: Ethereum's BLS
// signatures (min-pk: public keys in G1, 48 bytes; signatures in G2, 96
// bytes; the proof-of-possession ciphersuite). Keys, signatures, [Sign],
// [Verify], the aggregate forms, the consensus specs' eth_ variants, the
// interop keys and the specs' point deserialization are here; the point
// arithmetic the batch verifier is built from is in the module's
// internal/curve package. The two are the only importers of blst, so cgo
// stays in two places.
//
// Who should use it: code that decodes, signs or verifies single signatures
// and aggregates (a beacon node's key cache, tests, the spec-test runner) uses
// [PublicKeyFromBytes], [SignatureFromBytes], [Sign], [Verify] and the
// aggregate forms. Code that verifies many signatures at once should use
// package verifier. A [Signature] decoded with
// [Signature.SetBytesNoSubgroupCheck] must have its subgroup checked by the
// caller.
//
// Zero values: the zero [PublicKey] is the point at infinity, which no
// decoder returns and every verification and aggregation function rejects
// as it rejects nil; the zero [Signature] is the infinity signature (a valid
// G2 element); the zero [SecretKey] is 0, whose key and signatures every
// check rejects; the zero [KeySum] is the empty sum; the zero
// [HashedMessage] is the point at infinity, which signs to infinity.
//
// No input, however malformed, makes a function of this package panic;
// decoders return errors that wrap the sentinel errors below.
package crypto
