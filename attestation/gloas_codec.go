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
//   - PayloadAttestation and MinimalPayloadAttestation (one codec, told
//     PTC_SIZE) hash as the progressive container (EIP-7495) the specs
//     declare;
//   - they decode into fresh values and leave the receiver unchanged on
//     error; PayloadAttestation rejects AggregationBits of a length other
//     than 64 bytes with ErrInvalidAggregationBits.

const (
	payloadAttestationDataSize    = 32 + 8 + 1 + 1
	payloadAttestationMessageSize = 8 + payloadAttestationDataSize + signatureSize
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

//ssz:doc UnmarshalSSZ sets d to the value encoded in buf. On error d is unchanged.
//ssz:doc SizeSSZ returns the size of the SSZ encoding of d (42 bytes).
//ssz:doc HashTreeRoot returns the SSZ hash tree root of d, the root that PTC members sign (with the DOMAIN_PTC_ATTESTER domain).
func (d *PayloadAttestationData) codec() fixed[*PayloadAttestationData] {
	return fixedOf(d, payloadAttestationDataSize)
}

//ssz:doc SizeSSZ returns the size of the SSZ encoding of m (146 bytes).
func (m *PayloadAttestationMessage) codec() fixed[*PayloadAttestationMessage] {
	return fixedOf(m, payloadAttestationMessageSize)
}

// payloadAttestationCodec encodes the PayloadAttestation of a preset whose
// AggregationBits is nbytes long; bits is nil for a nil attestation.
type payloadAttestationCodec struct {
	nbytes int
	bits   []byte
	data   **PayloadAttestationData
	sig    *[signatureSize]byte
}

func (c payloadAttestationCodec) size() int {
	return c.nbytes + payloadAttestationDataSize + signatureSize
}

// validate reports whether c's attestation can be encoded and hashed.
func (c payloadAttestationCodec) validate() error {
	if c.data == nil {
		return ErrNilAttestation
	}
	if n := len(c.bits); n != c.nbytes {
		return fmt.Errorf("%w: %d bytes, want %d", ErrInvalidAggregationBits, n, c.nbytes)
	}
	return nil
}

func (c payloadAttestationCodec) encode(buf []byte) ([]byte, error) {
	if err := c.validate(); err != nil {
		return buf, err
	}
	buf = append(buf, c.bits...)
	buf = orNew(*c.data).encodeFixed(buf)
	return append(buf, c.sig[:]...), nil
}

// decode returns the fields encoded in buf, in fresh values.
func (c payloadAttestationCodec) decode(buf []byte) (bits []byte, data *PayloadAttestationData, sig [signatureSize]byte, err error) {
	if len(buf) != c.size() {
		return nil, nil, sig, ssz.ErrSize
	}
	data = new(PayloadAttestationData)
	if err := data.decodeFixed(buf[c.nbytes : c.nbytes+payloadAttestationDataSize]); err != nil {
		return nil, nil, sig, err
	}
	return bytes.Clone(buf[:c.nbytes]), data, [signatureSize]byte(buf[c.nbytes+payloadAttestationDataSize:]), nil
}

// hash hashes c's attestation as the specs' progressive container with
// active_fields [1, 1, 1]:
//
//	mix_in_active_fields(merkleize_progressive([r0, r1, r2]), [1, 1, 1])
//	  = hash(hash(r0, hash(merkleize([r1, r2], 4), Bytes32())), pack_bits([1, 1, 1]))
//
// where r0, r1 and r2 are the roots of AggregationBits (a Bitvector),
// Data and Signature.
func (c payloadAttestationCodec) hash(hh ssz.HashWalker) error {
	if err := c.validate(); err != nil {
		return err
	}
	progressiveContainer(hh, 3, func(field func()) {
		field()
		hh.PutBytes(c.bits)
		field()
		orNew(*c.data).hashFixed(hh)
		field()
		hh.PutBytes(c.sig[:])
	})
	return nil
}

//ssz:doc HashTreeRootWith hashes a with hh, as a progressive container.
func (a *PayloadAttestation) codec() payloadAttestationCodec {
	if a == nil {
		return payloadAttestationCodec{nbytes: PTCSize / 8}
	}
	return payloadAttestationCodec{PTCSize / 8, a.AggregationBits, &a.Data, &a.Signature}
}

//ssz:doc HashTreeRootWith hashes a with hh, as a progressive container.
func (a *MinimalPayloadAttestation) codec() payloadAttestationCodec {
	if a == nil {
		return payloadAttestationCodec{nbytes: MinimalPTCSize / 8}
	}
	return payloadAttestationCodec{MinimalPTCSize / 8, a.AggregationBits[:], &a.Data, &a.Signature}
}

// UnmarshalSSZ sets a to the value encoded in buf. On error a is unchanged.
func (a *PayloadAttestation) UnmarshalSSZ(buf []byte) error {
	bits, data, sig, err := a.codec().decode(buf)
	if err == nil {
		*a = PayloadAttestation{AggregationBits: bits, Data: data, Signature: sig}
	}
	return err
}

// SizeSSZ returns the size of the SSZ encoding of a (202 bytes); 0 for a
// nil a.
func (a *PayloadAttestation) SizeSSZ() int {
	if a == nil {
		return 0
	}
	return a.codec().size()
}

// UnmarshalSSZ sets a to the value encoded in buf. On error a is unchanged.
func (a *MinimalPayloadAttestation) UnmarshalSSZ(buf []byte) error {
	bits, data, sig, err := a.codec().decode(buf)
	if err == nil {
		*a = MinimalPayloadAttestation{AggregationBits: [MinimalPTCSize / 8]byte(bits), Data: data, Signature: sig}
	}
	return err
}

// SizeSSZ returns the size of the SSZ encoding of a (140 bytes); 0 for a
// nil a.
func (a *MinimalPayloadAttestation) SizeSSZ() int {
	if a == nil {
		return 0
	}
	return a.codec().size()
}
