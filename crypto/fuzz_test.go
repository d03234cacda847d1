package crypto

import (
	"bytes"
	"errors"
	"testing"
)

var sentinels = []error{ErrInvalidLength, ErrInvalidEncoding, ErrNotOnCurve, ErrNotInSubgroup, ErrInfinity}

// checkSentinel asserts that err wraps exactly one of the decoding sentinels
// and that a wrong length is reported as such.
func checkSentinel(t *testing.T, err error, in []byte, size int) {
	t.Helper()
	n := 0
	for _, s := range sentinels {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("error %q wraps %d sentinels", err, n)
	}
	if (len(in) != size) != errors.Is(err, ErrInvalidLength) {
		t.Fatalf("%d-byte input: error %q", len(in), err)
	}
}

func FuzzPublicKeyFromBytes(f *testing.F) {
	for _, c := range publicKeyCases(f) {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		orig := bytes.Clone(in)
		pk, err := PublicKeyFromBytes(in)
		if !bytes.Equal(in, orig) {
			t.Fatal("input modified")
		}
		if err != nil {
			if pk != nil {
				t.Fatal("key and error")
			}
			checkSentinel(t, err, in, PublicKeySize)
			return
		}
		if b := pk.Bytes(); !bytes.Equal(b[:], in) {
			t.Fatalf("decoded %x, re-encoded %x", in, b)
		}
		checkPublicKey(t, pk)
	})
}

func signatureSeeds(f *testing.F) {
	for _, c := range signatureCases(f) {
		f.Add(c.in)
	}
	// More points outside G2: random curve points, and shifts by order 13.
	rng := newRand(30)
	for range 4 {
		b := randomCurvePoint(f, rng).Bytes()
		f.Add(b[:])
	}
	b := outsideG2Signature(f, Sign(interopKey(f, 5), nil), rng).Bytes()
	f.Add(b[:])
}

func FuzzSignatureFromBytes(f *testing.F) {
	signatureSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		orig := bytes.Clone(in)
		s, err := SignatureFromBytes(in)
		if !bytes.Equal(in, orig) {
			t.Fatal("input modified")
		}
		u, errU := new(Signature).SetBytesNoSubgroupCheck(in)
		if err != nil {
			if s != nil {
				t.Fatal("signature and error")
			}
			checkSentinel(t, err, in, SignatureSize)
			if errors.Is(err, ErrInfinity) {
				t.Fatal("infinity refused for a signature")
			}
			// Only the subgroup check separates the two decoders.
			if errors.Is(err, ErrNotInSubgroup) != (errU == nil) {
				t.Fatalf("SignatureFromBytes: %v, without subgroup check: %v", err, errU)
			}
			return
		}
		if b := s.Bytes(); !bytes.Equal(b[:], in) {
			t.Fatalf("decoded %x, re-encoded %x", in, b)
		}
		if errU != nil || !u.Equal(s) {
			t.Fatalf("decodes with the subgroup check but not without: %v", errU)
		}
		checkOnCurveInG2(t, s)
	})
}

func FuzzSignatureSetBytesNoSubgroupCheck(f *testing.F) {
	signatureSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		var s Signature
		got, err := s.SetBytesNoSubgroupCheck(in)
		if err != nil {
			if got != nil || !s.IsInfinity() {
				t.Fatal("receiver returned or modified on error")
			}
			checkSentinel(t, err, in, SignatureSize)
			if errors.Is(err, ErrNotInSubgroup) || errors.Is(err, ErrInfinity) {
				t.Fatalf("error %v without a subgroup check", err)
			}
			return
		}
		if b := s.Bytes(); !bytes.Equal(b[:], in) {
			t.Fatalf("decoded %x, re-encoded %x", in, b)
		}
		checkEncodingG2(t, &s)
		_, errS := SignatureFromBytes(in)
		if s.InG2() != (errS == nil) {
			t.Fatalf("InG2 %v but SignatureFromBytes: %v", s.InG2(), errS)
		}
		// The verifiers never accept a point outside G2, whatever the key.
		if !s.InG2() && Verify(interopKey(t, 0).PublicKey(), in, &s) {
			t.Fatal("Verify accepted a point outside G2")
		}
	})
}

func FuzzSecretKeyFromBytes(f *testing.F) {
	f.Add(make([]byte, 32))
	f.Add(bytes.Repeat([]byte{0xff}, 32))
	f.Add(groupR.FillBytes(make([]byte, 32)))
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, in []byte) {
		sk, err := SecretKeyFromBytes(in)
		if err != nil {
			if !errors.Is(err, ErrInvalidLength) && !errors.Is(err, ErrInvalidSecretKey) {
				t.Fatalf("error %v", err)
			}
			return
		}
		if b := sk.Bytes(); !bytes.Equal(b[:], in) {
			t.Fatalf("Bytes() = %x, want %x", b, in)
		}
	})
}
