// Command gengloas writes the Gloas ssz_static fixture in
// spectest/testdata/gloas-ssz-static, in the consensus-spec-tests layout
// (serialized.ssz_snappy, roots.yaml, value.yaml), for both presets: cases
// of the containers of the payload timeliness committee
// (PayloadAttestationData, PayloadAttestationMessage, PayloadAttestation,
// whose Bitvector[PTC_SIZE] is 512 bits in the mainnet preset and 16 in the
// minimal one) and of the attestation containers that EIP-7688 makes
// progressive (Attestation, IndexedAttestation, and AggregateAndProof and
// SignedAggregateAndProof, which hold the Gloas Attestation).
//
// The encodings and roots are written out here from the SSZ spec with
// crypto/sha256, independently of package attestation's codec, so the
// fixture tests that codec rather than repeating it. Run from spectest/:
//
//	go run ./testdata/gengloas
package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/golang/snappy"
)

const out = "testdata/gloas-ssz-static"

type data struct {
	root             [32]byte
	slot             uint64
	present, blobsOK bool
}

func (d data) encode() []byte {
	b := append([]byte{}, d.root[:]...)
	b = binary.LittleEndian.AppendUint64(b, d.slot)
	return append(b, boolByte(d.present), boolByte(d.blobsOK))
}

func (d data) hashRoot() [32]byte {
	return merkleize([][32]byte{d.root, uint64Chunk(d.slot), boolChunk(d.present), boolChunk(d.blobsOK)}, 4)
}

func (d data) yaml(indent string) string {
	return fmt.Sprintf("%sbeacon_block_root: '0x%x'\n%sslot: %d\n%spayload_present: %v\n%sblob_data_available: %v\n",
		indent, d.root, indent, d.slot, indent, d.present, indent, d.blobsOK)
}

type message struct {
	validator uint64
	d         data
	sig       [96]byte
}

func (m message) encode() []byte {
	b := binary.LittleEndian.AppendUint64(nil, m.validator)
	b = append(b, m.d.encode()...)
	return append(b, m.sig[:]...)
}

func (m message) hashRoot() [32]byte {
	return merkleize([][32]byte{uint64Chunk(m.validator), m.d.hashRoot(), bytesRoot(m.sig[:])}, 4)
}

func (m message) yaml() string {
	return fmt.Sprintf("validator_index: %d\ndata:\n%ssignature: '0x%x'\n", m.validator, m.d.yaml("  "), m.sig)
}

type aggregate struct {
	bits []byte // Bitvector[PTC_SIZE]
	d    data
	sig  [96]byte
}

func (a aggregate) encode() []byte {
	b := append([]byte{}, a.bits[:]...)
	b = append(b, a.d.encode()...)
	return append(b, a.sig[:]...)
}

// hashRoot is the root of ProgressiveContainer(active_fields=[1, 1, 1]):
// mix_in_active_fields(merkleize_progressive(field roots), pack_bits([1,1,1])).
func (a aggregate) hashRoot() [32]byte {
	return progressiveContainer(bytesRoot(a.bits), a.d.hashRoot(), bytesRoot(a.sig[:]))
}

func (a aggregate) yaml() string {
	return fmt.Sprintf("aggregation_bits: '0x%x'\ndata:\n%ssignature: '0x%x'\n", a.bits, a.d.yaml("  "), a.sig)
}

// progressiveContainer is the root of a ProgressiveContainer whose
// active_fields are all 1, from its fields' roots:
// mix_in_active_fields(merkleize_progressive(fields), pack_bits(active_fields)).
func progressiveContainer(fields ...[32]byte) [32]byte {
	var active [32]byte
	for i := range fields {
		active[i/8] |= 1 << (i % 8)
	}
	return pair(merkleizeProgressive(fields, 1), active)
}

// mixInLength is mix_in_length(root, n).
func mixInLength(root [32]byte, n uint64) [32]byte {
	return pair(root, uint64Chunk(n))
}

// chunks is pack(b): b in 32-byte chunks, the last padded with zeros; none
// for no bytes.
func chunks(b []byte) [][32]byte {
	var out [][32]byte
	for len(b) > 0 {
		var c [32]byte
		b = b[copy(c[:], b):]
		out = append(out, c)
	}
	return out
}

type checkpoint struct {
	epoch uint64
	root  [32]byte
}

