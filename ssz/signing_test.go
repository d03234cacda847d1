package ssz

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"

	fastssz "github.com/ferranbt/fastssz"
)

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mainnetGVR is the genesis validators root of Ethereum mainnet, used here
// only as an arbitrary non-zero root.
const mainnetGVR = "4b363db94e286120d76eb905340fdd4e54bfe9f06bf33ff6cf5ad27f511bfe95"

func TestDomainTypeValues(t *testing.T) {
	// Values of DOMAIN_BEACON_ATTESTER, DOMAIN_SELECTION_PROOF and
	// DOMAIN_AGGREGATE_AND_PROOF in the phase0 specs, as hex strings.
	for _, tc := range []struct {
		name string
		got  DomainType
		want string
	}{
		{"DomainBeaconAttester", DomainBeaconAttester, "01000000"},
		{"DomainSelectionProof", DomainSelectionProof, "05000000"},
		{"DomainAggregateAndProof", DomainAggregateAndProof, "06000000"},
	} {
		if got := hex.EncodeToString(tc.got[:]); got != tc.want {
			t.Errorf("%s = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestComputeForkDataRootByHand(t *testing.T) {
	for _, tc := range []struct {
		version Version
		gvr     Root
	}{
		{Version{}, Root{}},
		{Version{1, 2, 3, 4}, Root{0xff}},
		{Version{0x05, 0, 0, 0}, Root(mustHex(t, mainnetGVR))},
	} {
		got, err := ComputeForkDataRoot(tc.version, tc.gvr)
		if err != nil {
			t.Fatal(err)
		}
		// hash_tree_root(ForkData): two chunks, the version padded to 32
		// bytes and the root, hashed together.
		var buf [64]byte
		copy(buf[:4], tc.version[:])
		copy(buf[32:], tc.gvr[:])
		if want := Root(sha256.Sum256(buf[:])); got != want {
			t.Errorf("ComputeForkDataRoot(%x, %x) = %x, want %x", tc.version, tc.gvr, got, want)
		}
	}
}

func TestComputeDomainKnownValues(t *testing.T) {
	// The expected values were computed independently with Python's hashlib
	// following compute_domain in the phase0 specs.
	for _, tc := range []struct {
		typ     DomainType
		version Version
		gvr     string
		want    string
	}{
		{
			DomainBeaconAttester, Version{}, "0000000000000000000000000000000000000000000000000000000000000000",
			// 0x01000000 || sha256(64 zero bytes)[:28]
			"01000000f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a9",
		},
		{
			DomainBeaconAttester, Version{0x05, 0, 0, 0}, mainnetGVR,
			"01000000ad532ceb9ec5d246daad29da8aa157bfdab35e5f069f9db81f1da754",
		},
	} {
		got, err := ComputeDomain(tc.typ, tc.version, Root(mustHex(t, tc.gvr)))
		if err != nil {
			t.Fatal(err)
		}
		if h := hex.EncodeToString(got[:]); h != tc.want {
			t.Errorf("ComputeDomain(%x, %x, %s) = %s, want %s", tc.typ, tc.version, tc.gvr, h, tc.want)
		}
	}
}

func TestComputeDomainLayout(t *testing.T) {
	version, gvr := Version{9, 8, 7, 6}, Root{1, 2, 3}
	for _, typ := range []DomainType{DomainBeaconAttester, DomainSelectionProof, DomainAggregateAndProof} {
		d, err := ComputeDomain(typ, version, gvr)
		if err != nil {
			t.Fatal(err)
		}
		fdr, err := ComputeForkDataRoot(version, gvr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(d[:4], typ[:]) || !bytes.Equal(d[4:], fdr[:28]) {
			t.Errorf("ComputeDomain(%x) = %x, want %x||%x", typ, d, typ, fdr[:28])
		}
	}
	// Different fork versions and chains give different domains.
	d1, _ := ComputeDomain(DomainBeaconAttester, Version{1}, gvr)
	d2, _ := ComputeDomain(DomainBeaconAttester, Version{2}, gvr)
	d3, _ := ComputeDomain(DomainBeaconAttester, Version{1}, Root{9})
	if d1 == d2 || d1 == d3 {
		t.Error("domains do not depend on the fork version and genesis validators root")
	}
}

func TestComputeSigningRoot(t *testing.T) {
	var objectRoot Root
	for i := range objectRoot {
		objectRoot[i] = byte(i)
	}
	domain, err := ComputeDomain(DomainBeaconAttester, Version{0x05, 0, 0, 0}, Root(mustHex(t, mainnetGVR)))
	if err != nil {
		t.Fatal(err)
	}
	const want = "db779c329860d365079f53ffcf3785f246a13f82dd4db6367cfff1e66ccc2616" // Python hashlib
	got := ComputeSigningRootFromRoot(objectRoot, domain)
	if h := hex.EncodeToString(got[:]); h != want {
		t.Errorf("ComputeSigningRootFromRoot = %s, want %s", h, want)
	}

	// The SigningData hash tree root agrees.
	sd := SigningData{ObjectRoot: objectRoot, Domain: domain}
	htr, err := sd.HashTreeRoot()
	if err != nil {
		t.Fatal(err)
	}
	if Root(htr) != got {
		t.Errorf("SigningData.HashTreeRoot = %x, want %x", htr, got)
	}

	// ComputeSigningRoot hashes the object first: a SigningData object
	// whose root is known.
	got2, err := ComputeSigningRoot(&sd, domain)
	if err != nil {
		t.Fatal(err)
	}
	if want2 := ComputeSigningRootFromRoot(htr, domain); got2 != want2 {
		t.Errorf("ComputeSigningRoot = %x, want %x", got2, want2)
	}
	if got2 == got {
		t.Error("ComputeSigningRoot did not hash the object")
	}
}

func TestSelectionProofSigningRoot(t *testing.T) {
	const slot = 123456789
	r := HashTreeRootUint64(slot)
	want := Root{0x15, 0xcd, 0x5b, 0x07} // 123456789 = 0x075bcd15, little-endian
	if r != want {
		t.Fatalf("HashTreeRootUint64(%d) = %x, want %x", slot, r, want)
	}
	domain, err := ComputeDomain(DomainSelectionProof, Version{0x05, 0, 0, 0}, Root(mustHex(t, mainnetGVR)))
	if err != nil {
		t.Fatal(err)
	}
	got := ComputeSigningRootFromRoot(r, domain)
	const wantHex = "2b752d5105fcb635d2146dab56a3969099f72e2a26917d35d765fccc7d028526" // Python hashlib
	if h := hex.EncodeToString(got[:]); h != wantHex {
		t.Errorf("selection proof signing root = %s, want %s", h, wantHex)
	}
}

func TestComputeSigningRootNil(t *testing.T) {
	if _, err := ComputeSigningRoot(nil, Domain{}); !errors.Is(err, ErrNilObject) {
		t.Errorf("ComputeSigningRoot(nil) error = %v, want ErrNilObject", err)
	}
	var sd *SigningData
	if _, err := ComputeSigningRoot(sd, Domain{}); !errors.Is(err, ErrNilObject) {
		t.Errorf("ComputeSigningRoot((*SigningData)(nil)) error = %v, want ErrNilObject", err)
	}
}

func TestContainersRoundTrip(t *testing.T) {
	sd := &SigningData{ObjectRoot: Root{1, 2, 3}, Domain: Domain{4, 5, 6}}
	b, err := sd.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 64 || sd.SizeSSZ() != 64 || b[0] != 1 || b[32] != 4 {
		t.Fatalf("SigningData encoding = %x", b)
	}
	var sd2 SigningData
	if err := sd2.UnmarshalSSZ(b); err != nil {
		t.Fatal(err)
	}
	if sd2 != *sd {
		t.Errorf("round trip: got %+v, want %+v", sd2, *sd)
	}

	fd := &ForkData{CurrentVersion: Version{1, 2, 3, 4}, GenesisValidatorsRoot: Root{9}}
	b, err = fd.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	if want := append([]byte{1, 2, 3, 4, 9}, make([]byte, 31)...); !bytes.Equal(b, want) {
		t.Fatalf("ForkData encoding = %x, want %x", b, want)
	}
	var fd2 ForkData
	if err := fd2.UnmarshalSSZ(b); err != nil {
		t.Fatal(err)
	}
	if fd2 != *fd {
		t.Errorf("round trip: got %+v, want %+v", fd2, *fd)
	}
}

func TestContainersMalformed(t *testing.T) {
	for _, tc := range []struct {
		name string
		u    fastssz.Unmarshaler
		n    int
	}{
		{"SigningData/empty", new(SigningData), 0},
		{"SigningData/short", new(SigningData), 63},
		{"SigningData/long", new(SigningData), 65},
		{"ForkData/empty", new(ForkData), 0},
		{"ForkData/short", new(ForkData), 35},
		{"ForkData/long", new(ForkData), 37},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.u.UnmarshalSSZ(make([]byte, tc.n)); err == nil {
				t.Errorf("UnmarshalSSZ(%d bytes) succeeded", tc.n)
			}
		})
	}
}

// twoVectorsContainer is what SigningData and ForkData implement.
type twoVectorsContainer interface {
	fastssz.Marshaler
	fastssz.Unmarshaler
	fastssz.HashRoot
}

// checkDecoded checks v, decoded from b: it re-encodes to b, and its root
// is that of two chunks, the first field padded to 32 bytes and the
// 32-byte second, hashed together.
func checkDecoded(t *testing.T, v twoVectorsContainer, b []byte) Root {
	out, err := v.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, b) {
		t.Fatalf("re-encoding %x gave %x", b, out)
	}
	r, err := v.HashTreeRoot()
	if err != nil {
		t.Fatal(err)
	}
	var chunks [64]byte
	copy(chunks[:], b[:len(b)-32])
	copy(chunks[32:], b[len(b)-32:])
	if want := sha256.Sum256(chunks[:]); r != want {
		t.Fatalf("HashTreeRoot = %x, by hand %x", r, want)
	}
	return r
}

func FuzzSigningData(f *testing.F) {
	f.Add(make([]byte, 64))
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	f.Add([]byte{})
	f.Add(make([]byte, 65))
	f.Fuzz(func(t *testing.T, b []byte) {
		var v SigningData
		if err := v.UnmarshalSSZ(b); err == nil {
			checkDecoded(t, &v, b)
		}
	})
}

func FuzzForkData(f *testing.F) {
	f.Add(make([]byte, 36))
	f.Add(bytes.Repeat([]byte{0xab}, 36))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		var v ForkData
		if err := v.UnmarshalSSZ(b); err != nil {
			return
		}
		r := checkDecoded(t, &v, b)
		// The hash tree root matches the helper's.
		want, err := ComputeForkDataRoot(v.CurrentVersion, v.GenesisValidatorsRoot)
		if err != nil {
			t.Fatal(err)
		}
		if r != want {
			t.Fatalf("HashTreeRoot = %x, ComputeForkDataRoot = %x", r, want)
		}
	})
}
