package interop_test

import (
	"errors"
	"testing"

	"github.com/attestantio/go-eth2-client/spec/electra"
	"github.com/attestantio/go-eth2-client/spec/gloas"
	"github.com/attestantio/go-eth2-client/spec/phase0"

	"github.com/attpool/attpool/attestation"
)

// checker is a pair of any container types.
type checker interface {
	label() string
	run(t *testing.T, s seeds, n int) *tally
}

func (p pair[A, E]) label() string { return p.name }

// Sizes of the fixed parts, as the specs' containers lay them out: the
// attestation's (offset, data, signature, committee bits), the
// AggregateAndProof's (index, offset, selection proof) and the
// SignedAggregateAndProof's (offset, signature).
const (
	dataSize          = 8 + 8 + 32 + 2*(8+32)
	phase0AttFixed    = 4 + dataSize + 96
	mainnetAttFixed   = phase0AttFixed + 8
	minimalAttFixed   = phase0AttFixed + 1
	aggregateFixed    = 8 + 4 + 96
	signedFixed       = 4 + 96
	aggregateInSigned = signedFixed
	attInAggregate    = aggregateFixed
	attInSigned       = signedFixed + aggregateFixed
)

// attestationLayout is the layout of an attestation at position at in an
// encoding, with bits bitlist bytes at the end and the preset's fixed size
// and limit; minimal presets pad their Bitvector[4].
func attestationLayout(outer []offsetAt, at, fixed, bits, limit int) layout {
	l := layout{offsets: append(outer, offsetAt{at, fixed}), tail: bits, tailLimit: limit, padded: -1}
	if fixed == minimalAttFixed {
		l.padded, l.paddedFrom = at+fixed-1, 4
	}
	return l
}

func indexedLayout(n, limit int) layout {
	return layout{offsets: []offsetAt{{0, phase0AttFixed}}, tail: 8 * n, tailLimit: limit, indices: true, padded: -1}
}

// fixedMutations is the malformed function of a fixed-size container.
func fixedMutations[A any](bools ...int) func(*gen, *A, []byte) []mutation {
	return func(g *gen, _ *A, enc []byte) []mutation { return fixedLayout(bools...).mutations(g, enc) }
}

const (
	mainnetBits = attestation.MaxValidatorsPerCommittee * attestation.MaxCommitteesPerSlot
	minimalBits = attestation.MaxValidatorsPerCommittee * attestation.MinimalMaxCommitteesPerSlot
	phase0Bits  = attestation.MaxValidatorsPerCommittee
)

