package attestation

import (
	"fmt"

	"github.com/prysmaticlabs/go-bitfield"
)

// Equal reports whether c and o are the same checkpoint. A nil Checkpoint
// equals the zero Checkpoint, as both have the same encoding and root.
func (c *Checkpoint) Equal(o *Checkpoint) bool {
	return *orNew(c) == *orNew(o)
}

// Equal reports whether d and o are the same attestation data, field by
// field. A nil AttestationData, Source or Target equals its zero value, as
// both have the same encoding and root; so Equal reports true exactly when
// the two hash tree roots are equal.
func (d *AttestationData) Equal(o *AttestationData) bool {
	d, o = orNew(d), orNew(o)
	return d.Slot == o.Slot &&
		d.Index == o.Index &&
		d.BeaconBlockRoot == o.BeaconBlockRoot &&
		d.Source.Equal(o.Source) &&
		d.Target.Equal(o.Target)
}

// Copy returns a deep copy of d, with non-nil Source and Target. Copy of a
// nil AttestationData is nil.
func (d *AttestationData) Copy() *AttestationData {
	if d == nil {
		return nil
	}
	c := *d
	c.Source, c.Target = new(Checkpoint), new(Checkpoint)
	if d.Source != nil {
		*c.Source = *d.Source
	}
	if d.Target != nil {
		*c.Target = *d.Target
	}
	return &c
}

// VersionAt returns the fork version that signs messages of epoch: the
// previous version before f.Epoch and the current version from it on, as in
// get_domain in the consensus specs.
func (f *Fork) VersionAt(epoch uint64) [4]byte {
	if epoch < f.Epoch {
		return f.PreviousVersion
	}
	return f.CurrentVersion
}

// singleBits returns the aggregation bits of a committee of committeeSize
// validators in which only position attested.
func singleBits(committeeSize, position uint64) (bitfield.Bitlist, error) {
	if committeeSize == 0 || committeeSize > MaxValidatorsPerCommittee {
		return nil, fmt.Errorf("%w: %d", ErrCommitteeSize, committeeSize)
	}
	if position >= committeeSize {
		return nil, fmt.Errorf("%w: position %d, committee size %d", ErrPositionOutOfRange, position, committeeSize)
	}
	bits := bitfield.NewBitlist(committeeSize)
	bits.SetBitAt(position, true)
	return bits, nil
}

// ToAttestation returns the mainnet Attestation equivalent to s: one
// committee (s.CommitteeIndex) set in CommitteeBits and, in AggregationBits,
// one bit at positionInCommittee in a bitlist of committeeSize bits. The
// caller gets committeeSize and positionInCommittee from the beacon state's
// committee for s.Data.Slot and s.CommitteeIndex, where s.AttesterIndex is
// found at positionInCommittee.
//
// The result has its own copy of s.Data. ToAttestation returns an error if
// s.CommitteeIndex is not below MaxCommitteesPerSlot, if committeeSize is 0
// or more than MaxValidatorsPerCommittee, or if positionInCommittee is not
// below committeeSize.
func (s *SingleAttestation) ToAttestation(committeeSize, positionInCommittee uint64) (*Attestation, error) {
	if s.CommitteeIndex >= MaxCommitteesPerSlot {
		return nil, fmt.Errorf("%w: %d", ErrCommitteeIndexOutOfRange, s.CommitteeIndex)
	}
	bits, err := singleBits(committeeSize, positionInCommittee)
	if err != nil {
		return nil, err
	}
	committees := bitfield.NewBitvector64()
	committees.SetBitAt(s.CommitteeIndex, true)
	return &Attestation{AggregationBits: bits, Data: s.Data.Copy(), Signature: s.Signature, CommitteeBits: committees}, nil
}

// ToMinimalAttestation is ToAttestation for the minimal preset, where
// s.CommitteeIndex must be below MinimalMaxCommitteesPerSlot: the mainnet
// attestation with CommitteeBits cut to the first byte, the Bitvector[4].
func (s *SingleAttestation) ToMinimalAttestation(committeeSize, positionInCommittee uint64) (*MinimalAttestation, error) {
	if s.CommitteeIndex >= MinimalMaxCommitteesPerSlot {
		return nil, fmt.Errorf("%w: %d", ErrCommitteeIndexOutOfRange, s.CommitteeIndex)
	}
	a, err := s.ToAttestation(committeeSize, positionInCommittee)
	if err != nil {
		return nil, err
	}
	committees := bitfield.Bitvector4(a.CommitteeBits[:1:1])
	return &MinimalAttestation{AggregationBits: a.AggregationBits, Data: a.Data, Signature: a.Signature, CommitteeBits: committees}, nil
}

// Gloas returns a as the AggregateAndProof of the Gloas fork on, which
// holds the Gloas Attestation: the same fields, sharing a's values (its
// Aggregate converted, not copied), so the same encoding. Its hash tree
// root is the one an aggregator signs from the Gloas fork on.
func (a *AggregateAndProof) Gloas() *GloasAggregateAndProof {
	return &GloasAggregateAndProof{AggregatorIndex: a.AggregatorIndex, Aggregate: (*GloasAttestation)(a.Aggregate), SelectionProof: a.SelectionProof}
}

// Gloas returns a as the minimal preset's AggregateAndProof of the Gloas
// fork on, as [AggregateAndProof.Gloas] does.
func (a *MinimalAggregateAndProof) Gloas() *MinimalGloasAggregateAndProof {
	return &MinimalGloasAggregateAndProof{AggregatorIndex: a.AggregatorIndex, Aggregate: (*MinimalGloasAttestation)(a.Aggregate), SelectionProof: a.SelectionProof}
}
