package attestation

import (
	"bytes"
	"fmt"

	ssz "github.com/ferranbt/fastssz"
)

// The SSZ methods of the Gloas containers. Besides the encoding:
//
//   - PayloadAttestationData.UnmarshalSSZ rejects a boolean byte other than
//     0 or 1 (fastssz's UnmarshalBool decodes it as false, so the value
//     would not re-encode to the same bytes); PayloadAttestationMessage and
//     PayloadAttestation decode their Data through it;
//   - PayloadAttestation hashes as the progressive container (EIP-7495) the
//     specs declare;
//   - PayloadAttestation decodes into a fresh value and leaves the receiver
//     unchanged on error, and rejects AggregationBits of a length other
//     than 64 bytes with ErrInvalidAggregationBits.

const (
	payloadAttestationDataSize    = 32 + 8 + 1 + 1
	payloadAttestationMessageSize = 8 + payloadAttestationDataSize + signatureSize
	payloadAttestationSize        = PTCSize/8 + payloadAttestationDataSize + signatureSize
)

func (d *PayloadAttestationData) encodeFixed(dst []byte) []byte {
	dst = append(dst, d.BeaconBlockRoot[:]...)
	dst = ssz.MarshalUint64(dst, d.Slot)
	dst = ssz.MarshalBool(dst, d.PayloadPresent)
	return ssz.MarshalBool(dst, d.BlobDataAvailable)
}

// decodeFixed leaves d unchanged on error.
func (d *PayloadAttestationData) decodeFixed(buf []byte) error {
	for _, b := range buf[40:42] {
		if b > 1 {
			return fmt.Errorf("%w: boolean byte %#x", ErrInvalidBoolean, b)
		}
	}
	d.BeaconBlockRoot, d.Slot = [32]byte(buf[0:32]), ssz.UnmarshallUint64(buf[32:40])
	d.PayloadPresent, d.BlobDataAvailable = buf[40] == 1, buf[41] == 1
	return nil
}

func (d *PayloadAttestationData) hashFixed(hh ssz.HashWalker) {
	indx := hh.Index()
	hh.PutBytes(d.BeaconBlockRoot[:])
	hh.PutUint64(d.Slot)
	hh.PutBool(d.PayloadPresent)
	hh.PutBool(d.BlobDataAvailable)
	hh.Merkleize(indx)
}

func (m *PayloadAttestationMessage) encodeFixed(dst []byte) []byte {
	dst = ssz.MarshalUint64(dst, m.ValidatorIndex)
	dst = orNew(m.Data).encodeFixed(dst)
	return append(dst, m.Signature[:]...)
}

func (m *PayloadAttestationMessage) decodeFixed(buf []byte) error {
	m.Data = orNew(m.Data)
	if err := m.Data.decodeFixed(buf[8 : 8+payloadAttestationDataSize]); err != nil {
		return err
	}
	m.ValidatorIndex = ssz.UnmarshallUint64(buf[0:8])
	m.Signature = [signatureSize]byte(buf[8+payloadAttestationDataSize:])
	return nil
}

func (m *PayloadAttestationMessage) hashFixed(hh ssz.HashWalker) {
	indx := hh.Index()
	hh.PutUint64(m.ValidatorIndex)
	orNew(m.Data).hashFixed(hh)
	hh.PutBytes(m.Signature[:])
	hh.Merkleize(indx)
}

func (d *PayloadAttestationData) codec() fixed[*PayloadAttestationData] {
	return fixedOf(d, payloadAttestationDataSize)
}

func (m *PayloadAttestationMessage) codec() fixed[*PayloadAttestationMessage] {
	return fixedOf(m, payloadAttestationMessageSize)
}

// MarshalSSZ returns the SSZ encoding of d.
func (d *PayloadAttestationData) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(d)
}

// MarshalSSZTo appends the SSZ encoding of d to buf.
func (d *PayloadAttestationData) MarshalSSZTo(buf []byte) ([]byte, error) {
	return d.codec().encode(buf)
}

// UnmarshalSSZ sets d to the value encoded in buf. On error d is unchanged.
func (d *PayloadAttestationData) UnmarshalSSZ(buf []byte) error {
	return d.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of d (42 bytes).
func (d *PayloadAttestationData) SizeSSZ() int {
	return d.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of d, the root that PTC
// members sign (with the DOMAIN_PTC_ATTESTER domain).
func (d *PayloadAttestationData) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(d)
}

// HashTreeRootWith hashes d with hh.
func (d *PayloadAttestationData) HashTreeRootWith(hh ssz.HashWalker) error {
	return d.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of d.
func (d *PayloadAttestationData) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(d)
}

// MarshalSSZ returns the SSZ encoding of m.
func (m *PayloadAttestationMessage) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(m)
}

