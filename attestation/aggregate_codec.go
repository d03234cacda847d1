package attestation

import (
	ssz "github.com/ferranbt/fastssz"
)

// The SSZ methods of the IndexedAttestation, AggregateAndProof and
// SignedAggregateAndProof containers of the three presets and of Gloas: one
// codec each, told the preset's limit (IndexedAttestation; none for the
// progressive Gloas one) or taking the preset's attestation type as a type
// parameter. The exported types convert to the codec's struct, which has
// the same fields.

const (
	indexedFixedSize   = offsetSize + attestationDataSize + signatureSize
	aggregateFixedSize = 8 + offsetSize + signatureSize
	signedFixedSize    = offsetSize + signatureSize
)

// indexedAttestation has the fields of the three IndexedAttestation types.
type indexedAttestation struct {
	AttestingIndices []uint64
	Data             *AttestationData
	Signature        [signatureSize]byte
}

// indexedCodec encodes an IndexedAttestation of at most limit attesters;
// name is the list's name in errors. A limit of 0 is the Gloas
// IndexedAttestation: a progressive container over a ProgressiveList of any
// length.
type indexedCodec struct {
	*indexedAttestation
	limit int
	name  string
}

func (c indexedCodec) checkLimit() error {
	if n := len(c.AttestingIndices); c.limit != 0 && n > c.limit {
		return ssz.ErrListTooBigFn(c.name, n, c.limit)
	}
	return nil
}

func (c indexedCodec) encode(dst []byte) ([]byte, error) {
	if err := c.checkLimit(); err != nil {
		return dst, err
	}
	dst = ssz.WriteOffset(dst, indexedFixedSize)
	dst = orNew(c.Data).encodeFixed(dst)
	dst = append(dst, c.Signature[:]...)
	for _, i := range c.AttestingIndices {
		dst = ssz.MarshalUint64(dst, i)
	}
	return dst, nil
}

func (c indexedCodec) decode(buf []byte) error {
	if err := variableOffset(buf, 0, indexedFixedSize); err != nil {
		return err
	}
	c.Data = orNew(c.Data)
	if err := c.Data.decodeFixed(buf[offsetSize : offsetSize+attestationDataSize]); err != nil {
		return err
	}
	c.Signature = [signatureSize]byte(buf[offsetSize+attestationDataSize : indexedFixedSize])
	list := buf[indexedFixedSize:]
	limit := c.limit
	if limit == 0 {
		limit = len(list) / 8
	}
	n, err := ssz.DivideInt2(len(list), 8, limit)
	if err != nil {
		return err
	}
	c.AttestingIndices = ssz.ExtendUint64(c.AttestingIndices, n)
	for k := range n {
		c.AttestingIndices[k] = ssz.UnmarshallUint64(list[8*k : 8*k+8])
	}
	return nil
}

func (c indexedCodec) size() int { return indexedFixedSize + 8*len(c.AttestingIndices) }

func (c indexedCodec) hash(hh ssz.HashWalker) error {
	if err := c.checkLimit(); err != nil {
		return err
	}
	if c.limit == 0 {
		progressiveContainer(hh, 3, func(field func()) {
			field()
			putProgressiveUint64s(hh, c.AttestingIndices)
			field()
			orNew(c.Data).hashFixed(hh)
			field()
			hh.PutBytes(c.Signature[:])
		})
		return nil
	}
	indx := hh.Index()
	list := hh.Index()
	for _, i := range c.AttestingIndices {
		hh.AppendUint64(i)
	}
	hh.FillUpTo32()
	n := uint64(len(c.AttestingIndices))
	hh.MerkleizeWithMixin(list, n, ssz.CalculateLimit(uint64(c.limit), n, 8))
	orNew(c.Data).hashFixed(hh)
	hh.PutBytes(c.Signature[:])
	hh.Merkleize(indx)
	return nil
}