// attData is the phase0 AttestationData.
type attData struct {
	slot, index    uint64
	root           [32]byte
	source, target checkpoint
}

func (d attData) encode() []byte {
	b := binary.LittleEndian.AppendUint64(nil, d.slot)
	b = binary.LittleEndian.AppendUint64(b, d.index)
	b = append(b, d.root[:]...)
	for _, c := range []checkpoint{d.source, d.target} {
		b = binary.LittleEndian.AppendUint64(b, c.epoch)
		b = append(b, c.root[:]...)
	}
	return b
}

func (d attData) hashRoot() [32]byte {
	cp := func(c checkpoint) [32]byte { return merkleize([][32]byte{uint64Chunk(c.epoch), c.root}, 2) }
	return merkleize([][32]byte{uint64Chunk(d.slot), uint64Chunk(d.index), d.root, cp(d.source), cp(d.target)}, 8)
}

func (d attData) yaml(indent string) string {
	return fmt.Sprintf("%sslot: %d\n%sindex: %d\n%sbeacon_block_root: '0x%x'\n"+
		"%ssource: {epoch: %d, root: '0x%x'}\n%starget: {epoch: %d, root: '0x%x'}\n",
		indent, d.slot, indent, d.index, indent, d.root, indent, d.source.epoch, d.source.root, indent, d.target.epoch, d.target.root)
}

// gloasAttestation is the Gloas Attestation:
// ProgressiveContainer(active_fields=[1] * 4) of a ProgressiveBitList, the
// data, the signature and a Bitvector[MAX_COMMITTEES_PER_SLOT].
type gloasAttestation struct {
	bits      []bool
	d         attData
	sig       [96]byte
	committee []byte
}

// bitlist is the SSZ encoding of the bits: packed, then the length bit.
func (a gloasAttestation) bitlist() []byte {
	b := make([]byte, len(a.bits)/8+1)
	for i, v := range a.bits {
		if v {
			b[i/8] |= 1 << (i % 8)
		}
	}
	b[len(a.bits)/8] |= 1 << (len(a.bits) % 8)
	return b
}

func (a gloasAttestation) encode() []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(4+128+96+len(a.committee)))
	b = append(b, a.d.encode()...)
	b = append(b, a.sig[:]...)
	b = append(b, a.committee...)
	return append(b, a.bitlist()...)
}

// hashRoot: the ProgressiveBitList's root is
// mix_in_length(merkleize_progressive(pack_bits(bits)), len(bits)), where
// pack_bits packs the bits alone into ceil(len / 8) bytes.
func (a gloasAttestation) hashRoot() [32]byte {
	packed := make([]byte, (len(a.bits)+7)/8)
	for i, v := range a.bits {
		if v {
			packed[i/8] |= 1 << (i % 8)
		}
	}
	bits := mixInLength(merkleizeProgressive(chunks(packed), 1), uint64(len(a.bits)))
	return progressiveContainer(bits, a.d.hashRoot(), bytesRoot(a.sig[:]), chunks(a.committee)[0])
}

func (a gloasAttestation) yaml(indent string) string {
	return fmt.Sprintf("%saggregation_bits: '0x%x'\n%sdata:\n%s%ssignature: '0x%x'\n%scommittee_bits: '0x%x'\n",
		indent, a.bitlist(), indent, a.d.yaml(indent+"  "), indent, a.sig, indent, a.committee)
}

// gloasIndexed is the Gloas IndexedAttestation:
// ProgressiveContainer(active_fields=[1] * 3) of a ProgressiveList of
// validator indices, the data and the signature.
type gloasIndexed struct {
	indices []uint64
	d       attData
	sig     [96]byte
}

