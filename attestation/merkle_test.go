package attestation

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"testing"

	"github.com/prysmaticlabs/go-bitfield"
)

// This file computes hash tree roots the way the SSZ specification
// defines them (pack, merkleize, mix_in_length), independently of the
// package's codecs and of fastssz's hasher, to check them against.

type chunk = [32]byte

func hashPair(a, b chunk) chunk {
	var buf [64]byte
	copy(buf[:32], a[:])
	copy(buf[32:], b[:])
	return sha256.Sum256(buf[:])
}

// merkleize returns the root of chunks padded with zero chunks to the next
// power of two of limit (or of len(chunks) if limit is 0).
func merkleize(t testing.TB, chunks []chunk, limit int) chunk {
	t.Helper()
	if limit == 0 {
		limit = len(chunks)
	}
	if len(chunks) > limit {
		t.Fatalf("merkleize: %d chunks over limit %d", len(chunks), limit)
	}
	depth := 0
	for 1<<depth < limit {
		depth++
	}
	var zero chunk // zero hash at the current level
	layer := append([]chunk(nil), chunks...)
	for d := 0; d < depth; d++ {
		if len(layer)%2 == 1 {
			layer = append(layer, zero)
		}
		next := make([]chunk, 0, len(layer)/2)
		for i := 0; i < len(layer); i += 2 {
			next = append(next, hashPair(layer[i], layer[i+1]))
		}
		if len(next) == 0 {
			next = append(next, hashPair(zero, zero))
		}
		layer = next
		zero = hashPair(zero, zero)
	}
	if len(layer) == 0 {
		return zero
	}
	return layer[0]
}

func mixInLength(root chunk, n uint64) chunk {
	var l chunk
	binary.LittleEndian.PutUint64(l[:8], n)
	return hashPair(root, l)
}

func pack(b []byte) []chunk {
	var out []chunk
	for len(b) > 0 {
		var c chunk
		n := copy(c[:], b)
		out = append(out, c)
		b = b[n:]
	}
	return out
}

func uintChunk(v uint64) chunk {
	var c chunk
	binary.LittleEndian.PutUint64(c[:8], v)
	return c
}

func rootSignature(t testing.TB, s [96]byte) chunk { return merkleize(t, pack(s[:]), 0) }

func rootCheckpoint(t testing.TB, c *Checkpoint) chunk {
	if c == nil {
		c = new(Checkpoint)
	}
	return merkleize(t, []chunk{uintChunk(c.Epoch), c.Root}, 0)
}

func rootData(t testing.TB, d *AttestationData) chunk {
	if d == nil {
		d = new(AttestationData)
	}
	return merkleize(t, []chunk{
		uintChunk(d.Slot), uintChunk(d.Index), d.BeaconBlockRoot,
		rootCheckpoint(t, d.Source), rootCheckpoint(t, d.Target),
	}, 0)
}

// rootBitlist is hash_tree_root of a Bitlist[limit]: the bits without the
// length bit, packed, merkleized to limit bits, length mixed in.
func rootBitlist(t testing.TB, b bitfield.Bitlist, limit int) chunk {
	n := b.Len()
	raw := append([]byte(nil), b...)
	raw[n/8] &^= 1 << (n % 8) // clear the length bit
	return mixInLength(merkleize(t, pack(raw), (limit+255)/256), n)
}

func rootIndices(t testing.TB, idx []uint64, limit int) chunk {
	raw := make([]byte, 8*len(idx))
	for i, v := range idx {
		binary.LittleEndian.PutUint64(raw[8*i:], v)
	}
	return mixInLength(merkleize(t, pack(raw), limit*8/32), uint64(len(idx)))
}

func rootAttestation(t testing.TB, a *Attestation) chunk {
	return merkleize(t, []chunk{
		rootBitlist(t, a.AggregationBits, 2048*64), rootData(t, a.Data),
		rootSignature(t, a.Signature), pack(a.CommitteeBits)[0],
	}, 0)
}

func rootMinimalAttestation(t testing.TB, a *MinimalAttestation) chunk {
	return merkleize(t, []chunk{
		rootBitlist(t, a.AggregationBits, 2048*4), rootData(t, a.Data),
		rootSignature(t, a.Signature), pack(a.CommitteeBits)[0],
	}, 0)
}

func rootPhase0Attestation(t testing.TB, a *Phase0Attestation) chunk {
	return merkleize(t, []chunk{
		rootBitlist(t, a.AggregationBits, 2048), rootData(t, a.Data), rootSignature(t, a.Signature),
	}, 0)
}

// The progressive types of EIP-7495 and EIP-7916 (Gloas), as
// ssz/simple-serialize.md defines their merkleization.

// merkleizeProgressive is merkleize_progressive(chunks, numLeaves): the zero
// chunk for no chunks, else hash(merkleize(chunks[:numLeaves], numLeaves),
// merkleize_progressive(chunks[numLeaves:], numLeaves * 4)).
func merkleizeProgressive(t testing.TB, chunks []chunk, numLeaves int) chunk {
	if len(chunks) == 0 {
		return chunk{}
	}
	k := min(numLeaves, len(chunks))
	return hashPair(merkleize(t, chunks[:k], numLeaves), merkleizeProgressive(t, chunks[k:], numLeaves*4))
}

// bitlistBits is pack_bits' bitfield_bytes of a bitlist: its n bits in
// ceil(n / 8) bytes, without the length bit.
func bitlistBits(b bitfield.Bitlist) []byte {
	n := b.Len()
	raw := append([]byte(nil), b[:(n+7)/8]...)
	if n%8 != 0 {
		raw[n/8] &^= 1 << (n % 8)
	}
	return raw
}

