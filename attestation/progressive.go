package attestation

import (
	"crypto/sha256"

	ssz "github.com/ferranbt/fastssz"
	"github.com/prysmaticlabs/go-bitfield"
)

// The merkleization of the progressive types (EIP-7495, EIP-7916) that the
// Gloas containers use, as ssz/simple-serialize.md defines it, over
// fastssz's HashWalker (so that GetTree's proof trees follow it too):
//
//	merkleize_progressive(chunks, num_leaves=1):
//	    Bytes32() if there are no chunks, else
//	    hash(merkleize(chunks[:num_leaves], num_leaves),
//	         merkleize_progressive(chunks[num_leaves:], num_leaves * 4))
//
// A progressive list or bitlist mixes its length in (mix_in_length), a
// progressive container its active_fields (mix_in_active_fields). Unlike
// a List's, the root depends on the number of chunks: a bitlist of n bits
// has exactly ceil(n / 256) chunks, trailing zero chunks included.

// zeroHashes[d] is the root of a binary tree of 2^d zero chunks.
var zeroHashes = func() (z [64][32]byte) {
	for d := 1; d < len(z); d++ {
		z[d] = sha256.Sum256(append(z[d-1][:], z[d-1][:]...))
	}
	return z
}()

// progressive feeds chunks to hh in the subtrees of merkleize_progressive:
// 1 chunk, then 4, 16, ... Its zero value is ready for hh.
type progressive struct {
	hh     ssz.HashWalker
	starts []int // hh's Index at the start of each subtree
	size   int   // chunks of the current subtree (0: none yet)
	n      int   // chunks written to the current subtree
}

// room makes the current subtree one that has room for a chunk, closing
// a full one.
func (p *progressive) room() {
	if p.size != 0 && p.n < p.size {
		return
	}
	if p.size == 0 {
		p.size = 1
	} else {
		p.close()
		p.size *= 4
	}
	p.starts = append(p.starts, p.hh.Index())
	p.n = 0
}

// close merkleizes the current subtree, padded to its size.
func (p *progressive) close() {
	start := p.starts[len(p.starts)-1]
	p.hh.Merkleize(start) // a tree of next_pow_of_two(n) chunks
	for d := depth(p.n); d < depth(p.size); d++ {
		p.hh.AppendBytes32(zeroHashes[d][:])
		p.hh.Merkleize(start)
	}
}

// depth is ceil(log2(n)) for n >= 1.
func depth(n int) int {
	d := 0
	for 1<<d < n {
		d++
	}
	return d
}

// field makes room for one chunk, which the caller then writes: the root of
// a container's next field.
func (p *progressive) field() {
	p.room()
	p.n++
}

// bytes writes b as chunks, the last one padded with zeros.
func (p *progressive) bytes(b []byte) {
	for len(b) > 0 {
		p.room()
		k := min(32*(p.size-p.n), len(b))
		p.hh.Append(b[:k])
		p.n += (k + 31) / 32
		b = b[k:]
	}
	p.hh.FillUpTo32()
}

// uint64s writes vs packed four to a chunk.
func (p *progressive) uint64s(vs []uint64) {
	for len(vs) > 0 {
		p.room()
		k := min(4*(p.size-p.n), len(vs))
		for _, v := range vs[:k] {
			p.hh.AppendUint64(v)
		}
		p.n += (k + 3) / 4
		vs = vs[k:]
	}
	p.hh.FillUpTo32()
}

// finish leaves in hh, in place of the chunks, their
// merkleize_progressive root.
func (p *progressive) finish() {
	if p.size != 0 {
		p.close()
	}
	var empty [32]byte
	p.hh.AppendBytes32(empty[:]) // merkleize_progressive of no more chunks
	for i := len(p.starts) - 1; i >= 0; i-- {
		p.hh.Merkleize(p.starts[i]) // hash(subtree i, the subtrees after it)
	}
}

// putProgressiveBitlist hashes b as a ProgressiveBitList: its bits without
// the length bit, ceil(n / 256) chunks, and its length n mixed in. b must be
// a valid bitlist.
func putProgressiveBitlist(hh ssz.HashWalker, b bitfield.Bitlist) {
	top := hh.Index()
	n := b.Len()
	nbytes := int((n + 7) / 8)
	p := progressive{hh: hh}
	if nbytes > 0 {
		last := (nbytes - 1) / 32 * 32 // the start of the last chunk
		p.bytes(b[:last])
		var c [32]byte
		copy(c[:], b[last:nbytes])
		if n%8 != 0 {
			c[nbytes-1-last] &^= 1 << (n % 8) // the length bit
		}
		p.bytes(c[:])
	}
	p.finish()
	hh.PutUint64(n)
	hh.Merkleize(top)
}

// putProgressiveUint64s hashes vs as a ProgressiveList[uint64].
func putProgressiveUint64s(hh ssz.HashWalker, vs []uint64) {
	top := hh.Index()
	p := progressive{hh: hh}
	p.uint64s(vs)
	p.finish()
	hh.PutUint64(uint64(len(vs)))
	hh.Merkleize(top)
}

// progressiveContainer hashes a ProgressiveContainer whose active_fields
// are all 1: fields writes the root of each field, calling field before
// each; the active_fields bits are mixed in.
func progressiveContainer(hh ssz.HashWalker, nfields int, fields func(field func())) {
	top := hh.Index()
	p := progressive{hh: hh}
	fields(p.field)
	p.finish()
	hh.PutUint64(uint64(1)<<nfields - 1) // pack_bits([1] * nfields), nfields < 64
	hh.Merkleize(top)
}
