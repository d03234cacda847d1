package crypto

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/attpool/attpool/internal/curve"
)

func TestSignVerify(t *testing.T) {
	msg := []byte("attestation data root")
	sk, other := interopKey(t, 0), interopKey(t, 1)
	pk := sk.PublicKey()
	sig := Sign(sk, msg)
	checkOnCurveInG2(t, sig)

	if !Verify(pk, msg, sig) {
		t.Fatal("valid signature rejected")
	}
	// Deterministic.
	if again := Sign(sk, msg); !again.Equal(sig) {
		t.Error("Sign is not deterministic")
	}
	if Verify(pk, []byte("attestation data roof"), sig) {
		t.Error("accepted for another message")
	}
	if Verify(pk, nil, sig) {
		t.Error("accepted for the empty message")
	}
	if Verify(other.PublicKey(), msg, sig) {
		t.Error("accepted under another key")
	}
	if Verify(pk, msg, Sign(other, msg)) {
		t.Error("accepted another key's signature")
	}
	neg := sig.point().Jacobian()
	negA := neg.Neg().Affine()
	if Verify(pk, msg, signatureFromPoint(&negA)) {
		t.Error("accepted the negated signature")
	}
	var inf Signature
	if Verify(pk, msg, &inf) {
		t.Error("accepted the infinity signature")
	}
	if Verify(nil, msg, sig) || Verify(pk, msg, nil) {
		t.Error("accepted a nil argument")
	}
	// Empty and long messages sign and verify.
	for _, m := range [][]byte{nil, {}, bytes.Repeat([]byte{0xab}, 10000)} {
		if !Verify(pk, m, Sign(sk, m)) {
			t.Errorf("message of %d bytes: rejected", len(m))
		}
	}
	// The signature encodes and decodes to one that verifies.
	b := sig.Bytes()
	dec, err := SignatureFromBytes(b[:])
	if err != nil || !Verify(pk, msg, dec) {
		t.Fatalf("decoded signature: %v", err)
	}
}

// TestVerifyRejectsOutsideG2: sig + T with T of order 13 decodes only
// without the subgroup check, and no verifier accepts it, although
// 13*(sig+T) = 13*sig.
func TestVerifyRejectsOutsideG2(t *testing.T) {
	msg := []byte("m")
	sk := interopKey(t, 2)
	pk := sk.PublicKey()
	sig := Sign(sk, msg)
	bad := outsideG2Signature(t, sig, newRand(21))
	checkOnCurveNotInG2(t, bad)

	b := bad.Bytes()
	_, err := SignatureFromBytes(b[:])
	checkErr(t, err, ErrNotInSubgroup)
	dec, err := new(Signature).SetBytesNoSubgroupCheck(b[:])
	if err != nil {
		t.Fatalf("SetBytesNoSubgroupCheck: %v", err)
	}
	if !dec.Equal(bad) {
		t.Fatal("decoded another point")
	}
	// 13*bad == 13*sig: the shift is invisible to a multiple of 13.
	x, y := bad.point().Jacobian(), sig.point().Jacobian()
	if x.Equal(&y) || !x.Mul([]byte{13}, 4).Equal(y.Mul([]byte{13}, 4)) {
		t.Fatal("bad - sig is not of order 13")
	}
	if Verify(pk, msg, dec) {
		t.Error("Verify accepted a signature outside G2")
	}
	if FastAggregateVerify([]*PublicKey{pk}, msg, dec) || EthFastAggregateVerify([]*PublicKey{pk}, msg, dec) {
		t.Error("FastAggregateVerify accepted a signature outside G2")
	}
	if AggregateVerify([]*PublicKey{pk}, [][]byte{msg}, dec) {
		t.Error("AggregateVerify accepted a signature outside G2")
	}
}

