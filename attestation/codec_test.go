package attestation

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"strconv"
	"testing"

	ssz "github.com/ferranbt/fastssz"
	"github.com/prysmaticlabs/go-bitfield"
)

// codec is what every type of the package implements.
type codec interface {
	ssz.Marshaler
	ssz.Unmarshaler
	ssz.HashRoot
}

func fill(seed byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = seed + byte(i)
	}
	return b
}

func sig(seed byte) (s [96]byte) { copy(s[:], fill(seed, 96)); return }

func root(seed byte) (r [32]byte) { copy(r[:], fill(seed, 32)); return }

func sampleData() *AttestationData {
	return &AttestationData{
		Slot:            123456,
		Index:           0,
		BeaconBlockRoot: root(0x10),
		Source:          &Checkpoint{Epoch: 3856, Root: root(0x20)},
		Target:          &Checkpoint{Epoch: 3858, Root: root(0x30)},
	}
}

func bitlist(n uint64, set ...uint64) bitfield.Bitlist {
	b := bitfield.NewBitlist(n)
	for _, i := range set {
		b.SetBitAt(i, true)
	}
	return b
}

func sampleAttestation() *Attestation {
	cb := bitfield.NewBitvector64()
	cb.SetBitAt(1, true)
	cb.SetBitAt(63, true)
	return &Attestation{
		AggregationBits: bitlist(300, 0, 7, 299),
		Data:            sampleData(),
		Signature:       sig(0x40),
		CommitteeBits:   cb,
	}
}

func sampleMinimalAttestation() *MinimalAttestation {
	cb := bitfield.NewBitvector4()
	cb.SetBitAt(0, true)
	cb.SetBitAt(3, true)
	return &MinimalAttestation{
		AggregationBits: bitlist(17, 16),
		Data:            sampleData(),
		Signature:       sig(0x50),
		CommitteeBits:   cb,
	}
}

func samplePhase0Attestation() *Phase0Attestation {
	d := sampleData()
	d.Index = 5
	return &Phase0Attestation{AggregationBits: bitlist(128, 1, 127), Data: d, Signature: sig(0x60)}
}