func (x gloasIndexed) encode() []byte {
	b := binary.LittleEndian.AppendUint32(nil, 4+128+96)
	b = append(b, x.d.encode()...)
	b = append(b, x.sig[:]...)
	for _, v := range x.indices {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b
}

// hashRoot: the ProgressiveList's root is
// mix_in_length(merkleize_progressive(pack(indices)), len(indices)).
func (x gloasIndexed) hashRoot() [32]byte {
	var packed []byte
	for _, v := range x.indices {
		packed = binary.LittleEndian.AppendUint64(packed, v)
	}
	list := mixInLength(merkleizeProgressive(chunks(packed), 1), uint64(len(x.indices)))
	return progressiveContainer(list, x.d.hashRoot(), bytesRoot(x.sig[:]))
}

func (x gloasIndexed) yaml() string {
	idx := make([]string, len(x.indices))
	for i, v := range x.indices {
		idx[i] = fmt.Sprint(v)
	}
	return fmt.Sprintf("attesting_indices: [%s]\ndata:\n%ssignature: '0x%x'\n", strings.Join(idx, ", "), x.d.yaml("  "), x.sig)
}

// aggregateAndProof is AggregateAndProof, a plain container, over the
// Gloas Attestation.
type aggregateAndProof struct {
	aggregator uint64
	a          gloasAttestation
	proof      [96]byte
}

func (x aggregateAndProof) encode() []byte {
	b := binary.LittleEndian.AppendUint64(nil, x.aggregator)
	b = binary.LittleEndian.AppendUint32(b, 8+4+96)
	b = append(b, x.proof[:]...)
	return append(b, x.a.encode()...)
}

func (x aggregateAndProof) hashRoot() [32]byte {
	return merkleize([][32]byte{uint64Chunk(x.aggregator), x.a.hashRoot(), bytesRoot(x.proof[:])}, 4)
}

func (x aggregateAndProof) yaml(indent string) string {
	return fmt.Sprintf("%saggregator_index: %d\n%saggregate:\n%s%sselection_proof: '0x%x'\n",
		indent, x.aggregator, indent, x.a.yaml(indent+"  "), indent, x.proof)
}

// signedAggregateAndProof is SignedAggregateAndProof, a plain container.
type signedAggregateAndProof struct {
	m   aggregateAndProof
	sig [96]byte
}

func (x signedAggregateAndProof) encode() []byte {
	b := binary.LittleEndian.AppendUint32(nil, 4+96)
	b = append(b, x.sig[:]...)
	return append(b, x.m.encode()...)
}

func (x signedAggregateAndProof) hashRoot() [32]byte {
	return merkleize([][32]byte{x.m.hashRoot(), bytesRoot(x.sig[:])}, 2)
}

func (x signedAggregateAndProof) yaml() string {
	return fmt.Sprintf("message:\n%ssignature: '0x%x'\n", x.m.yaml("  "), x.sig)
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func pair(a, b [32]byte) [32]byte { return sha256.Sum256(append(a[:], b[:]...)) }

func uint64Chunk(v uint64) (c [32]byte) {
	binary.LittleEndian.PutUint64(c[:], v)
	return c
}

func boolChunk(v bool) (c [32]byte) {
	c[0] = boolByte(v)
	return c
}

// bytesRoot is the root of a fixed byte vector: merkleize(pack(b)).
func bytesRoot(b []byte) [32]byte {
	c := chunks(b)
	return merkleize(c, len(c))
}

// merkleize is the SSZ spec's merkleize(chunks, limit).
func merkleize(chunks [][32]byte, limit int) [32]byte {
	n := 1
	for n < limit || n < len(chunks) {
		n *= 2
	}
	layer := make([][32]byte, n)
	copy(layer, chunks)
	for len(layer) > 1 {
		next := make([][32]byte, len(layer)/2)
		for i := range next {
			next[i] = pair(layer[2*i], layer[2*i+1])
		}
		layer = next
	}
	return layer[0]
}

// merkleizeProgressive is the SSZ spec's merkleize_progressive(chunks, num_leaves).
func merkleizeProgressive(chunks [][32]byte, numLeaves int) [32]byte {
	if len(chunks) == 0 {
		return [32]byte{}
	}
	k := min(numLeaves, len(chunks))
	return pair(merkleize(chunks[:k], numLeaves), merkleizeProgressive(chunks[k:], numLeaves*4))
}

func randData(r *rand.Rand) data {
	var d data
	fill(r, d.root[:])
	d.slot = r.Uint64()
	d.present, d.blobsOK = r.IntN(2) == 1, r.IntN(2) == 1
	return d
}

func fill(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
}

type object interface {
	encode() []byte
	hashRoot() [32]byte
}

func write(preset, typ string, i int, o object, value string) error {
	dir := filepath.Join(out, preset, "gloas", "ssz_static", typ, "ssz_random", fmt.Sprintf("case_%d", i))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root := o.hashRoot()
	files := map[string][]byte{
		"serialized.ssz_snappy": snappy.Encode(nil, o.encode()),
		"roots.yaml":            []byte("{root: '0x" + hex.EncodeToString(root[:]) + "'}\n"),
		"value.yaml":            []byte(value),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// presetSizes are the sizes of a preset that the containers depend on.
type presetSizes struct {
	ptcBytes, committees int // PTC_SIZE / 8; MAX_COMMITTEES_PER_SLOT
}

var presets = map[string]presetSizes{"mainnet": {512 / 8, 64}, "minimal": {16 / 8, 4}}

func randAttData(r *rand.Rand) attData {
	d := attData{slot: r.Uint64(), index: r.Uint64N(2), source: checkpoint{epoch: r.Uint64()}, target: checkpoint{epoch: r.Uint64()}}
	fill(r, d.root[:])
	fill(r, d.source.root[:])
	fill(r, d.target.root[:])
	return d
}

// randAttestation returns an attestation of n bits, each set with
// probability p.
func randAttestation(r *rand.Rand, ps presetSizes, n int, p float64) gloasAttestation {
	a := gloasAttestation{bits: make([]bool, n), d: randAttData(r), committee: make([]byte, (ps.committees+7)/8)}
	for i := range a.bits {
		a.bits[i] = r.Float64() < p
	}
	fill(r, a.sig[:])
	for i := range ps.committees {
		if r.IntN(2) == 0 {
			a.committee[i/8] |= 1 << (i % 8)
		}
	}
	return a
}

// cases writes the four cases of each type of a preset: case_0 the zero
// value, case_1 every bit set, the others random (the bits of case_3 mostly
// zero, so that trailing chunks are zero).
func cases(preset string) error {
	ps := presets[preset]
	r := rand.New(rand.NewPCG(7, uint64(len(preset))))
	for i := range 4 {
		d := randData(r)
		m := message{validator: r.Uint64(), d: randData(r)}
		fill(r, m.sig[:])
		a := aggregate{bits: make([]byte, ps.ptcBytes), d: randData(r)}
		fill(r, a.bits)
		fill(r, a.sig[:])
		bits := []int{0, 257, 1 + r.IntN(2048), 2048 + r.IntN(6000)}[i]
		att := randAttestation(r, ps, bits, []float64{0, 1, 0.5, 0.002}[i])
		ix := gloasIndexed{indices: make([]uint64, []int{0, 5, r.IntN(300), 300 + r.IntN(300)}[i]), d: randAttData(r)}
		for j := range ix.indices {
			ix.indices[j] = r.Uint64N(1 << 21)
		}
		fill(r, ix.sig[:])
		aap := aggregateAndProof{aggregator: r.Uint64(), a: randAttestation(r, ps, 1+r.IntN(2048), 0.5)}
		fill(r, aap.proof[:])
		sap := signedAggregateAndProof{m: aggregateAndProof{aggregator: r.Uint64(), a: randAttestation(r, ps, 1+r.IntN(2048), 0.9)}}
		fill(r, sap.m.proof[:])
		fill(r, sap.sig[:])
		switch i {
		case 0: // the zero values
			d, m, a = data{}, message{}, aggregate{bits: make([]byte, ps.ptcBytes)}
			att = gloasAttestation{committee: make([]byte, (ps.committees+7)/8)}
			ix, aap, sap = gloasIndexed{}, aggregateAndProof{a: att}, signedAggregateAndProof{m: aggregateAndProof{a: att}}
		case 1:
			for j := range a.bits {
				a.bits[j] = 0xff
			}
		}
		for _, w := range []struct {
			typ   string
			o     object
			value string
		}{
			{"PayloadAttestationData", d, d.yaml("")},
			{"PayloadAttestationMessage", m, m.yaml()},
			{"PayloadAttestation", a, a.yaml()},
			{"Attestation", att, att.yaml("")},
			{"IndexedAttestation", ix, ix.yaml()},
			{"AggregateAndProof", aap, aap.yaml("")},
			{"SignedAggregateAndProof", sap, sap.yaml()},
		} {
			if err := write(preset, w.typ, i, w.o, w.value); err != nil {
				return err
			}
		}
	}
	return nil
}

func main() {
	if err := os.RemoveAll(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, preset := range []string{"mainnet", "minimal"} {
		if err := cases(preset); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	fmt.Println("wrote", strings.TrimPrefix(out, "./"))
}