// The codecs of the presets' AggregateAndProof and SignedAggregateAndProof.
type (
	mainnetAggregate = aggregateAndProof[Attestation, *Attestation]
	minimalAggregate = aggregateAndProof[MinimalAttestation, *MinimalAttestation]
	phase0Aggregate  = aggregateAndProof[Phase0Attestation, *Phase0Attestation]
	gloasAggregate   = aggregateAndProof[GloasAttestation, *GloasAttestation]
	mGloasAggregate  = aggregateAndProof[MinimalGloasAttestation, *MinimalGloasAttestation]
	mainnetSigned    = signedAggregateAndProof[AggregateAndProof, *AggregateAndProof]
	minimalSigned    = signedAggregateAndProof[MinimalAggregateAndProof, *MinimalAggregateAndProof]
	phase0Signed     = signedAggregateAndProof[Phase0AggregateAndProof, *Phase0AggregateAndProof]
	gloasSigned      = signedAggregateAndProof[GloasAggregateAndProof, *GloasAggregateAndProof]
	mGloasSigned     = signedAggregateAndProof[MinimalGloasAggregateAndProof, *MinimalGloasAggregateAndProof]
)

// decodeInto decodes buf into *p, a new T where *p is nil.
func decodeInto[T any, P sszPointer[T]](p *P, buf []byte) error {
	if *p == nil {
		*p = new(T)
	}
	return (*p).UnmarshalSSZ(buf)
}

// aggregateAndProof has the fields of the AggregateAndProof of the preset
// whose attestation is A.
type aggregateAndProof[A any, P sszPointer[A]] struct {
	AggregatorIndex uint64
	Aggregate       P
	SelectionProof  [signatureSize]byte
}

// encode fails for a nil Aggregate, through the attestation's encoding.
func (a *aggregateAndProof[A, P]) encode(dst []byte) ([]byte, error) {
	dst = ssz.MarshalUint64(dst, a.AggregatorIndex)
	dst = ssz.WriteOffset(dst, aggregateFixedSize)
	dst = append(dst, a.SelectionProof[:]...)
	return a.Aggregate.MarshalSSZTo(dst)
}

func (a *aggregateAndProof[A, P]) decode(buf []byte) error {
	if err := variableOffset(buf, 8, aggregateFixedSize); err != nil {
		return err
	}
	a.AggregatorIndex = ssz.UnmarshallUint64(buf[0:8])
	a.SelectionProof = [signatureSize]byte(buf[8+offsetSize : aggregateFixedSize])
	return decodeInto(&a.Aggregate, buf[aggregateFixedSize:])
}

// size counts a nil Aggregate as a zero attestation.
func (a *aggregateAndProof[A, P]) size() int {
	return aggregateFixedSize + P(orNew[A](a.Aggregate)).SizeSSZ()
}

func (a *aggregateAndProof[A, P]) hash(hh ssz.HashWalker) error {
	indx := hh.Index()
	hh.PutUint64(a.AggregatorIndex)
	if err := a.Aggregate.HashTreeRootWith(hh); err != nil {
		return err
	}
	hh.PutBytes(a.SelectionProof[:])
	hh.Merkleize(indx)
	return nil
}

// signedAggregateAndProof has the fields of the SignedAggregateAndProof of
// the preset whose AggregateAndProof is M.
type signedAggregateAndProof[M any, P sszPointer[M]] struct {
	Message   P
	Signature [signatureSize]byte
}

// encode panics for a nil Message, as the encoding of a nil
// AggregateAndProof does.
func (s *signedAggregateAndProof[M, P]) encode(dst []byte) ([]byte, error) {
	return s.Message.MarshalSSZTo(append(ssz.WriteOffset(dst, signedFixedSize), s.Signature[:]...))
}

func (s *signedAggregateAndProof[M, P]) decode(buf []byte) error {
	if err := variableOffset(buf, 0, signedFixedSize); err != nil {
		return err
	}
	s.Signature = [signatureSize]byte(buf[offsetSize:signedFixedSize])
	return decodeInto(&s.Message, buf[signedFixedSize:])
}

