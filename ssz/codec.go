package ssz

import (
	fastssz "github.com/ferranbt/fastssz"
)

// The SSZ methods of SigningData and ForkData, written by hand over
// fastssz's primitives: both are containers of two byte vectors, so one
// codec serves them. The bytes and roots are those of the specs (the
// official ssz_static vectors, and the hand-made roots of the tests).

// twoVectors encodes a container of two byte vectors, first and second,
// that point into the container's fields.
type twoVectors struct{ first, second []byte }

func (v twoVectors) encode(dst []byte) ([]byte, error) {
	return append(append(dst, v.first...), v.second...), nil
}

func (v twoVectors) decode(buf []byte) error {
	if len(buf) != v.size() {
		return fastssz.ErrSize
	}
	copy(v.first, buf)
	copy(v.second, buf[len(v.first):])
	return nil
}

func (v twoVectors) size() int { return len(v.first) + len(v.second) }

func (v twoVectors) hash(hh fastssz.HashWalker) error {
	indx := hh.Index()
	hh.PutBytes(v.first)
	hh.PutBytes(v.second)
	hh.Merkleize(indx)
	return nil
}

func (s *SigningData) codec() twoVectors { return twoVectors{s.ObjectRoot[:], s.Domain[:]} }

func (f *ForkData) codec() twoVectors {
	return twoVectors{f.CurrentVersion[:], f.GenesisValidatorsRoot[:]}
}

// MarshalSSZ returns the SSZ encoding of s.
func (s *SigningData) MarshalSSZ() ([]byte, error) {
	return fastssz.MarshalSSZ(s)
}

// MarshalSSZTo appends the SSZ encoding of s to buf.
func (s *SigningData) MarshalSSZTo(buf []byte) ([]byte, error) {
	return s.codec().encode(buf)
}

// UnmarshalSSZ sets s to the value encoded in buf.
func (s *SigningData) UnmarshalSSZ(buf []byte) error {
	return s.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of s (64 bytes).
func (s *SigningData) SizeSSZ() int {
	return s.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of s, the signing root.
func (s *SigningData) HashTreeRoot() ([32]byte, error) {
	return fastssz.HashWithDefaultHasher(s)
}

// HashTreeRootWith hashes s with hh.
func (s *SigningData) HashTreeRootWith(hh fastssz.HashWalker) error {
	return s.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of s.
func (s *SigningData) GetTree() (*fastssz.Node, error) {
	return fastssz.ProofTree(s)
}

// MarshalSSZ returns the SSZ encoding of f.
func (f *ForkData) MarshalSSZ() ([]byte, error) {
	return fastssz.MarshalSSZ(f)
}

// MarshalSSZTo appends the SSZ encoding of f to buf.
func (f *ForkData) MarshalSSZTo(buf []byte) ([]byte, error) {
	return f.codec().encode(buf)
}

// UnmarshalSSZ sets f to the value encoded in buf.
func (f *ForkData) UnmarshalSSZ(buf []byte) error {
	return f.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of f (36 bytes).
func (f *ForkData) SizeSSZ() int {
	return f.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of f, the fork data root.
func (f *ForkData) HashTreeRoot() ([32]byte, error) {
	return fastssz.HashWithDefaultHasher(f)
}

// HashTreeRootWith hashes f with hh.
func (f *ForkData) HashTreeRootWith(hh fastssz.HashWalker) error {
	return f.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of f.
func (f *ForkData) GetTree() (*fastssz.Node, error) {
	return fastssz.ProofTree(f)
}
