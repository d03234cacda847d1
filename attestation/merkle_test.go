package attestation

import (
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
}
