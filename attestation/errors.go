package attestation

import "errors"

// Errors returned by this package. Returned errors wrap them and can be
// tested with errors.Is.
//
// Decoding errors of the SSZ structure (wrong sizes, bad offsets, a bitlist
// without its length bit or over its limit, too many list elements) are
// returned as fastssz reports them (its ErrSize, ErrOffset, ...); the
// errors below are for the checks this package adds, then for its helpers.
var (
	// ErrInvalidAggregationBits is returned when encoding or hashing an
	// attestation whose AggregationBits is not a valid SSZ bitlist: empty,
	// with no length bit, or longer than the preset's limit (or, for a
	// PayloadAttestation, not the 64 bytes of its Bitvector[PTC_SIZE]).
	ErrInvalidAggregationBits = errors.New("attpool/attestation: invalid aggregation bits")
	// ErrInvalidCommitteeBits is returned when CommitteeBits does not have
	// the size of its bitvector, or has bits set past its length.
	ErrInvalidCommitteeBits = errors.New("attpool/attestation: invalid committee bits")
	// ErrNilAttestation is returned when encoding or hashing a nil
	// attestation, for example the nil Aggregate of an AggregateAndProof.
	ErrNilAttestation = errors.New("attpool/attestation: nil attestation")
	// ErrInvalidBoolean is returned when decoding an SSZ boolean byte other
	// than 0 or 1 (the Gloas PayloadAttestationData's flags).
	ErrInvalidBoolean = errors.New("attpool/attestation: invalid boolean")
)

// Errors of the conversions from SingleAttestation.
var (
	// ErrCommitteeIndexOutOfRange is returned when a committee index is not
	// below the preset's MAX_COMMITTEES_PER_SLOT.
	ErrCommitteeIndexOutOfRange = errors.New("attpool/attestation: committee index out of range")
	// ErrCommitteeSize is returned for a committee size of 0 or more than
	// MaxValidatorsPerCommittee.
	ErrCommitteeSize = errors.New("attpool/attestation: invalid committee size")
	// ErrPositionOutOfRange is returned when a validator's position in its
	// committee is not below the committee size.
	ErrPositionOutOfRange = errors.New("attpool/attestation: position out of range of committee")
)
