package crypto

import (
	"bufio"
	"bytes"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"
)

type interopVector struct {
	index  uint64
	sk, pk []byte
}

func loadInteropVectors(t *testing.T) []interopVector {
	t.Helper()
	f, err := os.Open("testdata/interop_keys.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var vs []interopVector
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 3 {
			t.Fatalf("bad line %q", line)
		}
		i, err := strconv.ParseUint(fs[0], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, interopVector{i, mustHex(t, fs[1]), mustHex(t, fs[2])})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestInteropKeys checks InteropSecretKey against the published interop keys
// (testdata/interop_keys.txt, sources in interop_keys.SOURCE.md).
func TestInteropKeys(t *testing.T) {
	vs := loadInteropVectors(t)
	if len(vs) < 3 {
		t.Fatalf("only %d vectors", len(vs))
	}
	reduced := 0
	for _, v := range vs {
		sk, err := InteropSecretKey(v.index)
		if err != nil {
			t.Fatalf("InteropSecretKey(%d): %v", v.index, err)
		}
		if b := sk.Bytes(); !bytes.Equal(b[:], v.sk) {
			t.Errorf("InteropSecretKey(%d) = %x, want %x", v.index, b, v.sk)
		}
		pk := sk.PublicKey()
		checkPublicKey(t, pk)
		if b := pk.Bytes(); !bytes.Equal(b[:], v.pk) {
			t.Errorf("pubkey of interop key %d = %x, want %x", v.index, b, v.pk)
		}
		// The published public key decodes to the same key.
		dec, err := PublicKeyFromBytes(v.pk)
		if err != nil || !dec.Equal(pk) {
			t.Errorf("published pubkey %d: %v", v.index, err)
		}
		// Was the reduction mod r exercised? (hash read little-endian >= r)
		var in [32]byte
		in[0] = byte(v.index)
		if leHashInt(in).Cmp(groupR) >= 0 {
			reduced++
		}
	}
	if reduced == 0 {
		t.Error("no vector exercises the reduction modulo r")
	}
	// Index 0's public key as public fixtures quote it (Teku's
	// ValidatorLoaderTest among them), independent of the file.
	sk0, _ := InteropSecretKey(0)
	if b := sk0.PublicKey().Bytes(); !bytes.Equal(b[:], mustHex(t, "a99a76ed7796f7be22d5b7e85deeb7c5677e88e511e0b337618f8c4eb61349b4bf2d153f649f7b53359fe8b94a38e44c")) {
		t.Errorf("interop pubkey 0 = %x", b)
	}
}

func TestInteropSecretKeyDeterministic(t *testing.T) {
	seen := map[[SecretKeySize]byte]uint64{}
	for _, i := range []uint64{0, 1, 2, 255, 256, 1 << 32, 1<<64 - 1} {
		a, err := InteropSecretKey(i)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := InteropSecretKey(i)
		if a.Bytes() != b.Bytes() {
			t.Errorf("InteropSecretKey(%d) is not deterministic", i)
		}
		if j, dup := seen[a.Bytes()]; dup {
			t.Errorf("InteropSecretKey(%d) == InteropSecretKey(%d)", i, j)
		}
		seen[a.Bytes()] = i
		if new(big.Int).SetBytes(func() []byte { x := a.Bytes(); return x[:] }()).Cmp(groupR) >= 0 {
			t.Errorf("InteropSecretKey(%d) not below r", i)
		}
	}
}

func leHashInt(in [32]byte) *big.Int {
	h := sha256Sum(in[:])
	for i, j := 0, len(h)-1; i < j; i, j = i+1, j-1 {
		h[i], h[j] = h[j], h[i]
	}
	return new(big.Int).SetBytes(h[:])
}