// rootProgressiveBitlist is hash_tree_root of a ProgressiveBitList:
// mix_in_length(merkleize_progressive(pack_bits(value)), len(value)).
func rootProgressiveBitlist(t testing.TB, b bitfield.Bitlist) chunk {
	return mixInLength(merkleizeProgressive(t, pack(bitlistBits(b)), 1), b.Len())
}

// rootProgressiveUint64s is hash_tree_root of a ProgressiveList[uint64]:
// mix_in_length(merkleize_progressive(pack(value)), len(value)).
func rootProgressiveUint64s(t testing.TB, idx []uint64) chunk {
	raw := make([]byte, 8*len(idx))
	for i, v := range idx {
		binary.LittleEndian.PutUint64(raw[8*i:], v)
	}
	return mixInLength(merkleizeProgressive(t, pack(raw), 1), uint64(len(idx)))
}

// rootProgressiveContainer is hash_tree_root of a ProgressiveContainer whose
// active_fields are all 1, from its fields' roots:
// mix_in_active_fields(merkleize_progressive(fields), active_fields), the
// active_fields packed as a bitvector into one chunk.
func rootProgressiveContainer(t testing.TB, fields ...chunk) chunk {
	var active chunk
	for i := range fields {
		active[i/8] |= 1 << (i % 8)
	}
	return hashPair(merkleizeProgressive(t, fields, 1), active)
}

func rootGloasAttestation(t testing.TB, a *GloasAttestation) chunk {
	return rootProgressiveContainer(t, rootProgressiveBitlist(t, a.AggregationBits), rootData(t, a.Data),
		rootSignature(t, a.Signature), pack(a.CommitteeBits)[0])
}

func rootMinimalGloasAttestation(t testing.TB, a *MinimalGloasAttestation) chunk {
	return rootProgressiveContainer(t, rootProgressiveBitlist(t, a.AggregationBits), rootData(t, a.Data),
		rootSignature(t, a.Signature), pack(a.CommitteeBits)[0])
}

func rootGloasIndexedAttestation(t testing.TB, a *GloasIndexedAttestation) chunk {
	return rootProgressiveContainer(t, rootProgressiveUint64s(t, a.AttestingIndices), rootData(t, a.Data),
		rootSignature(t, a.Signature))
}

func TestMerkleizeHelper(t *testing.T) {
	// Sanity checks of the helper itself against the SSZ definitions.
	var z chunk
	z1 := hashPair(z, z)
	if got := merkleize(t, nil, 4); got != hashPair(z1, z1) {
		t.Errorf("merkleize(nil, 4) = %x", got)
	}
	a, b, c := chunk{1}, chunk{2}, chunk{3}
	if got, want := merkleize(t, []chunk{a, b, c}, 0), hashPair(hashPair(a, b), hashPair(c, z)); got != want {
		t.Errorf("merkleize(3 chunks) = %x, want %x", got, want)
	}
	if got := merkleize(t, []chunk{a}, 1); got != a {
		t.Errorf("merkleize(1 chunk) = %x, want the chunk", got)
	}
	if got, want := merkleize(t, []chunk{a}, 3), hashPair(hashPair(a, z), z1); got != want {
		t.Errorf("merkleize(1 chunk, limit 3) = %x, want %x", got, want)
	}

	// merkleize_progressive written out: subtrees of 1, 4 and 16 leaves.
	if got := merkleizeProgressive(t, nil, 1); got != z {
		t.Errorf("merkleize_progressive([]) = %x, want zero", got)
	}
	if got, want := merkleizeProgressive(t, []chunk{a}, 1), hashPair(a, z); got != want {
		t.Errorf("merkleize_progressive(1 chunk) = %x, want %x", got, want)
	}
	if got, want := merkleizeProgressive(t, []chunk{a, b}, 1), hashPair(a, hashPair(hashPair(hashPair(b, z), z1), z)); got != want {
		t.Errorf("merkleize_progressive(2 chunks) = %x, want %x", got, want)
	}
	six := []chunk{a, b, c, {4}, {5}, {6}}
	second := hashPair(hashPair(b, c), hashPair(chunk{4}, chunk{5}))
	z2 := hashPair(z1, z1)
	third := hashPair(hashPair(hashPair(hashPair(chunk{6}, z), z1), z2), hashPair(z2, z2)) // 16 leaves
	if got, want := merkleizeProgressive(t, six, 1), hashPair(a, hashPair(second, hashPair(third, z))); got != want {
		t.Errorf("merkleize_progressive(6 chunks) = %x, want %x", got, want)
	}
	// A bitlist of 8 bits has one byte of bits (its length bit is in a
	// second byte); one of 257 bits has two chunks, the second holding bit
	// 256 alone.
	if got := bitlistBits(bitfield.Bitlist{0xff, 0x01}); !bytes.Equal(got, []byte{0xff}) {
		t.Errorf("bits of an 8-bit bitlist: %x", got)
	}
	if got := pack(bitlistBits(bitfield.NewBitlist(257))); len(got) != 2 {
		t.Errorf("a 257-bit bitlist packs into %d chunks, want 2", len(got))
	}
	if got := pack(bitlistBits(bitfield.NewBitlist(0))); len(got) != 0 {
		t.Errorf("an empty bitlist packs into %d chunks, want 0", len(got))
	}
}
