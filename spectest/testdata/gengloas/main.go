// Command gengloas writes the Gloas ssz_static fixture in
// spectest/testdata/gloas-ssz-static: cases of PayloadAttestationData,
// PayloadAttestationMessage and PayloadAttestation in the consensus-spec-tests
// layout (serialized.ssz_snappy, roots.yaml, value.yaml), for both presets.
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
	bits [64]byte // Bitvector[512]
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
	fields := [][32]byte{bytesRoot(a.bits[:]), a.d.hashRoot(), bytesRoot(a.sig[:])}
	var active [32]byte
	active[0] = 0b111
	return pair(merkleizeProgressive(fields, 1), active)
}

func (a aggregate) yaml() string {
	return fmt.Sprintf("aggregation_bits: '0x%x'\ndata:\n%ssignature: '0x%x'\n", a.bits, a.d.yaml("  "), a.sig)
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
	var chunks [][32]byte
	for len(b) > 0 {
		var c [32]byte
		b = b[copy(c[:], b):]
		chunks = append(chunks, c)
	}
	return merkleize(chunks, len(chunks))
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

func main() {
	if err := os.RemoveAll(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, preset := range []string{"mainnet", "minimal"} {
		r := rand.New(rand.NewPCG(7, uint64(len(preset))))
		for i := range 4 {
			d := randData(r)
			if i == 0 {
				d = data{} // the zero value
			}
			m := message{validator: r.Uint64(), d: randData(r)}
			fill(r, m.sig[:])
			a := aggregate{d: randData(r)}
			fill(r, a.bits[:])
			fill(r, a.sig[:])
			if i == 0 {
				m, a = message{}, aggregate{}
			}
			if i == 1 {
				for j := range a.bits {
					a.bits[j] = 0xff
				}
			}
			err := write(preset, "PayloadAttestationData", i, d, d.yaml(""))
			if err == nil {
				err = write(preset, "PayloadAttestationMessage", i, m, m.yaml())
			}
			if err == nil {
				err = write(preset, "PayloadAttestation", i, a, a.yaml())
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
	fmt.Println("wrote", strings.TrimPrefix(out, "./"))
}
