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

//ssz:doc HashTreeRoot returns the SSZ hash tree root of i, as a progressive container.
func (i *GloasIndexedAttestation) codec() indexedCodec {
	return indexedCodec{(*indexedAttestation)(i), 0, "GloasIndexedAttestation.AttestingIndices"}
}

func (a *AggregateAndProof) codec() *mainnetAggregate { return (*mainnetAggregate)(a) }

func (a *MinimalAggregateAndProof) codec() *minimalAggregate { return (*minimalAggregate)(a) }

func (a *Phase0AggregateAndProof) codec() *phase0Aggregate { return (*phase0Aggregate)(a) }

//ssz:doc HashTreeRoot returns the SSZ hash tree root of a, the root its aggregator signs (with the DOMAIN_AGGREGATE_AND_PROOF domain).
func (a *GloasAggregateAndProof) codec() *gloasAggregate { return (*gloasAggregate)(a) }

func (a *MinimalGloasAggregateAndProof) codec() *mGloasAggregate { return (*mGloasAggregate)(a) }

func (s *SignedAggregateAndProof) codec() *mainnetSigned { return (*mainnetSigned)(s) }

func (s *MinimalSignedAggregateAndProof) codec() *minimalSigned { return (*minimalSigned)(s) }

func (s *Phase0SignedAggregateAndProof) codec() *phase0Signed { return (*phase0Signed)(s) }

func (s *GloasSignedAggregateAndProof) codec() *gloasSigned { return (*gloasSigned)(s) }

func (s *MinimalGloasSignedAggregateAndProof) codec() *mGloasSigned { return (*mGloasSigned)(s) }
