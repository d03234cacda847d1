package crypto

import "github.com/attpool/attpool/internal/curve"

// HashedMessage is a message hashed to G2 under the signatures' domain tag,
// for many keys that sign one message: [Sign] hashes on every call (about
// 170 µs), [HashedMessage.Sign] only multiplies. The zero value is the
// point at infinity, which no message hashes to: it signs to the infinity
// signature.
type HashedMessage curve.G2Affine

// HashMessage hashes msg to G2 as [Sign] does.
func HashMessage(msg []byte) *HashedMessage {
	h := curve.HashToG2(msg, []byte(dst))
	return (*HashedMessage)(&h)
}

// Sign returns sk's signature of the message m was hashed from: the
// signature [Sign] returns for it.
func (m *HashedMessage) Sign(sk *SecretKey) *Signature {
	a := (*curve.G2Affine)(m).MulSecret(&sk.s)
	return (*Signature)(&a)
}

// HashToCurveG2 returns hash_to_curve(msg) in G2 under any domain
// separation tag dst (RFC 9380, BLS12381G2_XMD:SHA-256_SSWU_RO_), in the
// 192-byte uncompressed encoding x.c1||x.c0||y.c1||y.c0: for the
// bls12-381-tests hash_to_G2 vectors, whose tags are not the signatures'.
func HashToCurveG2(msg, dst []byte) [2 * SignatureSize]byte {
	p := curve.HashToG2(msg, dst)
	return p.Uncompressed()
}
