package attestation

import (
	ssz "github.com/ferranbt/fastssz"
)

//go:generate go run ./internal/sszgen/cmd/sszgen

// The SSZ encodings of this package are written by hand over fastssz's
// primitives, one encoder, decoder and hasher per container shape; the
// methods of fastssz's interfaces, each a call into a type's codec(), are
// generated into ssz_methods.go:
//
//   - the fixed-size containers (this file and gloas_codec.go) encode,
//     decode and hash their fields in order;
//   - the Attestation of the three presets and of Gloas share one codec
//     (attestation_codec.go), told the preset's limits;
//   - IndexedAttestation, AggregateAndProof and SignedAggregateAndProof of
//     the three presets and of Gloas share one codec each
//     (aggregate_codec.go): they differ in a limit or in the type of the
//     nested attestation;
//   - the Gloas containers that the specs make progressive hash through
//     progressive.go.
//
// The bytes and roots are those of the specs: the official ssz_static
// vectors (spectest), an independent merkleization (merkle_test.go) and
// the fuzz targets check them. A nil pointer field encodes and hashes as
// its zero value without being set; decoding reuses a non-nil one.

// Sizes of the fixed-size parts, in bytes.
const (
	checkpointSize        = 8 + 32
	attestationDataSize   = 8 + 8 + 32 + 2*checkpointSize
	forkSize              = 4 + 4 + 8
	signatureSize         = 96
	singleAttestationSize = 8 + 8 + attestationDataSize + signatureSize
	offsetSize            = 4
)

// sszObject is what the codecs need of a nested container.
type sszObject interface {
	MarshalSSZTo(buf []byte) ([]byte, error)
	UnmarshalSSZ(buf []byte) error
	SizeSSZ() int
	HashTreeRootWith(hh ssz.HashWalker) error
}

// sszPointer is a pointer to a nested container type T.
type sszPointer[T any] interface {
	*T
	sszObject
}

// orNew returns p, or a new zero T where p is nil.
func orNew[T any](p *T) *T {
	if p == nil {
		return new(T)
	}
	return p
}

// variableOffset reads the 4-byte offset at buf[at:] of a container whose
// only variable-size field starts right after its fixed part, fixed bytes
// long (fastssz's errors, in its order of checks).
func variableOffset(buf []byte, at, fixed int) error {
	if len(buf) < fixed {
		return ssz.ErrSize
	}
	o := ssz.ReadOffset(buf[at : at+offsetSize])
	if o > uint64(len(buf)) {
		return ssz.ErrOffset
	}
	if o != uint64(fixed) {
		return ssz.ErrInvalidVariableOffset
	}
	return nil
}

// fixedContainer is a container of a fixed size that encodes and hashes
// without fail; decodeFixed is given exactly its size.
type fixedContainer interface {
	encodeFixed(dst []byte) []byte
	decodeFixed(buf []byte) error
	hashFixed(hh ssz.HashWalker)
}

// fixed encodes a fixed-size container of size bytes.
type fixed[T fixedContainer] struct {
	v T
	n int
}

func fixedOf[T fixedContainer](v T, size int) fixed[T] { return fixed[T]{v, size} }

func (c fixed[T]) encode(dst []byte) ([]byte, error) { return c.v.encodeFixed(dst), nil }

func (c fixed[T]) decode(buf []byte) error {
	if len(buf) != c.n {
		return ssz.ErrSize
	}
	return c.v.decodeFixed(buf)
}

func (c fixed[T]) size() int { return c.n }

func (c fixed[T]) hash(hh ssz.HashWalker) error { c.v.hashFixed(hh); return nil }

func (c *Checkpoint) encodeFixed(dst []byte) []byte {
	return append(ssz.MarshalUint64(dst, c.Epoch), c.Root[:]...)
}

func (c *Checkpoint) decodeFixed(buf []byte) error {
	c.Epoch = ssz.UnmarshallUint64(buf[:8])
	c.Root = [32]byte(buf[8:checkpointSize])
	return nil
}

func (c *Checkpoint) hashFixed(hh ssz.HashWalker) {
	indx := hh.Index()
	hh.PutUint64(c.Epoch)
	hh.PutBytes(c.Root[:])
	hh.Merkleize(indx)
}