// size counts a nil Message as a zero AggregateAndProof.
func (s *signedAggregateAndProof[M, P]) size() int {
	return signedFixedSize + P(orNew[M](s.Message)).SizeSSZ()
}

func (s *signedAggregateAndProof[M, P]) hash(hh ssz.HashWalker) error {
	indx := hh.Index()
	if err := s.Message.HashTreeRootWith(hh); err != nil {
		return err
	}
	hh.PutBytes(s.Signature[:])
	hh.Merkleize(indx)
	return nil
}

func (i *IndexedAttestation) codec() indexedCodec {
	return indexedCodec{(*indexedAttestation)(i), MaxValidatorsPerCommittee * MaxCommitteesPerSlot, "IndexedAttestation.AttestingIndices"}
}

func (i *MinimalIndexedAttestation) codec() indexedCodec {
	return indexedCodec{(*indexedAttestation)(i), MaxValidatorsPerCommittee * MinimalMaxCommitteesPerSlot, "MinimalIndexedAttestation.AttestingIndices"}
}

func (i *Phase0IndexedAttestation) codec() indexedCodec {
	return indexedCodec{(*indexedAttestation)(i), MaxValidatorsPerCommittee, "Phase0IndexedAttestation.AttestingIndices"}
}

func (i *GloasIndexedAttestation) codec() indexedCodec {
	return indexedCodec{(*indexedAttestation)(i), 0, "GloasIndexedAttestation.AttestingIndices"}
}

func (a *AggregateAndProof) codec() *mainnetAggregate { return (*mainnetAggregate)(a) }

func (a *MinimalAggregateAndProof) codec() *minimalAggregate { return (*minimalAggregate)(a) }

func (a *Phase0AggregateAndProof) codec() *phase0Aggregate { return (*phase0Aggregate)(a) }

func (a *GloasAggregateAndProof) codec() *gloasAggregate { return (*gloasAggregate)(a) }

func (a *MinimalGloasAggregateAndProof) codec() *mGloasAggregate { return (*mGloasAggregate)(a) }

func (s *SignedAggregateAndProof) codec() *mainnetSigned { return (*mainnetSigned)(s) }

func (s *MinimalSignedAggregateAndProof) codec() *minimalSigned { return (*minimalSigned)(s) }

func (s *Phase0SignedAggregateAndProof) codec() *phase0Signed { return (*phase0Signed)(s) }

func (s *GloasSignedAggregateAndProof) codec() *gloasSigned { return (*gloasSigned)(s) }

func (s *MinimalGloasSignedAggregateAndProof) codec() *mGloasSigned { return (*mGloasSigned)(s) }

// MarshalSSZ returns the SSZ encoding of i.
func (i *IndexedAttestation) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(i)
}

// MarshalSSZTo appends the SSZ encoding of i to buf.
func (i *IndexedAttestation) MarshalSSZTo(buf []byte) ([]byte, error) {
	return i.codec().encode(buf)
}

// UnmarshalSSZ sets i to the value encoded in buf.
func (i *IndexedAttestation) UnmarshalSSZ(buf []byte) error {
	return i.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of i.
func (i *IndexedAttestation) SizeSSZ() int {
	return i.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of i.
func (i *IndexedAttestation) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(i)
}

// HashTreeRootWith hashes i with hh.
func (i *IndexedAttestation) HashTreeRootWith(hh ssz.HashWalker) error {
	return i.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of i.
func (i *IndexedAttestation) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(i)
}

// MarshalSSZ returns the SSZ encoding of i.
func (i *MinimalIndexedAttestation) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(i)
}

// MarshalSSZTo appends the SSZ encoding of i to buf.
func (i *MinimalIndexedAttestation) MarshalSSZTo(buf []byte) ([]byte, error) {
	return i.codec().encode(buf)
}

