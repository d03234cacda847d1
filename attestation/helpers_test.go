package attestation

import (
	"errors"
	"testing"

	"github.com/prysmaticlabs/go-bitfield"
)

func TestAttestationDataEqual(t *testing.T) {
	base := sampleData()
	for _, tc := range []struct {
		name string
		a, b *AttestationData
		want bool
	}{
		{"same", base, sampleData(), true},
		{"slot", base, func() *AttestationData { d := sampleData(); d.Slot++; return d }(), false},
		{"index", base, func() *AttestationData { d := sampleData(); d.Index = 1; return d }(), false},
		{"block root", base, func() *AttestationData { d := sampleData(); d.BeaconBlockRoot[31] ^= 1; return d }(), false},
		{"source epoch", base, func() *AttestationData { d := sampleData(); d.Source.Epoch++; return d }(), false},
		{"source root", base, func() *AttestationData { d := sampleData(); d.Source.Root[0] ^= 1; return d }(), false},
		{"target epoch", base, func() *AttestationData { d := sampleData(); d.Target.Epoch++; return d }(), false},
		{"target root", base, func() *AttestationData { d := sampleData(); d.Target.Root[5] ^= 1; return d }(), false},
		{"nil and zero", nil, &AttestationData{Source: &Checkpoint{}}, true},
		{"nil and nil", nil, nil, true},
		{"nil and sample", nil, base, false},
		{"nil source and sample", &AttestationData{}, base, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.a.Equal(tc.b); got != tc.want {
				t.Errorf("a.Equal(b) = %v, want %v", got, tc.want)
			}
			if got := tc.b.Equal(tc.a); got != tc.want {
				t.Errorf("b.Equal(a) = %v, want %v", got, tc.want)
			}
			// Equal agrees with the hash tree roots.
			rootOf := func(d *AttestationData) [32]byte {
				if d == nil {
					d = new(AttestationData)
				}
				r, err := d.Copy().HashTreeRoot()
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			ra, rb := rootOf(tc.a), rootOf(tc.b)
			if (ra == rb) != tc.want {
				t.Errorf("roots equal = %v, Equal = %v", ra == rb, tc.want)
			}
		})
	}
}

func TestAttestationDataCopy(t *testing.T) {
	d := sampleData()
	c := d.Copy()
	if !c.Equal(d) || c == d || c.Source == d.Source || c.Target == d.Target {
		t.Fatal("Copy is not a deep copy")
	}
	c.Source.Epoch++
	if d.Source.Epoch == c.Source.Epoch {
		t.Error("changing the copy changed the original")
	}
	if (*AttestationData)(nil).Copy() != nil {
		t.Error("Copy of nil is not nil")
	}
	if c := (&AttestationData{Slot: 1}).Copy(); c.Source == nil || c.Target == nil {
		t.Error("Copy left nil checkpoints")
	}
}

func TestForkVersionAt(t *testing.T) {
	f := &Fork{PreviousVersion: [4]byte{4}, CurrentVersion: [4]byte{5}, Epoch: 100}
	for _, tc := range []struct {
		epoch uint64
		want  [4]byte
	}{{0, [4]byte{4}}, {99, [4]byte{4}}, {100, [4]byte{5}}, {1 << 60, [4]byte{5}}} {
		if got := f.VersionAt(tc.epoch); got != tc.want {
			t.Errorf("VersionAt(%d) = %x, want %x", tc.epoch, got, tc.want)
		}
	}
}

func TestToAttestation(t *testing.T) {
	s := &SingleAttestation{CommitteeIndex: 5, AttesterIndex: 1234, Data: sampleData(), Signature: sig(9)}
	a, err := s.ToAttestation(100, 42)
	if err != nil {
		t.Fatal(err)
	}
	if a.AggregationBits.Len() != 100 || a.AggregationBits.Count() != 1 || !a.AggregationBits.BitAt(42) {
		t.Errorf("AggregationBits = %x, want 100 bits with bit 42 set", []byte(a.AggregationBits))
	}
	if got := a.CommitteeBits.BitIndices(); len(got) != 1 || got[0] != 5 {
		t.Errorf("CommitteeBits indices = %v, want [5]", got)
	}
	if !a.Data.Equal(s.Data) || a.Data == s.Data || a.Signature != s.Signature {
		t.Error("Data or Signature not copied")
	}
	if _, err := a.HashTreeRoot(); err != nil {
		t.Errorf("result does not hash: %v", err)
	}

	if _, err := s.ToMinimalAttestation(1, 0); !errors.Is(err, ErrCommitteeIndexOutOfRange) {
		t.Errorf("ToMinimalAttestation with committee 5: error %v, want ErrCommitteeIndexOutOfRange", err)
	}
	s.CommitteeIndex = 3
	m, err := s.ToMinimalAttestation(1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !m.AggregationBits.BitAt(0) || m.AggregationBits.Len() != 1 || !bitfield.Bitvector4(m.CommitteeBits).BitAt(3) || m.CommitteeBits[0] != 0x08 {
		t.Errorf("minimal attestation bits = %x / %x", []byte(m.AggregationBits), []byte(m.CommitteeBits))
	}
	if _, err := m.MarshalSSZ(); err != nil {
		t.Errorf("result does not encode: %v", err)
	}

	for _, tc := range []struct {
		name                 string
		committee, size, pos uint64
		is                   error
	}{
		{"committee 64", 64, 10, 0, ErrCommitteeIndexOutOfRange},
		{"committee huge", 1 << 63, 10, 0, ErrCommitteeIndexOutOfRange},
		{"size 0", 0, 0, 0, ErrCommitteeSize},
		{"size over max", 0, MaxValidatorsPerCommittee + 1, 0, ErrCommitteeSize},
		{"position = size", 0, 10, 10, ErrPositionOutOfRange},
		{"position huge", 0, 10, 1 << 63, ErrPositionOutOfRange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &SingleAttestation{CommitteeIndex: tc.committee, Data: sampleData()}
			if _, err := s.ToAttestation(tc.size, tc.pos); !errors.Is(err, tc.is) {
				t.Errorf("ToAttestation error = %v, want %v", err, tc.is)
			}
		})
	}
	// The largest committee works.
	s.CommitteeIndex = 63
	if a, err := s.ToAttestation(MaxValidatorsPerCommittee, MaxValidatorsPerCommittee-1); err != nil || !a.AggregationBits.BitAt(2047) {
		t.Errorf("largest committee: %v", err)
	}
}