func TestAggregateVerify(t *testing.T) {
	pks, msgs, sigs := distinctSigned(t, 4, 'm')
	agg, err := AggregateSignatures(sigs)
	if err != nil {
		t.Fatal(err)
	}
	checkOnCurveInG2(t, agg)
	if !AggregateVerify(pks, msgs, agg) {
		t.Fatal("valid aggregate rejected")
	}
	if !AggregateVerify(pks[:1], msgs[:1], sigs[0]) {
		t.Error("single-pair aggregate rejected")
	}
	// Order of the pairs does not matter.
	if !AggregateVerify([]*PublicKey{pks[3], pks[1], pks[2], pks[0]}, [][]byte{msgs[3], msgs[1], msgs[2], msgs[0]}, agg) {
		t.Error("permuted pairs rejected")
	}
	// Swapping two messages is a different statement.
	if AggregateVerify(pks, [][]byte{msgs[1], msgs[0], msgs[2], msgs[3]}, agg) {
		t.Error("swapped messages accepted")
	}
	part, _ := AggregateSignatures(sigs[:3])
	if AggregateVerify(pks, msgs, part) {
		t.Error("aggregate missing a signature accepted")
	}
	if AggregateVerify(pks[:3], msgs[:3], agg) {
		t.Error("aggregate with an extra signature accepted")
	}
	// Equal messages are allowed in the proof-of-possession ciphersuite.
	same, _ := AggregateSignatures([]*Signature{Sign(interopKey(t, 0), []byte("x")), Sign(interopKey(t, 1), []byte("x"))})
	if !AggregateVerify(pks[:2], [][]byte{[]byte("x"), []byte("x")}, same) {
		t.Error("aggregate over a repeated message rejected")
	}
	// Degenerate inputs.
	var inf Signature
	for name, ok := range map[string]bool{
		"no pairs":           AggregateVerify(nil, nil, agg),
		"no pairs, infinity": AggregateVerify(nil, nil, &inf),
		"more keys":          AggregateVerify(pks, msgs[:3], agg),
		"more messages":      AggregateVerify(pks[:3], msgs, agg),
		"nil signature":      AggregateVerify(pks, msgs, nil),
		"nil key":            AggregateVerify([]*PublicKey{pks[0], nil, pks[2], pks[3]}, msgs, agg),
		"infinity signature": AggregateVerify(pks, msgs, &inf),
	} {
		if ok {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestFastAggregateVerify(t *testing.T) {
	msg := []byte("same root")
	var pks []*PublicKey
	var sigs []*Signature
	for i := range 5 {
		sk := interopKey(t, i)
		pks = append(pks, sk.PublicKey())
		sigs = append(sigs, Sign(sk, msg))
	}
	agg, err := AggregateSignatures(sigs)
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func([]*PublicKey, []byte, *Signature) bool{
		"FastAggregateVerify":    FastAggregateVerify,
		"EthFastAggregateVerify": EthFastAggregateVerify,
	} {
		t.Run(name, func(t *testing.T) {
			if !f(pks, msg, agg) {
				t.Fatal("valid aggregate rejected")
			}
			if !f(pks[:1], msg, sigs[0]) {
				t.Error("single signature rejected")
			}
			if f(pks[:4], msg, agg) || f(pks, []byte("other"), agg) || f(pks, msg, sigs[0]) {
				t.Error("wrong keys, message or signature accepted")
			}
			// A key listed twice counts twice.
			twice := append([]*PublicKey{pks[0]}, pks...)
			if f(twice, msg, agg) {
				t.Error("duplicated key accepted with a single signature")
			}
			dup, _ := AggregateSignatures(append([]*Signature{sigs[0]}, sigs...))
			if !f(twice, msg, dup) {
				t.Error("duplicated key with its signature twice rejected")
			}
			if f(pks, msg, nil) || f([]*PublicKey{pks[0], nil}, msg, agg) || f(nil, msg, agg) {
				t.Error("nil or missing argument accepted")
			}
			// Keys summing to infinity: pk and -pk.
			b := pks[0].Bytes()
			b[0] ^= 0x20
			negPK, err := PublicKeyFromBytes(b[:])
			if err != nil {
				t.Fatal(err)
			}
			var inf Signature
			if f([]*PublicKey{pks[0], negPK}, msg, &inf) {
				t.Error("keys summing to infinity accepted with the infinity signature")
			}
		})
	}
	// The one difference: no keys with the infinity signature.
	var inf Signature
	if FastAggregateVerify(nil, msg, &inf) {
		t.Error("FastAggregateVerify accepted no keys")
	}
	if !EthFastAggregateVerify(nil, msg, &inf) || !EthFastAggregateVerify([]*PublicKey{}, nil, &inf) {
		t.Error("EthFastAggregateVerify rejected no keys with the infinity signature")
	}
	if EthFastAggregateVerify(nil, msg, agg) || EthFastAggregateVerify(nil, msg, nil) {
		t.Error("EthFastAggregateVerify accepted no keys with a non-infinity or nil signature")
	}
	if EthFastAggregateVerify(pks, msg, &inf) {
		t.Error("EthFastAggregateVerify accepted keys with the infinity signature")
	}
}

func TestAggregateSignatures(t *testing.T) {
	var sigs []*Signature
	for i := range 6 {
		sigs = append(sigs, Sign(interopKey(t, i), []byte{byte(i)}))
	}
	agg, err := AggregateSignatures(sigs)
	if err != nil {
		t.Fatal(err)
	}
	want := curve.G2Infinity()
	for _, s := range sigs {
		want.AddAffine(s.point())
	}
	if wantA := want.Affine(); !agg.point().Equal(&wantA) {
		t.Error("aggregate is not the sum")
	}
	one, err := AggregateSignatures(sigs[:1])
	if err != nil || !one.Equal(sigs[0]) {
		t.Errorf("aggregate of one: %v", err)
	}
	// With infinity and a cancelling pair.
	var inf Signature
	n := sigs[0].point().Jacobian()
	nA := n.Neg().Affine()
	z, err := AggregateSignatures([]*Signature{sigs[0], &inf, signatureFromPoint(&nA)})
	if err != nil || !z.IsInfinity() {
		t.Errorf("s + inf + (-s): %v, infinity %v", err, z != nil && z.IsInfinity())
	}
	checkOnCurveInG2(t, z)
	_, err = AggregateSignatures(nil)
	checkErr(t, err, ErrEmpty)
	_, err = AggregateSignatures([]*Signature{})
	checkErr(t, err, ErrEmpty)
	_, err = AggregateSignatures([]*Signature{sigs[0], nil})
	checkErr(t, err, ErrInvalidEncoding)
}

func TestAggregatePublicKeys(t *testing.T) {
	var pks []*PublicKey
	sum := new(big.Int)
	for i := range 5 {
		sk := interopKey(t, i)
		pks = append(pks, sk.PublicKey())
		b := sk.Bytes()
		sum.Add(sum, new(big.Int).SetBytes(b[:]))
	}
	agg, err := AggregatePublicKeys(pks)
	if err != nil {
		t.Fatal(err)
	}
	checkPublicKey(t, agg)
	// The aggregate key is the key of the summed secret.
	sumSK, err := SecretKeyFromBytes(sum.Mod(sum, groupR).FillBytes(make([]byte, 32)))
	if err != nil {
		t.Fatal(err)
	}
	if !agg.Equal(sumSK.PublicKey()) {
		t.Error("aggregate key is not (sum of secrets)*g1")
	}
	one, err := AggregatePublicKeys(pks[:1])
	if err != nil || !one.Equal(pks[0]) {
		t.Errorf("aggregate of one: %v", err)
	}
	b := pks[0].Bytes()
	b[0] ^= 0x20
	neg, _ := PublicKeyFromBytes(b[:])
	_, err = AggregatePublicKeys([]*PublicKey{pks[0], neg})
	checkErr(t, err, ErrInfinity)
	_, err = AggregatePublicKeys(nil)
	checkErr(t, err, ErrEmpty)
	_, err = AggregatePublicKeys([]*PublicKey{pks[0], nil})
	checkErr(t, err, ErrInvalidEncoding)

	// EthAggregatePubkeys: the same over encodings.
	var enc [][]byte
	for _, pk := range pks {
		b := pk.Bytes()
		enc = append(enc, b[:])
	}
	got, err := EthAggregatePubkeys(enc)
	if err != nil {
		t.Fatal(err)
	}
	if want := agg.Bytes(); got != want {
		t.Errorf("EthAggregatePubkeys = %x, want %x", got, want)
	}
	// A sum at infinity is returned, not refused (the specs check only inputs).
	got, err = EthAggregatePubkeys([][]byte{enc[0], b[:]})
	if err != nil || !bytes.Equal(got[:], infinityBytes(48)) {
		t.Errorf("pk + (-pk) = %x, %v", got, err)
	}
	_, err = EthAggregatePubkeys(nil)
	checkErr(t, err, ErrEmpty)
	for _, c := range publicKeyCases(t) {
		if c.want == nil {
			continue
		}
		_, err := EthAggregatePubkeys([][]byte{enc[0], c.in})
		checkErr(t, err, c.want)
	}
}

func TestPublicKeyAndSignatureAccessors(t *testing.T) {
	a, b := interopKey(t, 0).PublicKey(), interopKey(t, 1).PublicKey()
	if !a.Equal(a) || a.Equal(b) || b.Equal(a) {
		t.Error("PublicKey.Equal")
	}
	if a.point() != a.point() || a.point().IsInfinity() {
		t.Error("PublicKey.Point")
	}
	s := Sign(interopKey(t, 0), []byte("m"))
	u := Sign(interopKey(t, 0), []byte("n"))
	if !s.Equal(s) || s.Equal(u) {
		t.Error("Signature.Equal")
	}
	if s.point() != s.point() || !s.point().Equal(s.point()) || s.point().Equal(u.point()) {
		t.Error("Signature.Point")
	}
	w := signatureFromPoint(s.point())
	if !w.Equal(s) || w.point() == s.point() {
		t.Error("SignatureFromPoint does not copy the point")
	}
	if s.IsInfinity() || !new(Signature).IsInfinity() {
		t.Error("Signature.IsInfinity")
	}
	if !new(Signature).InG2() {
		t.Error("infinity is in G2")
	}
}

// TestHashToG2 checks the RFC 9380 test vector of
// BLS12381G2_XMD:SHA-256_SSWU_RO_ (appendix J.10.1, msg = "").
func TestHashToG2(t *testing.T) {
	quux := []byte("QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_")
	want := "05cb8437535e20ecffaef7752baddf98034139c38452458baeefab379ba13dff5bf5dd71b72418717047f5b0f37da03d" + // x.c1
		"0141ebfbdca40eb85b87142e130ab689c673cf60f1a3e98d69335266f30d9b8d4ac44c1038e9dcdd5393faf5c41fb78a" + // x.c0
		"12424ac32561493f3fe3c260708a12b7c620e7be00099a974e259ddc7d1f6395c3c811cdd19f1e8dbf3e9ecfdcbab8d6" + // y.c1
		"0503921d7f6a12805e72940b963c0cf3471c7b2a524950ca195d11062ee75ec076daf2d4bc358c4b190c0c98064fdd92" //  y.c0
	h := curve.HashToG2(nil, quux)
	if u := h.Uncompressed(); !bytes.Equal(u[:], mustHex(t, want)) {
		t.Errorf("HashToG2(\"\") = %x\nwant %s", u, want)
	}
	if u := HashToCurveG2(nil, quux); !bytes.Equal(u[:], mustHex(t, want)) {
		t.Errorf("HashToCurveG2(\"\") = %x\nwant %s", u, want)
	}
	checkOnCurveInG2(t, signatureFromPoint(&h))
	// Domain separation and message both matter.
	a, b, c := curve.HashToG2([]byte("m"), []byte(dst)), curve.HashToG2([]byte("m"), quux), curve.HashToG2([]byte("n"), []byte(dst))
	if a.Equal(&b) || a.Equal(&c) {
		t.Error("HashToG2 collides")
	}
	if a2 := curve.HashToG2([]byte("m"), []byte(dst)); !a.Equal(&a2) {
		t.Error("HashToG2 is not deterministic")
	}
}

// TestCurvePointsAsSignatures: the G2 generator holds every invariant of a
// signature in G2, and random curve points those of a point outside G2 (the
// encoding checks need this package's helpers; internal/curve's tests check
// the points' arithmetic).
func TestCurvePointsAsSignatures(t *testing.T) {
	g2 := curve.G2Generator()
	checkOnCurveInG2(t, signatureFromPoint(&g2))
	rng := newRand(9)
	for range 8 {
		checkOnCurveNotInG2(t, randomCurvePoint(t, rng))
	}
}