// UnmarshalSSZ sets i to the value encoded in buf.
func (i *MinimalIndexedAttestation) UnmarshalSSZ(buf []byte) error {
	return i.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of i.
func (i *MinimalIndexedAttestation) SizeSSZ() int {
	return i.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of i.
func (i *MinimalIndexedAttestation) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(i)
}

// HashTreeRootWith hashes i with hh.
func (i *MinimalIndexedAttestation) HashTreeRootWith(hh ssz.HashWalker) error {
	return i.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of i.
func (i *MinimalIndexedAttestation) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(i)
}

// MarshalSSZ returns the SSZ encoding of i.
func (i *Phase0IndexedAttestation) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(i)
}

// MarshalSSZTo appends the SSZ encoding of i to buf.
func (i *Phase0IndexedAttestation) MarshalSSZTo(buf []byte) ([]byte, error) {
	return i.codec().encode(buf)
}

// UnmarshalSSZ sets i to the value encoded in buf.
func (i *Phase0IndexedAttestation) UnmarshalSSZ(buf []byte) error {
	return i.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of i.
func (i *Phase0IndexedAttestation) SizeSSZ() int {
	return i.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of i.
func (i *Phase0IndexedAttestation) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(i)
}

// HashTreeRootWith hashes i with hh.
func (i *Phase0IndexedAttestation) HashTreeRootWith(hh ssz.HashWalker) error {
	return i.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of i.
func (i *Phase0IndexedAttestation) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(i)
}

// MarshalSSZ returns the SSZ encoding of a.
func (a *AggregateAndProof) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(a)
}

// MarshalSSZTo appends the SSZ encoding of a to buf.
func (a *AggregateAndProof) MarshalSSZTo(buf []byte) ([]byte, error) {
	return a.codec().encode(buf)
}

// UnmarshalSSZ sets a to the value encoded in buf.
func (a *AggregateAndProof) UnmarshalSSZ(buf []byte) error {
	return a.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of a.
func (a *AggregateAndProof) SizeSSZ() int {
	return a.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of a.
func (a *AggregateAndProof) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(a)
}

// HashTreeRootWith hashes a with hh.
func (a *AggregateAndProof) HashTreeRootWith(hh ssz.HashWalker) error {
	return a.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of a.
func (a *AggregateAndProof) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(a)
}

// MarshalSSZ returns the SSZ encoding of a.
func (a *MinimalAggregateAndProof) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(a)
}

// MarshalSSZTo appends the SSZ encoding of a to buf.
func (a *MinimalAggregateAndProof) MarshalSSZTo(buf []byte) ([]byte, error) {
	return a.codec().encode(buf)
}

// UnmarshalSSZ sets a to the value encoded in buf.
func (a *MinimalAggregateAndProof) UnmarshalSSZ(buf []byte) error {
	return a.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of a.
func (a *MinimalAggregateAndProof) SizeSSZ() int {
	return a.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of a.
func (a *MinimalAggregateAndProof) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(a)
}

// HashTreeRootWith hashes a with hh.
func (a *MinimalAggregateAndProof) HashTreeRootWith(hh ssz.HashWalker) error {
	return a.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of a.
func (a *MinimalAggregateAndProof) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(a)
}

// MarshalSSZ returns the SSZ encoding of a.
func (a *Phase0AggregateAndProof) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(a)
}

// MarshalSSZTo appends the SSZ encoding of a to buf.
func (a *Phase0AggregateAndProof) MarshalSSZTo(buf []byte) ([]byte, error) {
	return a.codec().encode(buf)
}

// UnmarshalSSZ sets a to the value encoded in buf.
func (a *Phase0AggregateAndProof) UnmarshalSSZ(buf []byte) error {
	return a.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of a.
func (a *Phase0AggregateAndProof) SizeSSZ() int {
	return a.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of a.
func (a *Phase0AggregateAndProof) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(a)
}

// HashTreeRootWith hashes a with hh.
func (a *Phase0AggregateAndProof) HashTreeRootWith(hh ssz.HashWalker) error {
	return a.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of a.
func (a *Phase0AggregateAndProof) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(a)
}

// MarshalSSZ returns the SSZ encoding of s.
func (s *SignedAggregateAndProof) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(s)
}