// samples returns one value of every type, with a constructor for a zero
// value of the same type and the expected hash tree root computed by the
// helpers in merkle_test.go.
func samples(t testing.TB) []struct {
	name string
	v    codec
	root chunk
} {
	att, matt, patt := sampleAttestation(), sampleMinimalAttestation(), samplePhase0Attestation()
	single := &SingleAttestation{CommitteeIndex: 17, AttesterIndex: 987654, Data: sampleData(), Signature: sig(0x70)}
	indexed := &IndexedAttestation{AttestingIndices: []uint64{1, 5, 9, 1 << 40, 70000}, Data: sampleData(), Signature: sig(0x80)}
	mindexed := &MinimalIndexedAttestation{AttestingIndices: []uint64{2, 3}, Data: sampleData(), Signature: sig(0x81)}
	pindexed := &Phase0IndexedAttestation{AttestingIndices: []uint64{}, Data: sampleData(), Signature: sig(0x82)}
	agg := &AggregateAndProof{AggregatorIndex: 42, Aggregate: att, SelectionProof: sig(0x90)}
	magg := &MinimalAggregateAndProof{AggregatorIndex: 43, Aggregate: matt, SelectionProof: sig(0x91)}
	pagg := &Phase0AggregateAndProof{AggregatorIndex: 44, Aggregate: patt, SelectionProof: sig(0x92)}
	sagg := &SignedAggregateAndProof{Message: agg, Signature: sig(0xa0)}
	msagg := &MinimalSignedAggregateAndProof{Message: magg, Signature: sig(0xa1)}
	psagg := &Phase0SignedAggregateAndProof{Message: pagg, Signature: sig(0xa2)}
	fork := &Fork{PreviousVersion: [4]byte{4, 0, 0, 0}, CurrentVersion: [4]byte{5, 0, 0, 0}, Epoch: 364032}
	gatt, mgatt := (*GloasAttestation)(sampleAttestation()), (*MinimalGloasAttestation)(sampleMinimalAttestation())
	gindexed := &GloasIndexedAttestation{AttestingIndices: []uint64{7, 1 << 50, 3, 0, 11}, Data: sampleData(), Signature: sig(0x83)}
	gagg := &GloasAggregateAndProof{AggregatorIndex: 45, Aggregate: gatt, SelectionProof: sig(0x93)}
	mgagg := &MinimalGloasAggregateAndProof{AggregatorIndex: 46, Aggregate: mgatt, SelectionProof: sig(0x94)}
	gsagg := &GloasSignedAggregateAndProof{Message: gagg, Signature: sig(0xa3)}
	mgsagg := &MinimalGloasSignedAggregateAndProof{Message: mgagg, Signature: sig(0xa4)}

	aggRoot := func(i uint64, a chunk, p [96]byte) chunk {
		return merkleize(t, []chunk{uintChunk(i), a, rootSignature(t, p)}, 0)
	}
	indexedRoot := func(indices []uint64, limit int, d *AttestationData, s [96]byte) chunk {
		return merkleize(t, []chunk{rootIndices(t, indices, limit), rootData(t, d), rootSignature(t, s)}, 0)
	}
	signedRoot := func(message chunk, s [96]byte) chunk {
		return merkleize(t, []chunk{message, rootSignature(t, s)}, 0)
	}
	return []struct {
		name string
		v    codec
		root chunk
	}{
		{"Checkpoint", sampleData().Source, rootCheckpoint(t, sampleData().Source)},
		{"AttestationData", sampleData(), rootData(t, sampleData())},
		{"Fork", fork,
			merkleize(t, []chunk{pack(fork.PreviousVersion[:])[0], pack(fork.CurrentVersion[:])[0], uintChunk(fork.Epoch)}, 0)},
		{"Attestation", att, rootAttestation(t, att)},
		{"SingleAttestation", single,
			merkleize(t, []chunk{uintChunk(17), uintChunk(987654), rootData(t, single.Data), rootSignature(t, single.Signature)}, 0)},
		{"IndexedAttestation", indexed, indexedRoot(indexed.AttestingIndices, 2048*64, indexed.Data, indexed.Signature)},
		{"AggregateAndProof", agg, aggRoot(42, rootAttestation(t, att), agg.SelectionProof)},
		{"SignedAggregateAndProof", sagg, signedRoot(aggRoot(42, rootAttestation(t, att), agg.SelectionProof), sagg.Signature)},
		{"MinimalAttestation", matt, rootMinimalAttestation(t, matt)},
		{"MinimalIndexedAttestation", mindexed, indexedRoot(mindexed.AttestingIndices, 2048*4, mindexed.Data, mindexed.Signature)},
		{"MinimalAggregateAndProof", magg, aggRoot(43, rootMinimalAttestation(t, matt), magg.SelectionProof)},
		{"MinimalSignedAggregateAndProof", msagg, signedRoot(aggRoot(43, rootMinimalAttestation(t, matt), magg.SelectionProof), msagg.Signature)},
		{"Phase0Attestation", patt, rootPhase0Attestation(t, patt)},
		{"Phase0IndexedAttestation", pindexed, indexedRoot(nil, 2048, pindexed.Data, pindexed.Signature)},
		{"Phase0AggregateAndProof", pagg, aggRoot(44, rootPhase0Attestation(t, patt), pagg.SelectionProof)},
		{"Phase0SignedAggregateAndProof", psagg, signedRoot(aggRoot(44, rootPhase0Attestation(t, patt), pagg.SelectionProof), psagg.Signature)},
		{"GloasAttestation", gatt, rootGloasAttestation(t, gatt)},
		{"MinimalGloasAttestation", mgatt, rootMinimalGloasAttestation(t, mgatt)},
		{"GloasIndexedAttestation", gindexed, rootGloasIndexedAttestation(t, gindexed)},
		{"GloasAggregateAndProof", gagg, aggRoot(45, rootGloasAttestation(t, gatt), gagg.SelectionProof)},
		{"MinimalGloasAggregateAndProof", mgagg, aggRoot(46, rootMinimalGloasAttestation(t, mgatt), mgagg.SelectionProof)},
		{"GloasSignedAggregateAndProof", gsagg, signedRoot(aggRoot(45, rootGloasAttestation(t, gatt), gagg.SelectionProof), gsagg.Signature)},
		{"MinimalGloasSignedAggregateAndProof", mgsagg, signedRoot(aggRoot(46, rootMinimalGloasAttestation(t, mgatt), mgagg.SelectionProof), mgsagg.Signature)},
	}
}

