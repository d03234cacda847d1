package interop_test

import (
	"encoding/binary"
	"slices"
)

// Malformed inputs made from a valid encoding. Each kind says whether the
// result can still be the encoding of a value: where it cannot (a fixed-size
// container of the wrong size, an offset other than the fixed part's size, a
// bitlist without its length bit or over its limit, a list whose bytes are
// not whole elements, a boolean byte other than 0 or 1, bits set past the
// end of a bitvector), both decoders must reject it; elsewhere they must
// agree.

// layout says where a container's encoding has what the mutations change.
type layout struct {
	// offsets are the positions of the offsets of the container and of the
	// containers nested in it, each with its right value.
	offsets []offsetAt
	// tail is the length of the variable part at the end of the encoding
	// (the bitlist of the innermost attestation, or the index list); 0 for
	// a fixed-size container.
	tail int
	// tailLimit is the bitlist's limit in bits, or the list's in elements.
	tailLimit int
	// indices says that the tail is a list of uint64, not a bitlist.
	indices bool
	// bools are the positions of boolean bytes.
	bools []int
	// padded is the position of a bitvector's last byte whose high bits,
	// from bit paddedFrom on, lie past the bitvector's end; -1 if none.
	padded, paddedFrom int
}

type offsetAt struct{ at, value int }

func fixedLayout(bools ...int) layout { return layout{bools: bools, padded: -1} }

// randomCuts returns up to n distinct lengths in [lo, hi), lo and hi-1
// among them.
func (g *gen) randomCuts(lo, hi, n int) []int {
	if hi <= lo {
		return nil
	}
	cuts := []int{lo, hi - 1}
	for range n - 2 {
		cuts = append(cuts, lo+g.IntN(hi-lo))
	}
	slices.Sort(cuts)
	return slices.Compact(cuts)
}

func (g *gen) randomBytes(n int) []byte {
	b := make([]byte, n)
	g.read(b)
	return b
}

// mutations returns the malformed inputs of the kinds the layout allows.
func (l layout) mutations(g *gen, enc []byte) []mutation {
	var out []mutation
	add := func(kind string, input []byte, mustReject bool) {
		out = append(out, mutation{kind: kind, input: input, mustReject: mustReject})
	}
	head := len(enc) - l.tail // the bytes before the variable tail

	// Truncated: inside the fixed parts no value fits; inside a bitlist
	// the shorter bytes may still be one.
	for _, n := range g.randomCuts(0, head, 4) {
		add("truncated", slices.Clone(enc[:n]), true)
	}
	if l.tail > 0 {
		for _, n := range g.randomCuts(head+1, len(enc), 2) {
			add("truncated", slices.Clone(enc[:n]), l.indices && (n-head)%8 != 0)
		}
	}

	// Extended: a fixed-size container has no room for more bytes; a tail
	// ending in a zero byte is no bitlist; more bytes of a list or bitlist
	// may still be one.
	switch {
	case l.indices:
		add("extended", append(slices.Clone(enc), g.randomBytes(1+g.IntN(7))...), true)
		add("extended", append(slices.Clone(enc), g.randomBytes(8*(1+g.IntN(4)))...), false)
	case l.tail == 0:
		add("extended", append(slices.Clone(enc), g.randomBytes(1+g.IntN(64))...), true)
	default:
		add("extended", append(slices.Clone(enc), 0), true)
		add("extended", append(slices.Clone(enc), g.randomBytes(1+g.IntN(8))...), false)
	}

	// Bad offsets: the first offset of a container must be the size of its
	// fixed part.
	for _, o := range l.offsets {
		for _, v := range []uint32{0, uint32(o.value - 1), uint32(o.value + 1), uint32(len(enc) + 1), ^uint32(0), g.Uint32()} {
			if v == uint32(o.value) {
				continue
			}
			bad := slices.Clone(enc)
			binary.LittleEndian.PutUint32(bad[o.at:], v)
			add("bad offset", bad, true)
		}
	}

	if l.tail > 0 && !l.indices {
		// No length bit: the bitlist's last byte zero, or no bitlist bytes.
		bad := slices.Clone(enc)
		bad[len(bad)-1] = 0
		add("no length bit", bad, true)
		add("no length bit", slices.Clone(enc[:head]), true)

		// Over the limit: limit+1 bits, and a whole byte more.
		for _, n := range []int{l.tailLimit + 1, l.tailLimit + 8} {
			add("oversized", append(slices.Clone(enc[:head]), g.bitlist(n)...), true)
		}
	}
	if l.indices && g.IntN(8) == 0 {
		// limit+1 indices, zero but for the last: what matters is the
		// count. One value in 8 on average: the input is 1 MiB in the
		// mainnet preset.
		over := append(slices.Clone(enc[:head]), make([]byte, 8*(l.tailLimit+1))...)
		g.read(over[len(over)-8:])
		add("oversized", over, true)
	}

	for _, at := range l.bools {
		for _, v := range []byte{2, 0x80, 0xff} {
			bad := slices.Clone(enc)
			bad[at] = v
			add("bad boolean", bad, true)
		}
	}
	if l.padded >= 0 {
		for bit := l.paddedFrom; bit < 8; bit++ {
			bad := slices.Clone(enc)
			bad[l.padded] |= 1 << bit
			add("bitvector padding", bad, true)
		}
	}

	// Random bytes changed: the decoders must agree on whatever comes out.
	for range 4 {
		bad := slices.Clone(enc)
		for range 1 + g.IntN(3) {
			bad[g.IntN(len(bad))] = byte(g.Uint32())
		}
		add("random bytes", bad, false)
	}
	return out
}
