package interop_test

import (
	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
)

// Random attpool values: every field random, with the edge values of each
// kind (zero, the largest, a list at its limit, a bitlist whose length bit
// starts a new byte) drawn often.

func (g *gen) uint64() uint64 {
	switch g.IntN(8) {
	case 0:
		return 0
	case 1:
		return ^uint64(0)
	case 2:
		return uint64(g.IntN(1 << 16))
	default:
		return g.Uint64()
	}
}

func (g *gen) fill(b []byte) {
	switch g.IntN(8) {
	case 0:
		clear(b)
	case 1:
		for i := range b {
			b[i] = 0xff
		}
	default:
		g.read(b)
	}
}

func (g *gen) root() (r [32]byte)      { g.fill(r[:]); return r }
func (g *gen) signature() (s [96]byte) { g.fill(s[:]); return s }
func (g *gen) version() (v [4]byte)    { g.fill(v[:]); return v }
func (g *gen) bool() bool              { return g.IntN(2) == 1 }

// length returns a length in [0, limit]: mostly up to a committee's size,
// with the ends and the neighbourhood of a byte boundary drawn often. A
// length near the limit is drawn 3 times in 32, so that lists of 131072
// indices (1 MiB) stay a small share of the run time.
func (g *gen) length(limit int) int {
	switch g.IntN(32) {
	case 0:
		return 0
	case 1:
		return limit
	case 2:
		return max(limit-1-g.IntN(8), 0)
	case 3:
		return g.IntN(limit + 1)
	case 4, 5:
		return 8 * g.IntN(min(limit, 2048)/8+1) // the length bit in a byte of its own
	default:
		return g.IntN(min(limit, 2048) + 1) // a committee's worth
	}
}

// bitlist returns a bitlist of n random bits and its length bit.
func (g *gen) bitlist(n int) bitfield.Bitlist {
	b := make([]byte, n/8+1)
	g.fill(b)
	if r := n % 8; r != 0 {
		b[n/8] &= 1<<r - 1
	} else {
		b[n/8] = 0
	}
	b[n/8] |= 1 << (n % 8)
	return b
}

// bitvector returns nbits random bits in whole bytes, the bits past nbits
// zero.
func (g *gen) bitvector(nbits int) []byte {
	b := make([]byte, (nbits+7)/8)
	g.fill(b)
	if r := nbits % 8; r != 0 {
		b[len(b)-1] &= 1<<r - 1
	}
	return b
}

func (g *gen) checkpoint() *attestation.Checkpoint {
	return &attestation.Checkpoint{Epoch: g.uint64(), Root: g.root()}
}

func (g *gen) fork() *attestation.Fork {
	return &attestation.Fork{PreviousVersion: g.version(), CurrentVersion: g.version(), Epoch: g.uint64()}
}

func (g *gen) attestationData() *attestation.AttestationData {
	return &attestation.AttestationData{
		Slot: g.uint64(), Index: g.uint64(), BeaconBlockRoot: g.root(),
		Source: g.checkpoint(), Target: g.checkpoint(),
	}
}

func (g *gen) singleAttestation() *attestation.SingleAttestation {
	return &attestation.SingleAttestation{
		CommitteeIndex: g.uint64(), AttesterIndex: g.uint64(),
		Data: g.attestationData(), Signature: g.signature(),
	}
}

func (g *gen) attestation() *attestation.Attestation {
	return &attestation.Attestation{
		AggregationBits: g.bitlist(g.length(attestation.MaxValidatorsPerCommittee * attestation.MaxCommitteesPerSlot)),
		Data:            g.attestationData(),
		Signature:       g.signature(),
		CommitteeBits:   g.bitvector(attestation.MaxCommitteesPerSlot),
	}
}

func (g *gen) minimalAttestation() *attestation.MinimalAttestation {
	return &attestation.MinimalAttestation{
		AggregationBits: g.bitlist(g.length(attestation.MaxValidatorsPerCommittee * attestation.MinimalMaxCommitteesPerSlot)),
		Data:            g.attestationData(),
		Signature:       g.signature(),
		CommitteeBits:   g.bitvector(attestation.MinimalMaxCommitteesPerSlot),
	}
}