// MarshalSSZTo appends the SSZ encoding of m to buf.
func (m *PayloadAttestationMessage) MarshalSSZTo(buf []byte) ([]byte, error) {
	return m.codec().encode(buf)
}

// UnmarshalSSZ sets m to the value encoded in buf.
func (m *PayloadAttestationMessage) UnmarshalSSZ(buf []byte) error {
	return m.codec().decode(buf)
}

// SizeSSZ returns the size of the SSZ encoding of m (146 bytes).
func (m *PayloadAttestationMessage) SizeSSZ() int {
	return m.codec().size()
}

// HashTreeRoot returns the SSZ hash tree root of m.
func (m *PayloadAttestationMessage) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(m)
}

// HashTreeRootWith hashes m with hh.
func (m *PayloadAttestationMessage) HashTreeRootWith(hh ssz.HashWalker) error {
	return m.codec().hash(hh)
}

// GetTree returns the SSZ Merkle tree of m.
func (m *PayloadAttestationMessage) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(m)
}

// validate reports whether a can be encoded and hashed.
func (a *PayloadAttestation) validate() error {
	if a == nil {
		return ErrNilAttestation
	}
	if n := len(a.AggregationBits); n != PTCSize/8 {
		return fmt.Errorf("%w: %d bytes, want %d", ErrInvalidAggregationBits, n, PTCSize/8)
	}
	return nil
}

// MarshalSSZ returns the SSZ encoding of a.
func (a *PayloadAttestation) MarshalSSZ() ([]byte, error) {
	return ssz.MarshalSSZ(a)
}

// MarshalSSZTo appends the SSZ encoding of a to buf.
func (a *PayloadAttestation) MarshalSSZTo(buf []byte) ([]byte, error) {
	if err := a.validate(); err != nil {
		return buf, err
	}
	buf = append(buf, a.AggregationBits...)
	buf = orNew(a.Data).encodeFixed(buf)
	return append(buf, a.Signature[:]...), nil
}

// UnmarshalSSZ sets a to the value encoded in buf. On error a is unchanged.
func (a *PayloadAttestation) UnmarshalSSZ(buf []byte) error {
	if len(buf) != payloadAttestationSize {
		return ssz.ErrSize
	}
	data := new(PayloadAttestationData)
	if err := data.decodeFixed(buf[PTCSize/8 : PTCSize/8+payloadAttestationDataSize]); err != nil {
		return err
	}
	*a = PayloadAttestation{
		AggregationBits: bytes.Clone(buf[:PTCSize/8]),
		Data:            data,
		Signature:       [signatureSize]byte(buf[PTCSize/8+payloadAttestationDataSize:]),
	}
	return nil
}

// SizeSSZ returns the size of the SSZ encoding of a (202 bytes); 0 for a
// nil a.
func (a *PayloadAttestation) SizeSSZ() int {
	if a == nil {
		return 0
	}
	return payloadAttestationSize
}

// HashTreeRoot returns the SSZ hash tree root of a.
func (a *PayloadAttestation) HashTreeRoot() ([32]byte, error) {
	return ssz.HashWithDefaultHasher(a)
}

// payloadAttestationActiveFields is pack_bits(active_fields) of
// PayloadAttestation, whose active_fields are [1, 1, 1].
const payloadAttestationActiveFields = 0b111

// HashTreeRootWith hashes a with hh as the specs' progressive container
// with active_fields [1, 1, 1]:
//
//	mix_in_active_fields(merkleize_progressive([r0, r1, r2]), [1, 1, 1])
//	  = hash(hash(r0, hash(merkleize([r1, r2], 4), Bytes32())), pack_bits([1, 1, 1]))
//
// where r0, r1 and r2 are the roots of AggregationBits, Data and Signature.
func (a *PayloadAttestation) HashTreeRootWith(hh ssz.HashWalker) error {
	if err := a.validate(); err != nil {
		return err
	}
	data := orNew(a.Data)
	var zero [32]byte
	top := hh.Index()
	hh.PutBytes(a.AggregationBits) // r0: the first subtree holds one leaf
	rest := hh.Index()
	second := hh.Index()
	data.hashFixed(hh)
	hh.PutBytes(a.Signature[:])
	hh.AppendBytes32(zero[:]) // the second subtree holds 4 leaves
	hh.AppendBytes32(zero[:])
	hh.Merkleize(second)
	hh.AppendBytes32(zero[:]) // merkleize_progressive of no more chunks
	hh.Merkleize(rest)
	hh.Merkleize(top)
	hh.PutUint64(payloadAttestationActiveFields)
	hh.Merkleize(top)
	return nil
}

// GetTree returns the SSZ Merkle tree of a.
func (a *PayloadAttestation) GetTree() (*ssz.Node, error) {
	return ssz.ProofTree(a)
}