// fresh returns a new zero value of v's type.
func fresh(v codec) codec { return reflect.New(reflect.TypeOf(v).Elem()).Interface().(codec) }

func TestRoundTripAndRoots(t *testing.T) {
	for _, s := range samples(t) {
		t.Run(s.name, func(t *testing.T) {
			b, err := s.v.MarshalSSZ()
			if err != nil {
				t.Fatal(err)
			}
			if len(b) != s.v.SizeSSZ() {
				t.Errorf("len(MarshalSSZ()) = %d, SizeSSZ() = %d", len(b), s.v.SizeSSZ())
			}
			// MarshalSSZTo appends.
			prefix := []byte("prefix")
			b2, err := s.v.MarshalSSZTo(append([]byte(nil), prefix...))
			if err != nil || !bytes.Equal(b2, append(prefix, b...)) {
				t.Errorf("MarshalSSZTo did not append the encoding: %v", err)
			}
			got := fresh(s.v)
			if err := got.UnmarshalSSZ(b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, s.v) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, s.v)
			}
			r, err := got.HashTreeRoot()
			if err != nil {
				t.Fatal(err)
			}
			if r != s.root {
				t.Errorf("HashTreeRoot = %x, want %x", r, s.root)
			}
			tree, err := got.GetTree()
			if err != nil {
				t.Fatal(err)
			}
			if h := tree.Hash(); !bytes.Equal(h, s.root[:]) {
				t.Errorf("GetTree().Hash() = %x, want %x", h, s.root)
			}
		})
	}
}

// TestEncodingLayout checks a few encodings byte by byte against the SSZ
// layout of the specs' field order.
func TestEncodingLayout(t *testing.T) {
	a := sampleAttestation()
	b, err := a.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	d, _ := a.Data.MarshalSSZ()
	want := binary.LittleEndian.AppendUint32(nil, 236) // offset of aggregation_bits
	want = append(want, d...)                          // data
	want = append(want, a.Signature[:]...)             // signature
	want = append(want, a.CommitteeBits...)            // committee_bits
	want = append(want, a.AggregationBits...)          // aggregation_bits
	if !bytes.Equal(b, want) {
		t.Errorf("Attestation encoding:\n got %x\nwant %x", b, want)
	}

	s := &SingleAttestation{CommitteeIndex: 1, AttesterIndex: 2, Data: sampleData(), Signature: sig(1)}
	b, err = s.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	want = binary.LittleEndian.AppendUint64(nil, 1)
	want = binary.LittleEndian.AppendUint64(want, 2)
	want = append(want, d...)
	want = append(want, s.Signature[:]...)
	if !bytes.Equal(b, want) {
		t.Errorf("SingleAttestation encoding:\n got %x\nwant %x", b, want)
	}

	cp := &Checkpoint{Epoch: 0x0102, Root: root(7)}
	b, _ = cp.MarshalSSZ()
	if want := append([]byte{2, 1, 0, 0, 0, 0, 0, 0}, cp.Root[:]...); !bytes.Equal(b, want) {
		t.Errorf("Checkpoint encoding = %x, want %x", b, want)
	}
}