func (g *gen) phase0Attestation() *attestation.Phase0Attestation {
	return &attestation.Phase0Attestation{
		AggregationBits: g.bitlist(g.length(attestation.MaxValidatorsPerCommittee)),
		Data:            g.attestationData(),
		Signature:       g.signature(),
	}
}

func (g *gen) indices(limit int) []uint64 {
	v := make([]uint64, g.length(limit))
	for i := range v {
		v[i] = g.uint64()
	}
	return v
}

func (g *gen) indexedAttestation() *attestation.IndexedAttestation {
	return &attestation.IndexedAttestation{
		AttestingIndices: g.indices(attestation.MaxValidatorsPerCommittee * attestation.MaxCommitteesPerSlot),
		Data:             g.attestationData(),
		Signature:        g.signature(),
	}
}

func (g *gen) minimalIndexedAttestation() *attestation.MinimalIndexedAttestation {
	return &attestation.MinimalIndexedAttestation{
		AttestingIndices: g.indices(attestation.MaxValidatorsPerCommittee * attestation.MinimalMaxCommitteesPerSlot),
		Data:             g.attestationData(),
		Signature:        g.signature(),
	}
}

func (g *gen) phase0IndexedAttestation() *attestation.Phase0IndexedAttestation {
	return &attestation.Phase0IndexedAttestation{
		AttestingIndices: g.indices(attestation.MaxValidatorsPerCommittee),
		Data:             g.attestationData(),
		Signature:        g.signature(),
	}
}

func (g *gen) aggregateAndProof() *attestation.AggregateAndProof {
	return &attestation.AggregateAndProof{AggregatorIndex: g.uint64(), Aggregate: g.attestation(), SelectionProof: g.signature()}
}

func (g *gen) minimalAggregateAndProof() *attestation.MinimalAggregateAndProof {
	return &attestation.MinimalAggregateAndProof{AggregatorIndex: g.uint64(), Aggregate: g.minimalAttestation(), SelectionProof: g.signature()}
}

func (g *gen) phase0AggregateAndProof() *attestation.Phase0AggregateAndProof {
	return &attestation.Phase0AggregateAndProof{AggregatorIndex: g.uint64(), Aggregate: g.phase0Attestation(), SelectionProof: g.signature()}
}

func (g *gen) signedAggregateAndProof() *attestation.SignedAggregateAndProof {
	return &attestation.SignedAggregateAndProof{Message: g.aggregateAndProof(), Signature: g.signature()}
}

func (g *gen) minimalSignedAggregateAndProof() *attestation.MinimalSignedAggregateAndProof {
	return &attestation.MinimalSignedAggregateAndProof{Message: g.minimalAggregateAndProof(), Signature: g.signature()}
}

func (g *gen) phase0SignedAggregateAndProof() *attestation.Phase0SignedAggregateAndProof {
	return &attestation.Phase0SignedAggregateAndProof{Message: g.phase0AggregateAndProof(), Signature: g.signature()}
}

func (g *gen) payloadAttestationData() *attestation.PayloadAttestationData {
	return &attestation.PayloadAttestationData{
		BeaconBlockRoot: g.root(), Slot: g.uint64(),
		PayloadPresent: g.bool(), BlobDataAvailable: g.bool(),
	}
}

func (g *gen) payloadAttestationMessage() *attestation.PayloadAttestationMessage {
	return &attestation.PayloadAttestationMessage{
		ValidatorIndex: g.uint64(), Data: g.payloadAttestationData(), Signature: g.signature(),
	}
}

func (g *gen) payloadAttestation() *attestation.PayloadAttestation {
	return &attestation.PayloadAttestation{
		AggregationBits: g.bitvector(attestation.PTCSize),
		Data:            g.payloadAttestationData(),
		Signature:       g.signature(),
	}
}
