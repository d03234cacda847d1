// Package verifier checks many BLS signatures of Ethereum's consensus layer
// at once and returns one verdict per signature.
//
// A beacon node's gossip pipeline and its block import use it: both hold
// many signatures, most of them over a few signing roots. Code that checks
// one signature or aggregate should call package crypto instead.
//
// Start with [New], pass a slice of [Set] to [Verifier.Verify], and call
// [Verifier.Close] when done. verdicts[i] is what checking sets[i] alone
// would say, so one bad set never rejects another. A call accepts an
// invalid signature with probability at most 2^-SecurityBits ([Config]).
// [Verifier.VerifyStream] reports each verdict as soon as a check settles it.
//
// The zero Config means [DefaultConfig]; the zero Verifier is not usable.
// The method and its soundness are in docs/DESIGN.md, "The verifier's
// search"; package verifier/baseline holds other clients' methods, for
// benchmarks.
package verifier