func encode(t testing.TB, v ssz.Marshaler) []byte {
	t.Helper()
	b, err := v.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func rootOf(t testing.TB, v ssz.HashRoot) [32]byte {
	t.Helper()
	r, err := v.HashTreeRoot()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// with returns a copy of b changed by f.
func with(b []byte, f func([]byte) []byte) []byte { return f(append([]byte(nil), b...)) }

func putOffset(at int, off uint32) func([]byte) []byte {
	return func(b []byte) []byte { binary.LittleEndian.PutUint32(b[at:], off); return b }
}

// bitlistBytes returns the encoding of a bitlist of n bits, all zero.
func bitlistBytes(n int) []byte {
	b := make([]byte, n/8+1)
	b[n/8] = 1 << (n % 8)
	return b
}

// withBits replaces the bitlist at the end of an attestation encoding whose
// fixed part has the given size.
func withBits(b []byte, fixed int, bits []byte) []byte {
	return append(append([]byte(nil), b[:fixed]...), bits...)
}

func TestUnmarshalMalformed(t *testing.T) {
	att := encode(t, sampleAttestation())
	matt := encode(t, sampleMinimalAttestation())
	patt := encode(t, samplePhase0Attestation())
	single := encode(t, &SingleAttestation{Data: sampleData()})
	indexed := encode(t, &IndexedAttestation{AttestingIndices: []uint64{1, 2}, Data: sampleData()})
	pindexed := encode(t, &Phase0IndexedAttestation{AttestingIndices: []uint64{1, 2}, Data: sampleData()})
	agg := encode(t, &AggregateAndProof{Aggregate: sampleAttestation()})
	magg := encode(t, &MinimalAggregateAndProof{Aggregate: sampleMinimalAttestation()})
	pagg := encode(t, &Phase0AggregateAndProof{Aggregate: samplePhase0Attestation()})
	msagg := encode(t, &MinimalSignedAggregateAndProof{Message: &MinimalAggregateAndProof{Aggregate: sampleMinimalAttestation()}})
	sagg := encode(t, &SignedAggregateAndProof{Message: &AggregateAndProof{Aggregate: sampleAttestation()}})

	newAtt := func() codec { return new(Attestation) }
	newMatt := func() codec { return new(MinimalAttestation) }
	newPatt := func() codec { return new(Phase0Attestation) }

	tests := []struct {
		name string
		new  func() codec
		in   []byte
		is   error // if not nil, the error must wrap it
	}{
		{"Checkpoint/empty", func() codec { return new(Checkpoint) }, nil, nil},
		{"Checkpoint/short", func() codec { return new(Checkpoint) }, make([]byte, 39), nil},
		{"Checkpoint/long", func() codec { return new(Checkpoint) }, make([]byte, 41), nil},
		{"AttestationData/short", func() codec { return new(AttestationData) }, make([]byte, 127), nil},
		{"AttestationData/long", func() codec { return new(AttestationData) }, make([]byte, 129), nil},
		{"Fork/short", func() codec { return new(Fork) }, make([]byte, 15), nil},
		{"Fork/long", func() codec { return new(Fork) }, make([]byte, 17), nil},
		{"SingleAttestation/empty", func() codec { return new(SingleAttestation) }, nil, nil},
		{"SingleAttestation/short", func() codec { return new(SingleAttestation) }, single[:len(single)-1], nil},
		{"SingleAttestation/long", func() codec { return new(SingleAttestation) }, append(single, 0), nil},

		{"Attestation/empty", newAtt, nil, nil},
		{"Attestation/short fixed part", newAtt, att[:235], nil},
		{"Attestation/no bitlist", newAtt, att[:236], nil},
		{"Attestation/offset too small", newAtt, with(att, putOffset(0, 235)), nil},
		{"Attestation/offset too large", newAtt, with(att, putOffset(0, 237)), nil},
		{"Attestation/offset past end", newAtt, with(att, putOffset(0, uint32(len(att)+1))), nil},
		{"Attestation/offset huge", newAtt, with(att, putOffset(0, 0xffffffff)), nil},
		{"Attestation/bitlist no length bit", newAtt, withBits(att, 236, []byte{0xff, 0x00}), nil},
		{"Attestation/bitlist zero byte", newAtt, withBits(att, 236, []byte{0x00}), nil},
		{"Attestation/bitlist over limit", newAtt, withBits(att, 236, bitlistBytes(2048*64+1)), nil},
		{"Attestation/bitlist too many bytes", newAtt, withBits(att, 236, append(make([]byte, 2048*64/8+1), 1)), nil},

		{"MinimalAttestation/short", newMatt, matt[:228], nil},
		{"MinimalAttestation/offset", newMatt, with(matt, putOffset(0, 228)), nil},
		{"MinimalAttestation/bitlist no length bit", newMatt, withBits(matt, 229, []byte{0x00}), nil},
		{"MinimalAttestation/bitlist over limit", newMatt, withBits(matt, 229, bitlistBytes(2048*4+1)), nil},
		{"MinimalAttestation/committee bit 4", newMatt, with(matt, func(b []byte) []byte { b[228] = 0x10; return b }), ErrInvalidCommitteeBits},
		{"MinimalAttestation/committee bit 7", newMatt, with(matt, func(b []byte) []byte { b[228] = 0x81; return b }), ErrInvalidCommitteeBits},
		{"MinimalAttestation/committee high bits", newMatt, with(matt, func(b []byte) []byte { b[228] = 0xf0; return b }), ErrInvalidCommitteeBits},

		{"Phase0Attestation/short", newPatt, patt[:227], nil},
		{"Phase0Attestation/no bitlist", newPatt, patt[:228], nil},
		{"Phase0Attestation/offset", newPatt, with(patt, putOffset(0, 4)), nil},
		{"Phase0Attestation/bitlist no length bit", newPatt, withBits(patt, 228, []byte{0x01, 0x00}), nil},
		{"Phase0Attestation/bitlist over limit", newPatt, withBits(patt, 228, bitlistBytes(2049)), nil},
		{"Phase0Attestation/bitlist too many bytes", newPatt, withBits(patt, 228, append(make([]byte, 257), 1)), nil},

		{"IndexedAttestation/short", func() codec { return new(IndexedAttestation) }, indexed[:227], nil},
		{"IndexedAttestation/partial index", func() codec { return new(IndexedAttestation) }, indexed[:len(indexed)-1], nil},
		{"IndexedAttestation/offset", func() codec { return new(IndexedAttestation) }, with(indexed, putOffset(0, 236)), nil},
		{"IndexedAttestation/over limit", func() codec { return new(IndexedAttestation) }, append(indexed[:228:228], make([]byte, 8*(2048*64+1))...), nil},
		{"MinimalIndexedAttestation/over limit", func() codec { return new(MinimalIndexedAttestation) }, append(indexed[:228:228], make([]byte, 8*(2048*4+1))...), nil},
		{"Phase0IndexedAttestation/over limit", func() codec { return new(Phase0IndexedAttestation) }, append(pindexed[:228:228], make([]byte, 8*2049)...), nil},
		{"Phase0IndexedAttestation/partial index", func() codec { return new(Phase0IndexedAttestation) }, pindexed[:len(pindexed)-3], nil},

		{"AggregateAndProof/short", func() codec { return new(AggregateAndProof) }, agg[:107], nil},
		{"AggregateAndProof/offset", func() codec { return new(AggregateAndProof) }, with(agg, putOffset(8, 100)), nil},
		{"AggregateAndProof/empty aggregate", func() codec { return new(AggregateAndProof) }, agg[:108], nil},
		{"AggregateAndProof/bad nested bitlist", func() codec { return new(AggregateAndProof) }, withBits(agg, 108+236, []byte{0}), nil},
		{"AggregateAndProof/bad nested offset", func() codec { return new(AggregateAndProof) }, with(agg, putOffset(108, 1000)), nil},
		{"MinimalAggregateAndProof/bad nested committee bits", func() codec { return new(MinimalAggregateAndProof) },
			with(magg, func(b []byte) []byte { b[108+228] |= 0x20; return b }), ErrInvalidCommitteeBits},
		{"Phase0AggregateAndProof/bad nested bitlist", func() codec { return new(Phase0AggregateAndProof) }, withBits(pagg, 108+228, bitlistBytes(2049)), nil},
		{"SignedAggregateAndProof/short", func() codec { return new(SignedAggregateAndProof) }, sagg[:99], nil},
		{"SignedAggregateAndProof/offset", func() codec { return new(SignedAggregateAndProof) }, with(sagg, putOffset(0, 101)), nil},
		{"SignedAggregateAndProof/bad nested bitlist", func() codec { return new(SignedAggregateAndProof) }, withBits(sagg, 100+108+236, []byte{0x00, 0x00}), nil},
		{"MinimalSignedAggregateAndProof/bad nested committee bits", func() codec { return new(MinimalSignedAggregateAndProof) },
			with(msagg, func(b []byte) []byte { b[100+108+228] = 0x40; return b }), ErrInvalidCommitteeBits},
		{"Phase0SignedAggregateAndProof/truncated", func() codec { return new(Phase0SignedAggregateAndProof) }, pagg[:150], nil},

		{"GloasAttestation/no bitlist", func() codec { return new(GloasAttestation) }, att[:236], nil},
		{"GloasAttestation/offset", func() codec { return new(GloasAttestation) }, with(att, putOffset(0, 237)), nil},
		{"GloasAttestation/bitlist no length bit", func() codec { return new(GloasAttestation) }, withBits(att, 236, []byte{0x01, 0x00}), nil},
		{"MinimalGloasAttestation/committee bit 4", func() codec { return new(MinimalGloasAttestation) },
			with(matt, func(b []byte) []byte { b[228] = 0x10; return b }), ErrInvalidCommitteeBits},
		{"GloasIndexedAttestation/partial index", func() codec { return new(GloasIndexedAttestation) }, indexed[:len(indexed)-1], nil},
		{"GloasIndexedAttestation/offset", func() codec { return new(GloasIndexedAttestation) }, with(indexed, putOffset(0, 236)), nil},
		{"GloasAggregateAndProof/bad nested bitlist", func() codec { return new(GloasAggregateAndProof) }, withBits(agg, 108+236, []byte{0}), nil},
		{"MinimalGloasSignedAggregateAndProof/bad nested committee bits", func() codec { return new(MinimalGloasSignedAggregateAndProof) },
			with(msagg, func(b []byte) []byte { b[100+108+228] = 0x40; return b }), ErrInvalidCommitteeBits},
		{"GloasSignedAggregateAndProof/offset", func() codec { return new(GloasSignedAggregateAndProof) }, with(sagg, putOffset(0, 101)), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.new()
			err := v.UnmarshalSSZ(tc.in)
			if err == nil {
				t.Fatalf("UnmarshalSSZ(%d bytes) succeeded: %+v", len(tc.in), v)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("UnmarshalSSZ error = %v, want one wrapping %v", err, tc.is)
			}
		})
	}
}

// TestUnmarshalEdgeValid checks inputs at the edges of the rules that must
// still decode.
func TestUnmarshalEdgeValid(t *testing.T) {
	att := encode(t, sampleAttestation())
	matt := encode(t, sampleMinimalAttestation())
	patt := encode(t, samplePhase0Attestation())
	for _, tc := range []struct {
		name string
		v    codec
		in   []byte
		bits uint64
	}{
		{"Attestation/empty bitlist", new(Attestation), withBits(att, 236, []byte{1}), 0},
		{"Attestation/bitlist at limit", new(Attestation), withBits(att, 236, bitlistBytes(2048*64)), 2048 * 64},
		{"MinimalAttestation/bitlist at limit", new(MinimalAttestation), withBits(matt, 229, bitlistBytes(2048*4)), 2048 * 4},
		{"Phase0Attestation/bitlist at limit", new(Phase0Attestation), withBits(patt, 228, bitlistBytes(2048)), 2048},
		{"Phase0Attestation/bitlist 8 bits", new(Phase0Attestation), withBits(patt, 228, []byte{0xff, 0x01}), 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.v.UnmarshalSSZ(tc.in); err != nil {
				t.Fatal(err)
			}
			if out := encode(t, tc.v); !bytes.Equal(out, tc.in) {
				t.Error("re-encoding differs")
			}
			var n uint64
			switch v := tc.v.(type) {
			case *Attestation:
				n = v.AggregationBits.Len()
			case *MinimalAttestation:
				n = v.AggregationBits.Len()
			case *Phase0Attestation:
				n = v.AggregationBits.Len()
			}
			if n != tc.bits {
				t.Errorf("decoded %d aggregation bits, want %d", n, tc.bits)
			}
		})
	}
	// Every committee bit of a minimal attestation may be set.
	m := with(matt, func(b []byte) []byte { b[228] = 0x0f; return b })
	var v MinimalAttestation
	if err := v.UnmarshalSSZ(m); err != nil {
		t.Fatalf("committee bits 0x0f: %v", err)
	}
	if c := v.CommitteeBits.Count(); c != 4 {
		t.Errorf("CommitteeBits.Count() = %d, want 4", c)
	}
}