// electraCheckers are the phase0 containers that Electra keeps and the
// Electra (and Fulu) attestation containers, in both presets.
func electraCheckers() []checker {
	return []checker{
		pair[attestation.Checkpoint, phase0.Checkpoint]{
			name:    "Checkpoint",
			attpool: methods[attestation.Checkpoint](), eth2: methods[phase0.Checkpoint](),
			random: (*gen).checkpoint, toEth2: eth2Checkpoint,
			malformed: fixedMutations[attestation.Checkpoint](),
		},
		pair[attestation.Fork, phase0.Fork]{
			name:    "Fork",
			attpool: methods[attestation.Fork](), eth2: methods[phase0.Fork](),
			random: (*gen).fork, toEth2: eth2Fork,
			malformed: fixedMutations[attestation.Fork](),
		},
		pair[attestation.AttestationData, phase0.AttestationData]{
			name:    "AttestationData",
			attpool: methods[attestation.AttestationData](), eth2: methods[phase0.AttestationData](),
			random: (*gen).attestationData, toEth2: eth2Data,
			malformed: fixedMutations[attestation.AttestationData](),
		},
		pair[attestation.SingleAttestation, electra.SingleAttestation]{
			name:    "SingleAttestation",
			attpool: methods[attestation.SingleAttestation](), eth2: methods[electra.SingleAttestation](),
			random: (*gen).singleAttestation, toEth2: eth2SingleAttestation,
			malformed: fixedMutations[attestation.SingleAttestation](),
		},
		pair[attestation.Attestation, electra.Attestation]{
			name:    "Attestation",
			attpool: methods[attestation.Attestation](), eth2: methods[electra.Attestation](),
			random: (*gen).attestation, toEth2: eth2Attestation,
			malformed: attestationMutations,
		},
		pair[attestation.MinimalAttestation, electra.Attestation]{
			name:    "MinimalAttestation",
			attpool: methods[attestation.MinimalAttestation](), eth2: dynamic[electra.Attestation](minimalPreset),
			random: (*gen).minimalAttestation, toEth2: eth2MinimalAttestation,
			knownDifference: paddingDifference[attestation.MinimalAttestation, electra.Attestation](minimalAttFixed - 1),
			malformed: func(g *gen, a *attestation.MinimalAttestation, enc []byte) []mutation {
				return attestationLayout(nil, 0, minimalAttFixed, len(a.AggregationBits), minimalBits).mutations(g, enc)
			},
		},
		pair[attestation.Phase0Attestation, phase0.Attestation]{
			name:    "Phase0Attestation",
			attpool: methods[attestation.Phase0Attestation](), eth2: methods[phase0.Attestation](),
			random: (*gen).phase0Attestation, toEth2: eth2Phase0Attestation,
			malformed: func(g *gen, a *attestation.Phase0Attestation, enc []byte) []mutation {
				return attestationLayout(nil, 0, phase0AttFixed, len(a.AggregationBits), phase0Bits).mutations(g, enc)
			},
		},
		pair[attestation.IndexedAttestation, electra.IndexedAttestation]{
			name:    "IndexedAttestation",
			attpool: methods[attestation.IndexedAttestation](), eth2: methods[electra.IndexedAttestation](),
			random: (*gen).indexedAttestation, toEth2: eth2IndexedAttestation,
			malformed: indexedMutations,
		},
		pair[attestation.MinimalIndexedAttestation, electra.IndexedAttestation]{
			name:    "MinimalIndexedAttestation",
			attpool: methods[attestation.MinimalIndexedAttestation](), eth2: dynamic[electra.IndexedAttestation](minimalPreset),
			random: (*gen).minimalIndexedAttestation, toEth2: eth2MinimalIndexedAttestation,
			malformed: func(g *gen, a *attestation.MinimalIndexedAttestation, enc []byte) []mutation {
				return indexedLayout(len(a.AttestingIndices), minimalBits).mutations(g, enc)
			},
		},
		pair[attestation.Phase0IndexedAttestation, phase0.IndexedAttestation]{
			name:    "Phase0IndexedAttestation",
			attpool: methods[attestation.Phase0IndexedAttestation](), eth2: methods[phase0.IndexedAttestation](),
			random: (*gen).phase0IndexedAttestation, toEth2: eth2Phase0IndexedAttestation,
			malformed: func(g *gen, a *attestation.Phase0IndexedAttestation, enc []byte) []mutation {
				return indexedLayout(len(a.AttestingIndices), phase0Bits).mutations(g, enc)
			},
		},
		pair[attestation.AggregateAndProof, electra.AggregateAndProof]{
			name:    "AggregateAndProof",
			attpool: methods[attestation.AggregateAndProof](), eth2: methods[electra.AggregateAndProof](),
			random: (*gen).aggregateAndProof, toEth2: eth2AggregateAndProof,
			malformed: aggregateMutations,
		},
		pair[attestation.MinimalAggregateAndProof, electra.AggregateAndProof]{
			name:    "MinimalAggregateAndProof",
			attpool: methods[attestation.MinimalAggregateAndProof](), eth2: dynamic[electra.AggregateAndProof](minimalPreset),
			random: (*gen).minimalAggregateAndProof, toEth2: eth2MinimalAggregateAndProof,
			knownDifference: paddingDifference[attestation.MinimalAggregateAndProof, electra.AggregateAndProof](attInAggregate + minimalAttFixed - 1),
			malformed: func(g *gen, a *attestation.MinimalAggregateAndProof, enc []byte) []mutation {
				return attestationLayout([]offsetAt{{8, aggregateFixed}}, attInAggregate, minimalAttFixed,
					len(a.Aggregate.AggregationBits), minimalBits).mutations(g, enc)
			},
		},
		pair[attestation.Phase0AggregateAndProof, phase0.AggregateAndProof]{
			name:    "Phase0AggregateAndProof",
			attpool: methods[attestation.Phase0AggregateAndProof](), eth2: methods[phase0.AggregateAndProof](),
			random: (*gen).phase0AggregateAndProof, toEth2: eth2Phase0AggregateAndProof,
			malformed: func(g *gen, a *attestation.Phase0AggregateAndProof, enc []byte) []mutation {
				return attestationLayout([]offsetAt{{8, aggregateFixed}}, attInAggregate, phase0AttFixed,
					len(a.Aggregate.AggregationBits), phase0Bits).mutations(g, enc)
			},
		},
		pair[attestation.SignedAggregateAndProof, electra.SignedAggregateAndProof]{
			name:    "SignedAggregateAndProof",
			attpool: methods[attestation.SignedAggregateAndProof](), eth2: methods[electra.SignedAggregateAndProof](),
			random: (*gen).signedAggregateAndProof, toEth2: eth2SignedAggregateAndProof,
			malformed: signedMutations,
		},
		pair[attestation.MinimalSignedAggregateAndProof, electra.SignedAggregateAndProof]{
			name:    "MinimalSignedAggregateAndProof",
			attpool: methods[attestation.MinimalSignedAggregateAndProof](), eth2: dynamic[electra.SignedAggregateAndProof](minimalPreset),
			random: (*gen).minimalSignedAggregateAndProof, toEth2: eth2MinimalSignedAggregateAndProof,
			knownDifference: paddingDifference[attestation.MinimalSignedAggregateAndProof, electra.SignedAggregateAndProof](attInSigned + minimalAttFixed - 1),
			malformed: func(g *gen, s *attestation.MinimalSignedAggregateAndProof, enc []byte) []mutation {
				return attestationLayout(signedOffsets(), attInSigned, minimalAttFixed,
					len(s.Message.Aggregate.AggregationBits), minimalBits).mutations(g, enc)
			},
		},
		pair[attestation.Phase0SignedAggregateAndProof, phase0.SignedAggregateAndProof]{
			name:    "Phase0SignedAggregateAndProof",
			attpool: methods[attestation.Phase0SignedAggregateAndProof](), eth2: methods[phase0.SignedAggregateAndProof](),
			random: (*gen).phase0SignedAggregateAndProof, toEth2: eth2Phase0SignedAggregateAndProof,
			malformed: func(g *gen, s *attestation.Phase0SignedAggregateAndProof, enc []byte) []mutation {
				return attestationLayout(signedOffsets(), attInSigned, phase0AttFixed,
					len(s.Message.Aggregate.AggregationBits), phase0Bits).mutations(g, enc)
			},
		},
	}
}