func (d *AttestationData) encodeFixed(dst []byte) []byte {
	dst = ssz.MarshalUint64(dst, d.Slot)
	dst = ssz.MarshalUint64(dst, d.Index)
	dst = append(dst, d.BeaconBlockRoot[:]...)
	dst = orNew(d.Source).encodeFixed(dst)
	return orNew(d.Target).encodeFixed(dst)
}

func (d *AttestationData) decodeFixed(buf []byte) error {
	d.Slot = ssz.UnmarshallUint64(buf[0:8])
	d.Index = ssz.UnmarshallUint64(buf[8:16])
	d.BeaconBlockRoot = [32]byte(buf[16:48])
	d.Source, d.Target = orNew(d.Source), orNew(d.Target)
	if err := d.Source.decodeFixed(buf[48 : 48+checkpointSize]); err != nil {
		return err
	}
	return d.Target.decodeFixed(buf[48+checkpointSize : attestationDataSize])
}

func (d *AttestationData) hashFixed(hh ssz.HashWalker) {
	indx := hh.Index()
	hh.PutUint64(d.Slot)
	hh.PutUint64(d.Index)
	hh.PutBytes(d.BeaconBlockRoot[:])
	orNew(d.Source).hashFixed(hh)
	orNew(d.Target).hashFixed(hh)
	hh.Merkleize(indx)
}

func (f *Fork) encodeFixed(dst []byte) []byte {
	dst = append(dst, f.PreviousVersion[:]...)
	dst = append(dst, f.CurrentVersion[:]...)
	return ssz.MarshalUint64(dst, f.Epoch)
}

func (f *Fork) decodeFixed(buf []byte) error {
	f.PreviousVersion, f.CurrentVersion = [4]byte(buf[0:4]), [4]byte(buf[4:8])
	f.Epoch = ssz.UnmarshallUint64(buf[8:16])
	return nil
}

func (f *Fork) hashFixed(hh ssz.HashWalker) {
	indx := hh.Index()
	hh.PutBytes(f.PreviousVersion[:])
	hh.PutBytes(f.CurrentVersion[:])
	hh.PutUint64(f.Epoch)
	hh.Merkleize(indx)
}

func (s *SingleAttestation) encodeFixed(dst []byte) []byte {
	dst = ssz.MarshalUint64(dst, s.CommitteeIndex)
	dst = ssz.MarshalUint64(dst, s.AttesterIndex)
	dst = orNew(s.Data).encodeFixed(dst)
	return append(dst, s.Signature[:]...)
}

func (s *SingleAttestation) decodeFixed(buf []byte) error {
	s.CommitteeIndex = ssz.UnmarshallUint64(buf[0:8])
	s.AttesterIndex = ssz.UnmarshallUint64(buf[8:16])
	s.Signature = [signatureSize]byte(buf[16+attestationDataSize:])
	s.Data = orNew(s.Data)
	return s.Data.decodeFixed(buf[16 : 16+attestationDataSize])
}

func (s *SingleAttestation) hashFixed(hh ssz.HashWalker) {
	indx := hh.Index()
	hh.PutUint64(s.CommitteeIndex)
	hh.PutUint64(s.AttesterIndex)
	orNew(s.Data).hashFixed(hh)
	hh.PutBytes(s.Signature[:])
	hh.Merkleize(indx)
}

//ssz:doc SizeSSZ returns the size of the SSZ encoding of c (40 bytes).
func (c *Checkpoint) codec() fixed[*Checkpoint] { return fixedOf(c, checkpointSize) }

//ssz:doc SizeSSZ returns the size of the SSZ encoding of s (240 bytes).
func (s *SingleAttestation) codec() fixed[*SingleAttestation] {
	return fixedOf(s, singleAttestationSize)
}

//ssz:doc SizeSSZ returns the size of the SSZ encoding of d (128 bytes).
//ssz:doc HashTreeRoot returns the SSZ hash tree root of d, the root that attesters sign.
func (d *AttestationData) codec() fixed[*AttestationData] { return fixedOf(d, attestationDataSize) }

//ssz:doc SizeSSZ returns the size of the SSZ encoding of f (16 bytes).
func (f *Fork) codec() fixed[*Fork] { return fixedOf(f, forkSize) }