// TestUnmarshalReuse decodes into values that already hold data: the
// result must be the same as decoding into zero values.
func TestUnmarshalReuse(t *testing.T) {
	for _, s := range samples(t) {
		t.Run(s.name, func(t *testing.T) {
			// Decode a sample into a value holding the sample, then
			// into a value holding a different, longer value.
			b := encode(t, s.v)
			v := fresh(s.v)
			for range 2 {
				if err := v.UnmarshalSSZ(b); err != nil {
					t.Fatal(err)
				}
			}
			if !reflect.DeepEqual(v, s.v) {
				t.Errorf("decoding twice:\n got %+v\nwant %+v", v, s.v)
			}
		})
	}
	// A longer attestation, then a shorter one.
	long, short := sampleAttestation(), sampleAttestation()
	long.AggregationBits = bitlist(2000, 1999)
	short.AggregationBits = bitlist(3, 1)
	var v Attestation
	if err := v.UnmarshalSSZ(encode(t, long)); err != nil {
		t.Fatal(err)
	}
	old := v.Data
	if err := v.UnmarshalSSZ(encode(t, short)); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&v, short) {
		t.Errorf("decoding after a longer value:\n got %+v\nwant %+v", &v, short)
	}
	if !reflect.DeepEqual(old, long.Data) {
		t.Error("decoding overwrote the AttestationData of the previous value")
	}
	// On error the value is unchanged.
	before := v
	if err := v.UnmarshalSSZ(withBits(encode(t, short), 236, []byte{0})); err == nil {
		t.Fatal("bad bitlist decoded")
	}
	if !reflect.DeepEqual(v, before) {
		t.Error("failed UnmarshalSSZ changed the value")
	}
}

