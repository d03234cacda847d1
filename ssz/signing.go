package ssz

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"

	fastssz "github.com/ferranbt/fastssz"
)

// Root is a 32-byte SSZ hash tree root (Root in the consensus specs).
type Root [32]byte

// Domain is a 32-byte signature domain (Domain in the consensus specs): a
// DomainType followed by the first 28 bytes of a fork data root.
type Domain [32]byte

// DomainType is the 4-byte prefix of a Domain that says what kind of message
// is signed (DomainType in the consensus specs).
type DomainType [4]byte

// Version is a 4-byte fork version (Version in the consensus specs).
type Version [4]byte

// Domain types used by attestations and aggregates, as defined in the
// phase0 consensus specs. They are unchanged through Electra and Fulu.
var (
	// DomainBeaconAttester (0x01000000) is the domain type of attestations
	// (AttestationData signatures).
	DomainBeaconAttester = DomainType{0x01, 0x00, 0x00, 0x00}
	// DomainSelectionProof (0x05000000) is the domain type of the
	// aggregator selection proof, which signs the slot.
	DomainSelectionProof = DomainType{0x05, 0x00, 0x00, 0x00}
	// DomainAggregateAndProof (0x06000000) is the domain type of
	// SignedAggregateAndProof signatures.
	DomainAggregateAndProof = DomainType{0x06, 0x00, 0x00, 0x00}
	// DomainPTCAttester (0x0C000000) is the Gloas domain type of payload
	// attestations (PayloadAttestationData signatures of the PTC).
	DomainPTCAttester = DomainType{0x0C, 0x00, 0x00, 0x00}
)

// Errors returned by this package. Returned errors wrap them and can be
// tested with errors.Is.
var (
	// ErrNilObject is returned when the object to hash is nil.
	ErrNilObject = errors.New("attpool/ssz: nil object")
	// ErrHashTreeRoot is returned when an object's hash tree root could not
	// be computed.
	ErrHashTreeRoot = errors.New("attpool/ssz: cannot compute hash tree root")
)

// ComputeForkDataRoot returns the hash tree root of
// ForkData{currentVersion, genesisValidatorsRoot}, as compute_fork_data_root
// in the consensus specs.
func ComputeForkDataRoot(currentVersion Version, genesisValidatorsRoot Root) (Root, error) {
	fd := ForkData{CurrentVersion: currentVersion, GenesisValidatorsRoot: genesisValidatorsRoot}
	r, err := fd.HashTreeRoot()
	if err != nil {
		return Root{}, fmt.Errorf("%w: ForkData: %w", ErrHashTreeRoot, err)
	}
	return r, nil
}

// ComputeDomain returns the domain for domainType on the chain with the
// given genesis validators root at fork version forkVersion, as
// compute_domain in the consensus specs: the domain type followed by the
// first 28 bytes of the fork data root.
//
// Attestations and aggregates use the fork version of the epoch of the
// message, and the chain's genesis validators root.
func ComputeDomain(domainType DomainType, forkVersion Version, genesisValidatorsRoot Root) (Domain, error) {
	forkDataRoot, err := ComputeForkDataRoot(forkVersion, genesisValidatorsRoot)
	if err != nil {
		return Domain{}, err
	}
	var d Domain
	copy(d[:4], domainType[:])
	copy(d[4:], forkDataRoot[:28])
	return d, nil
}

// ComputeSigningRoot returns the signing root of obj in domain, as
// compute_signing_root in the consensus specs: the hash tree root of
// SigningData{hash_tree_root(obj), domain}.
//
// obj must not be nil (nor a nil pointer); if it is, ComputeSigningRoot
// returns an error wrapping ErrNilObject.
func ComputeSigningRoot(obj fastssz.HashRoot, domain Domain) (Root, error) {
	if obj == nil {
		return Root{}, ErrNilObject
	}
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.IsNil() {
		return Root{}, fmt.Errorf("%w: %T", ErrNilObject, obj)
	}
	objectRoot, err := obj.HashTreeRoot()
	if err != nil {
		return Root{}, fmt.Errorf("%w: %T: %w", ErrHashTreeRoot, obj, err)
	}
	return ComputeSigningRootFromRoot(objectRoot, domain), nil
}

// ComputeSigningRootFromRoot returns the signing root of an object whose hash
// tree root is objectRoot, in domain. It is ComputeSigningRoot for callers
// that already have the object's root, for example when the same
// AttestationData is checked against many signatures.
func ComputeSigningRootFromRoot(objectRoot Root, domain Domain) Root {
	// SigningData has two 32-byte fields, so its hash tree root is the
	// SHA-256 of the two fields concatenated.
	var buf [64]byte
	copy(buf[:32], objectRoot[:])
	copy(buf[32:], domain[:])
	return sha256.Sum256(buf[:])
}

// HashTreeRootUint64 returns the hash tree root of v as an SSZ uint64: v in
// little-endian order, padded with zeros to 32 bytes. An aggregator's
// selection proof signs the hash tree root of the slot:
//
//	root := ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(slot), domain)
func HashTreeRootUint64(v uint64) Root {
	var r Root
	binary.LittleEndian.PutUint64(r[:8], v)
	return r
}
