package crypto

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"
)

// TestDeserializeG1 classifies every public key encoding as the specs'
// deserialization does: as KeyValidate, except that the point at infinity
// deserializes.
func TestDeserializeG1(t *testing.T) {
	for _, c := range publicKeyCases(t) {
		want := c.want
		if errors.Is(want, ErrInfinity) {
			want = nil
		}
		t.Run(c.name, func(t *testing.T) {
			p, err := onCopy(t, c.in, deserializeG1)
			if want != nil {
				checkErr(t, err, want)
				return
			}
			if err != nil {
				t.Fatalf("DeserializeG1(%x): %v", c.in, err)
			}
			if b := p.Blst().Compress(); !bytes.Equal(b, c.in) {
				t.Errorf("re-encodes to %x, want %x", b, c.in)
			}
			if p.IsInfinity() != bytes.Equal(c.in, infinityBytes(48)) {
				t.Errorf("IsInfinity %v", p.IsInfinity())
			}
		})
	}
}

// TestDeserializeG2 classifies every signature encoding as
// signature_to_point with its subgroup check (infinity included).
func TestDeserializeG2(t *testing.T) {
	for _, c := range signatureCases(t) {
		t.Run(c.name, func(t *testing.T) {
			p, err := deserializeG2(c.in)
			if c.want != nil {
				checkErr(t, err, c.want)
				return
			}
			if err != nil {
				t.Fatalf("DeserializeG2(%x): %v", c.in, err)
			}
			if b := p.Bytes(); !bytes.Equal(b[:], c.in) {
				t.Errorf("re-encodes to %x, want %x", b, c.in)
			}
		})
	}
}

// The cases of bls12-381-tests' deserialization generators that the copy
// of the vectors beside the repository lacks, with their expected outcome.
// upstreamCase is an encoding in hex and whether it deserializes.
type upstreamCase struct {
	in   string
	want bool
}

// checkUpstream runs the cases of one group through deserialize.
func checkUpstream(t *testing.T, group string, size int, cases map[string]upstreamCase, deserialize func([]byte) error) {
	t.Helper()
	for name, c := range cases {
		if len(c.in) != 2*size {
			t.Fatalf("%s %s: %d hex digits", group, name, len(c.in))
		}
		if err := deserialize(mustHex(t, c.in)); (err == nil) != c.want {
			t.Errorf("%s %s: err %v, want success %v", group, name, err, c.want)
		}
	}
}

func TestDeserializeUpstreamCases(t *testing.T) {
	const (
		pkValid  = "a491d1b0ecd9bb917989f0e74f0dea0422eac4a873e5e2644f368dffb9a6e20fd6e10c1b77654d067c0618f6e5a7f79a"
		sigValid = "b2cc74bc9f089ed9764bbceac5edba416bef5e73701288977b9cac1ccb6964269d4ebf78b4e8aa7792ba09d3e49c8e6a" +
			"1351bdf582971f796bbaf6320e81251c9d28f674d720cca07ed14596b96697cf18238e0e03ebd7fc1353d885a39407e0"
		junk = "23456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	)
	zeros := func(n int) string { return hex.EncodeToString(make([]byte, n)) }
	g1 := map[string]upstreamCase{
		"deserialization_succeeds_correct_point":             {pkValid, true},
		"deserialization_succeeds_infinity_with_true_b_flag": {"c0" + zeros(47), true},
		"deserialization_fails_not_in_G1":                    {"81" + junk, false},
		"deserialization_fails_with_b_flag_and_x_nonzero":    {"c1" + junk, false},
		"deserialization_fails_with_mask_bits_111":           {"e" + pkValid[1:], false},
		"deserialization_fails_with_mask_bits_011":           {"6" + pkValid[1:], false},
		"deserialization_fails_with_mask_bits_001":           {"2" + pkValid[1:], false},
	}
	checkUpstream(t, "G1", PublicKeySize, g1, DeserializeG1)
	g2 := map[string]upstreamCase{
		"deserialization_succeeds_correct_point":             {sigValid, true},
		"deserialization_succeeds_infinity_with_true_b_flag": {"c0" + zeros(95), true},
		"deserialization_fails_not_in_G2":                    {"81" + junk + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", false},
		"deserialization_fails_xre_greater_than_modulus": {"80" + zeros(47) +
			"1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaac", false},
		"deserialization_fails_with_b_flag_and_x_nonzero": {"c1" + junk + junk[:2] + junk, false},
		"deserialization_fails_with_mask_bits_111":        {"f" + sigValid[1:], false},
		"deserialization_fails_with_mask_bits_011":        {"7" + sigValid[1:], false},
		"deserialization_fails_with_mask_bits_001":        {"3" + sigValid[1:], false},
	}
	checkUpstream(t, "G2", SignatureSize, g2, DeserializeG2)
	// The point at infinity deserializes but is not a public key.
	if _, err := PublicKeyFromBytes(mustHex(t, "c0"+zeros(47))); !errors.Is(err, ErrInfinity) {
		t.Errorf("PublicKeyFromBytes(infinity): %v, want ErrInfinity", err)
	}
}