// MarshalSSZTo appends the SSZ encoding of s to buf.
func (s *SignedAggregateAndProof) MarshalSSZTo(buf []byte) ([]byte, error) {
	return s.codec().encode(buf)
}

// UnmarshalSSZ sets s to the value encoded in buf.
func (s *SignedAggregateAndProof) UnmarshalSSZ(buf []byte) error {
	return s.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of s.
func (s *SignedAggregateAndProof) SizeSSZ() int {
	return s.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of s.
func (s *SignedAggregateAndProof) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(s)
}

// HashTreeRootWith hashes s with hh.
func (s *SignedAggregateAndProof) HashTreeRootWith(hh ssz.HashWalker) error {
	return s.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of s.
func (s *SignedAggregateAndProof) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(s)
}

// MarshalSSZ returns the SSZ encoding of s.
func (s *MinimalSignedAggregateAndProof) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(s)
}

// MarshalSSZTo appends the SSZ encoding of s to buf.
func (s *MinimalSignedAggregateAndProof) MarshalSSZTo(buf []byte) ([]byte, error) {
	return s.codec().encode(buf)
}

// UnmarshalSSZ sets s to the value encoded in buf.
func (s *MinimalSignedAggregateAndProof) UnmarshalSSZ(buf []byte) error {
	return s.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of s.
func (s *MinimalSignedAggregateAndProof) SizeSSZ() int {
	return s.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of s.
func (s *MinimalSignedAggregateAndProof) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(s)
}

// HashTreeRootWith hashes s with hh.
func (s *MinimalSignedAggregateAndProof) HashTreeRootWith(hh ssz.HashWalker) error {
	return s.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of s.
func (s *MinimalSignedAggregateAndProof) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(s)
}

// MarshalSSZ returns the SSZ encoding of s.
func (s *Phase0SignedAggregateAndProof) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(s)
}

// MarshalSSZTo appends the SSZ encoding of s to buf.
func (s *Phase0SignedAggregateAndProof) MarshalSSZTo(buf []byte) ([]byte, error) {
	return s.codec().encode(buf)
}

// UnmarshalSSZ sets s to the value encoded in buf.
func (s *Phase0SignedAggregateAndProof) UnmarshalSSZ(buf []byte) error {
	return s.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of s.
func (s *Phase0SignedAggregateAndProof) SizeSSZ() int {
	return s.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of s.
func (s *Phase0SignedAggregateAndProof) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(s)
}

// HashTreeRootWith hashes s with hh.
func (s *Phase0SignedAggregateAndProof) HashTreeRootWith(hh ssz.HashWalker) error {
	return s.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of s.
func (s *Phase0SignedAggregateAndProof) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(s)
}

// MarshalSSZ returns the SSZ encoding of i.
func (i *GloasIndexedAttestation) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(i)
}

// MarshalSSZTo appends the SSZ encoding of i to buf.
func (i *GloasIndexedAttestation) MarshalSSZTo(buf []byte) ([]byte, error) {
	return i.codec().encode(buf)
}

// UnmarshalSSZ sets i to the value encoded in buf.
func (i *GloasIndexedAttestation) UnmarshalSSZ(buf []byte) error {
	return i.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of i.
func (i *GloasIndexedAttestation) SizeSSZ() int {
	return i.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of i, as a progressive container.
func (i *GloasIndexedAttestation) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(i)
}

// HashTreeRootWith hashes i with hh.
func (i *GloasIndexedAttestation) HashTreeRootWith(hh ssz.HashWalker) error {
	return i.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of i.
func (i *GloasIndexedAttestation) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(i)
}

// MarshalSSZ returns the SSZ encoding of a.
func (a *GloasAggregateAndProof) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(a)
}