// paddingDifference is the known difference of the minimal preset's
// containers, whose CommitteeBits byte is at position at.
func paddingDifference[A, E any](at int) func([]byte, *A, error, *E, error) string {
	return func(input []byte, _ *A, errA error, _ *E, errE error) string {
		if errA == nil || errE != nil || !errors.Is(errA, attestation.ErrInvalidCommitteeBits) ||
			len(input) <= at || input[at]>>attestation.MinimalMaxCommitteesPerSlot == 0 {
			return ""
		}
		return "go-eth2-client (dynamic-ssz's codec told the minimal preset) accepts a CommitteeBits " +
			"Bitvector[4] byte with bits 4..7 set, keeps them, re-encodes them and hashes them into the root; " +
			"attpool rejects it, as the SSZ spec does (no value serializes to it; the specs' remerkleable " +
			"refuses bits over the bitvector's length)"
	}
}

// The malformed inputs of the mainnet preset's Electra containers, which
// are those of the Gloas ones too.

func attestationMutations(g *gen, a *attestation.Attestation, enc []byte) []mutation {
	return attestationLayout(nil, 0, mainnetAttFixed, len(a.AggregationBits), mainnetBits).mutations(g, enc)
}

func indexedMutations(g *gen, a *attestation.IndexedAttestation, enc []byte) []mutation {
	return indexedLayout(len(a.AttestingIndices), mainnetBits).mutations(g, enc)
}