func TestEncodeInvalid(t *testing.T) {
	badCommitteeLen := sampleAttestation()
	badCommitteeLen.CommitteeBits = bitfield.Bitvector64{1}
	badMinimal := sampleMinimalAttestation()
	badMinimal.CommitteeBits = bitfield.Bitvector4{0x11}
	noLengthBit := samplePhase0Attestation()
	noLengthBit.AggregationBits = bitfield.Bitlist{0xff, 0}
	overLimit := samplePhase0Attestation()
	overLimit.AggregationBits = bitfield.NewBitlist(2049)
	var nilAtt *Attestation

	for _, tc := range []struct {
		name string
		v    codec
		is   error
	}{
		{"zero Attestation", new(Attestation), ErrInvalidAggregationBits},
		{"zero MinimalAttestation", new(MinimalAttestation), ErrInvalidAggregationBits},
		{"zero Phase0Attestation", new(Phase0Attestation), ErrInvalidAggregationBits},
		{"nil Attestation", nilAtt, ErrNilAttestation},
		{"Attestation committee bits length", badCommitteeLen, ErrInvalidCommitteeBits},
		{"MinimalAttestation committee bits past 4", badMinimal, ErrInvalidCommitteeBits},
		{"Phase0Attestation no length bit", noLengthBit, ErrInvalidAggregationBits},
		{"Phase0Attestation over limit", overLimit, ErrInvalidAggregationBits},
		{"AggregateAndProof nil aggregate", &AggregateAndProof{}, nil},
		{"AggregateAndProof bad aggregate", &AggregateAndProof{Aggregate: badMinimalAsMainnet()}, ErrInvalidCommitteeBits},
		{"MinimalAggregateAndProof bad aggregate", &MinimalAggregateAndProof{Aggregate: badMinimal}, ErrInvalidCommitteeBits},
		{"Phase0SignedAggregateAndProof bad aggregate", &Phase0SignedAggregateAndProof{Message: &Phase0AggregateAndProof{Aggregate: overLimit}}, ErrInvalidAggregationBits},
		{"zero GloasAttestation", new(GloasAttestation), ErrInvalidAggregationBits},
		{"GloasAttestation no length bit", (*GloasAttestation)(&Attestation{AggregationBits: noLengthBit.AggregationBits, CommitteeBits: bitfield.NewBitvector64()}), ErrInvalidAggregationBits},
		{"GloasAttestation committee bits length", (*GloasAttestation)(badCommitteeLen), ErrInvalidCommitteeBits},
		{"MinimalGloasAggregateAndProof bad aggregate", &MinimalGloasAggregateAndProof{Aggregate: (*MinimalGloasAttestation)(badMinimal)}, ErrInvalidCommitteeBits},
		{"GloasSignedAggregateAndProof nil aggregate", &GloasSignedAggregateAndProof{Message: &GloasAggregateAndProof{}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.v.MarshalSSZ(); err == nil || tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("MarshalSSZ error = %v, want %v", err, tc.is)
			}
			if _, err := tc.v.HashTreeRoot(); err == nil || tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("HashTreeRoot error = %v, want %v", err, tc.is)
			}
		})
	}
}

