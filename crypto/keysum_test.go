package crypto

import (
	"errors"
	"testing"
)

func TestKeySum(t *testing.T) {
	var pks []*PublicKey
	for i := range uint64(6) {
		sk, err := InteropSecretKey(i)
		if err != nil {
			t.Fatal(err)
		}
		pks = append(pks, sk.PublicKey())
	}
	want, err := AggregatePublicKeys(pks[:4])
	if err != nil {
		t.Fatal(err)
	}
	// (0..5) - (4, 5) = 0..3, added in two calls.
	var s KeySum
	if err := s.Add(pks[:2]); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(pks[2:]); err != nil {
		t.Fatal(err)
	}
	if err := s.Sub(pks[4:]); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(nil); err != nil {
		t.Fatal(err)
	}
	got, err := s.PublicKey()
	if err != nil || !got.Equal(want) {
		t.Fatalf("sum: %v, want the sum of keys 0..3", err)
	}
	// A copy is independent.
	c := s
	if err := c.Sub(pks[:1]); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.PublicKey(); !got.Equal(want) {
		t.Fatal("subtracting from a copy changed the original")
	}
	// A key and its removal: infinity, an error.
	var z KeySum
	if _, err := z.PublicKey(); !errors.Is(err, ErrInfinity) {
		t.Errorf("empty sum: %v, want ErrInfinity", err)
	}
	_ = z.Add(pks[:1])
	_ = z.Sub(pks[:1])
	if _, err := z.PublicKey(); !errors.Is(err, ErrInfinity) {
		t.Errorf("k - k: %v, want ErrInfinity", err)
	}
	// A nil key: an error, the sum unchanged.
	before := s
	if err := s.Add([]*PublicKey{pks[0], nil}); err == nil {
		t.Error("nil key added without error")
	}
	if err := s.Sub([]*PublicKey{nil}); err == nil {
		t.Error("nil key subtracted without error")
	}
	if a, _ := before.PublicKey(); !a.Equal(got) {
		t.Error("failed Add changed the sum")
	}
	if b, _ := s.PublicKey(); !b.Equal(got) {
		t.Error("failed Add or Sub changed the sum")
	}
}