func aggregateMutations(g *gen, a *attestation.AggregateAndProof, enc []byte) []mutation {
	return attestationLayout([]offsetAt{{8, aggregateFixed}}, attInAggregate, mainnetAttFixed,
		len(a.Aggregate.AggregationBits), mainnetBits).mutations(g, enc)
}

func signedMutations(g *gen, s *attestation.SignedAggregateAndProof, enc []byte) []mutation {
	return attestationLayout(signedOffsets(), attInSigned, mainnetAttFixed,
		len(s.Message.Aggregate.AggregationBits), mainnetBits).mutations(g, enc)
}

// signedOffsets are the offsets of a SignedAggregateAndProof and of its
// AggregateAndProof, before the attestation's.
func signedOffsets() []offsetAt {
	return []offsetAt{{0, signedFixed}, {aggregateInSigned + 8, aggregateFixed}}
}

// The Gloas payload timeliness committee's containers: PayloadAttestationData
// is 32+8+1+1 bytes, its booleans at 40 and 41.
const (
	ptcDataSize = 32 + 8 + 1 + 1
	ptcBitsSize = attestation.PTCSize / 8
)

func ptcCheckers() []checker {
	return []checker{
		pair[attestation.PayloadAttestationData, gloas.PayloadAttestationData]{
			name:    "PayloadAttestationData",
			attpool: methods[attestation.PayloadAttestationData](), eth2: methods[gloas.PayloadAttestationData](),
			random: (*gen).payloadAttestationData, toEth2: eth2PayloadAttestationData,
			malformed: fixedMutations[attestation.PayloadAttestationData](40, 41),
		},
		pair[attestation.PayloadAttestationMessage, gloas.PayloadAttestationMessage]{
			name:    "PayloadAttestationMessage",
			attpool: methods[attestation.PayloadAttestationMessage](), eth2: methods[gloas.PayloadAttestationMessage](),
			random: (*gen).payloadAttestationMessage, toEth2: eth2PayloadAttestationMessage,
			malformed: fixedMutations[attestation.PayloadAttestationMessage](8+40, 8+41),
		},
		pair[attestation.PayloadAttestation, gloas.PayloadAttestation]{
			name:    "PayloadAttestation",
			attpool: methods[attestation.PayloadAttestation](), eth2: methods[gloas.PayloadAttestation](),
			random: (*gen).payloadAttestation, toEth2: eth2PayloadAttestation,
			malformed: fixedMutations[attestation.PayloadAttestation](ptcBitsSize+40, ptcBitsSize+41),
		},
	}
}

// runCheckers runs each checker, with n values from each seed, in a subtest
// and logs its counts, then the totals.
func runCheckers(t *testing.T, checkers []checker, n int) {
	s := runSeeds(t)
	t.Logf("%d values per container from each seed; %s", n, s)
	var values, bad int
	for _, ch := range checkers {
		t.Run(ch.label(), func(t *testing.T) {
			c := ch.run(t, s, n)
			values += c.values
			bad += c.badTotal
			t.Log(c)
			if t.Failed() {
				t.Logf("seeds: %s", s)
			}
		})
	}
	t.Logf("%d containers: %d random values each encoded and decoded both ways, %d malformed inputs fed to both decoders",
		len(checkers), values, bad)
}

// TestElectra checks the Electra and Fulu attestation containers and the
// phase0 ones, in both presets.
func TestElectra(t *testing.T) { runCheckers(t, electraCheckers(), casesPerSeed()) }

// TestPayloadTimelinessCommittee checks the Gloas containers of the payload
// timeliness committee (mainnet preset).
func TestPayloadTimelinessCommittee(t *testing.T) { runCheckers(t, ptcCheckers(), casesPerSeed()) }