// MarshalSSZTo appends the SSZ encoding of a to buf.
func (a *GloasAggregateAndProof) MarshalSSZTo(buf []byte) ([]byte, error) {
	return a.codec().encode(buf)
}

// UnmarshalSSZ sets a to the value encoded in buf.
func (a *GloasAggregateAndProof) UnmarshalSSZ(buf []byte) error {
	return a.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of a.
func (a *GloasAggregateAndProof) SizeSSZ() int {
	return a.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of a, the root its aggregator signs
// (with the DOMAIN_AGGREGATE_AND_PROOF domain).
func (a *GloasAggregateAndProof) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(a)
}

// HashTreeRootWith hashes a with hh.
func (a *GloasAggregateAndProof) HashTreeRootWith(hh ssz.HashWalker) error {
	return a.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of a.
func (a *GloasAggregateAndProof) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(a)
}

// MarshalSSZ returns the SSZ encoding of a.
func (a *MinimalGloasAggregateAndProof) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(a)
}

// MarshalSSZTo appends the SSZ encoding of a to buf.
func (a *MinimalGloasAggregateAndProof) MarshalSSZTo(buf []byte) ([]byte, error) {
	return a.codec().encode(buf)
}

// UnmarshalSSZ sets a to the value encoded in buf.
func (a *MinimalGloasAggregateAndProof) UnmarshalSSZ(buf []byte) error {
	return a.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of a.
func (a *MinimalGloasAggregateAndProof) SizeSSZ() int {
	return a.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of a.
func (a *MinimalGloasAggregateAndProof) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(a)
}

// HashTreeRootWith hashes a with hh.
func (a *MinimalGloasAggregateAndProof) HashTreeRootWith(hh ssz.HashWalker) error {
	return a.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of a.
func (a *MinimalGloasAggregateAndProof) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(a)
}

// MarshalSSZ returns the SSZ encoding of s.
func (s *GloasSignedAggregateAndProof) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(s)
}

// MarshalSSZTo appends the SSZ encoding of s to buf.
func (s *GloasSignedAggregateAndProof) MarshalSSZTo(buf []byte) ([]byte, error) {
	return s.codec().encode(buf)
}

// UnmarshalSSZ sets s to the value encoded in buf.
func (s *GloasSignedAggregateAndProof) UnmarshalSSZ(buf []byte) error {
	return s.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of s.
func (s *GloasSignedAggregateAndProof) SizeSSZ() int {
	return s.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of s.
func (s *GloasSignedAggregateAndProof) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(s)
}

// HashTreeRootWith hashes s with hh.
func (s *GloasSignedAggregateAndProof) HashTreeRootWith(hh ssz.HashWalker) error {
	return s.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of s.
func (s *GloasSignedAggregateAndProof) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(s)
}

// MarshalSSZ returns the SSZ encoding of s.
func (s *MinimalGloasSignedAggregateAndProof) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(s)
}

// MarshalSSZTo appends the SSZ encoding of s to buf.
func (s *MinimalGloasSignedAggregateAndProof) MarshalSSZTo(buf []byte) ([]byte, error) {
	return s.codec().encode(buf)
}

// UnmarshalSSZ sets s to the value encoded in buf.
func (s *MinimalGloasSignedAggregateAndProof) UnmarshalSSZ(buf []byte) error {
	return s.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of s.
func (s *MinimalGloasSignedAggregateAndProof) SizeSSZ() int {
	return s.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of s.
func (s *MinimalGloasSignedAggregateAndProof) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(s)
}

// HashTreeRootWith hashes s with hh.
func (s *MinimalGloasSignedAggregateAndProof) HashTreeRootWith(hh ssz.HashWalker) error {
	return s.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of s.
func (s *MinimalGloasSignedAggregateAndProof) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(s)
}