func badMinimalAsMainnet() *Attestation {
	a := sampleAttestation()
	a.CommitteeBits = bitfield.Bitvector64{1, 2, 3}
	return a
}

// TestNilPointerFields checks that nil Data, Source and Target encode and
// hash as zero values.
func TestNilPointerFields(t *testing.T) {
	a := sampleAttestation()
	a.Data = nil
	withZero := sampleAttestation()
	withZero.Data = &AttestationData{Source: &Checkpoint{}, Target: &Checkpoint{}}
	if rootOf(t, a) != rootOf(t, withZero) {
		t.Error("nil Data hashes differently from zero Data")
	}
	if !bytes.Equal(encode(t, &SingleAttestation{}), encode(t, &SingleAttestation{Data: &AttestationData{}})) {
		t.Error("nil Data encodes differently from zero Data")
	}
}

// TestTagsMatchCodecs checks that the SSZ tags of the exported types, which
// state each container's schema as sszgen and other SSZ tools read it,
// give the limits the hand-written codecs enforce, and that these are the
// preset constants.
func TestTagsMatchCodecs(t *testing.T) {
	for _, tc := range []struct {
		typ       any
		preset    attestationPreset
		bitsLimit int
	}{
		{Attestation{}, mainnetAttestation, MaxValidatorsPerCommittee * MaxCommitteesPerSlot},
		{MinimalAttestation{}, minimalAttestation, MaxValidatorsPerCommittee * MinimalMaxCommitteesPerSlot},
		{Phase0Attestation{}, phase0Attestation, MaxValidatorsPerCommittee},
		{GloasAttestation{}, gloasAttestation, 0},
		{MinimalGloasAttestation{}, minimalGloasAttestation, 0},
	} {
		typ := reflect.TypeOf(tc.typ)
		f, _ := typ.FieldByName("AggregationBits")
		if tc.bitsLimit == 0 {
			if got := f.Tag.Get("ssz-type"); got != "progressive-bitlist" || !tc.preset.progressive() {
				t.Errorf("%v.AggregationBits ssz-type = %q, progressive codec %v", typ, got, tc.preset.progressive())
			}
		} else if got, want := f.Tag.Get("ssz-max"), strconv.Itoa(tc.bitsLimit); got != want {
			t.Errorf("%v.AggregationBits ssz-max = %s, want %s", typ, got, want)
		}
		if tc.preset.bitsLimit != uint64(tc.bitsLimit) {
			t.Errorf("%v codec bits limit = %d, want %d", typ, tc.preset.bitsLimit, tc.bitsLimit)
		}
		size := "0"
		if f, ok := typ.FieldByName("CommitteeBits"); ok {
			size = f.Tag.Get("ssz-size")
		}
		if want := strconv.Itoa((tc.preset.committees + 7) / 8); size != want {
			t.Errorf("%v.CommitteeBits ssz-size = %s, codec has %s bytes", typ, size, want)
		}
	}
	for _, tc := range []struct {
		typ   any
		codec indexedCodec
		limit int
	}{
		{IndexedAttestation{}, new(IndexedAttestation).codec(), MaxValidatorsPerCommittee * MaxCommitteesPerSlot},
		{MinimalIndexedAttestation{}, new(MinimalIndexedAttestation).codec(), MaxValidatorsPerCommittee * MinimalMaxCommitteesPerSlot},
		{Phase0IndexedAttestation{}, new(Phase0IndexedAttestation).codec(), MaxValidatorsPerCommittee},
		{GloasIndexedAttestation{}, new(GloasIndexedAttestation).codec(), 0},
	} {
		f, _ := reflect.TypeOf(tc.typ).FieldByName("AttestingIndices")
		if tc.limit == 0 {
			if got := f.Tag.Get("ssz-type"); got != "progressive-list" {
				t.Errorf("%T.AttestingIndices ssz-type = %q", tc.typ, got)
			}
		} else if got, want := f.Tag.Get("ssz-max"), strconv.Itoa(tc.limit); got != want {
			t.Errorf("%T.AttestingIndices ssz-max = %s, want %s", tc.typ, got, want)
		}
		if tc.codec.limit != tc.limit {
			t.Errorf("%T codec limit = %d, want %d", tc.typ, tc.codec.limit, tc.limit)
		}
	}
}
