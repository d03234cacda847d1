package interop_test

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/attestantio/go-eth2-client/spec/gloas"

	"github.com/attpool/attpool/attestation"
)

// The Gloas Attestation, IndexedAttestation and the AggregateAndProof and
// SignedAggregateAndProof that carry it are the Electra containers turned
// progressive (EIP-7688, consensus-specs v1.7.0-alpha.12 on): the encoding
// is unchanged, so attpool's Electra containers encode and decode the bytes
// of go-eth2-client's Gloas ones; AggregationBits becomes a
// ProgressiveBitList and AttestingIndices a ProgressiveList, which have no
// limit, and the hash tree roots differ.

// gloasLimitDifference is the known difference of the Gloas attestation
// containers: an aggregation bitlist or index list over the Electra limit.
func gloasLimitDifference[A, E any](input []byte, _ *A, errA error, _ *E, errE error) string {
	if errA == nil || errE != nil {
		return ""
	}
	return "go-eth2-client's Gloas containers accept aggregation bits or attesting indices over the Electra " +
		"limit, as the Gloas specs do (ProgressiveBitList and ProgressiveList have none; gossip bounds a " +
		"SignedAggregateAndProof by MAX_SIGNED_AGGREGATE_AND_PROOF_SIZE instead); attpool decodes the Electra " +
		"containers, which have the limit"
}

// electraRootsDiffer is why the Gloas checkers compare no roots: they
// check the encoding with attpool's Electra types, whose roots are the
// Electra ones; TestGloasAttestationRoots compares attpool's Gloas types'.
const electraRootsDiffer = "attpool's Electra type against go-eth2-client's Gloas one (the Gloas roots: TestGloasAttestationRoots)"

func gloasCheckers() []checker {
	return []checker{
		pair[attestation.Attestation, gloas.Attestation]{
			name:    "Attestation as Gloas",
			attpool: methods[attestation.Attestation](), eth2: methods[gloas.Attestation](),
			random: (*gen).attestation, toEth2: gloasAttestation,
			malformed:       attestationMutations,
			rootsDiffer:     electraRootsDiffer,
			knownDifference: gloasLimitDifference[attestation.Attestation, gloas.Attestation],
		},
		pair[attestation.IndexedAttestation, gloas.IndexedAttestation]{
			name:    "IndexedAttestation as Gloas",
			attpool: methods[attestation.IndexedAttestation](), eth2: methods[gloas.IndexedAttestation](),
			random: (*gen).indexedAttestation, toEth2: gloasIndexedAttestation,
			malformed:       indexedMutations,
			rootsDiffer:     electraRootsDiffer,
			knownDifference: gloasLimitDifference[attestation.IndexedAttestation, gloas.IndexedAttestation],
		},
		pair[attestation.AggregateAndProof, gloas.AggregateAndProof]{
			name:    "AggregateAndProof as Gloas",
			attpool: methods[attestation.AggregateAndProof](), eth2: methods[gloas.AggregateAndProof](),
			random: (*gen).aggregateAndProof, toEth2: gloasAggregateAndProof,
			malformed:       aggregateMutations,
			rootsDiffer:     electraRootsDiffer,
			knownDifference: gloasLimitDifference[attestation.AggregateAndProof, gloas.AggregateAndProof],
		},
		pair[attestation.SignedAggregateAndProof, gloas.SignedAggregateAndProof]{
			name:    "SignedAggregateAndProof as Gloas",
			attpool: methods[attestation.SignedAggregateAndProof](), eth2: methods[gloas.SignedAggregateAndProof](),
			random: (*gen).signedAggregateAndProof, toEth2: gloasSignedAggregateAndProof,
			malformed:       signedMutations,
			rootsDiffer:     electraRootsDiffer,
			knownDifference: gloasLimitDifference[attestation.SignedAggregateAndProof, gloas.SignedAggregateAndProof],
		},
	}
}

// TestGloasAttestationEncoding checks that attpool's Electra attestation
// containers and go-eth2-client's Gloas ones have the same encoding, both
// ways, and that their decoders agree on malformed inputs up to the limits.
// It runs a third of TestElectra's values: the Electra side is the same.
func TestGloasAttestationEncoding(t *testing.T) { runCheckers(t, gloasCheckers(), casesPerSeed()/3) }

// attpoolGloasRoots hashes, with attpool's Gloas types, the SSZ bytes of
// the Gloas container of each name below; TestGloasAttestationRoots
// compares these roots with go-eth2-client's and the spec's.
var attpoolGloasRoots = map[string]func(ssz []byte) ([32]byte, error){
	"Attestation":             attpoolRoot[attestation.GloasAttestation],
	"IndexedAttestation":      attpoolRoot[attestation.GloasIndexedAttestation],
	"AggregateAndProof":       attpoolRoot[attestation.GloasAggregateAndProof],
	"SignedAggregateAndProof": attpoolRoot[attestation.GloasSignedAggregateAndProof],
}

// attpoolRoot decodes b as attpool's T and returns its hash tree root.
func attpoolRoot[T any, P interface {
	*T
	UnmarshalSSZ([]byte) error
	HashTreeRoot() ([32]byte, error)
}](b []byte) ([32]byte, error) {
	v := P(new(T))
	if err := v.UnmarshalSSZ(b); err != nil {
		return [32]byte{}, err
	}
	return v.HashTreeRoot()
}

// TestGloasAttestationRoots checks go-eth2-client's Gloas attestation roots
// against the SSZ spec's merkleization written out below (a progressive
// container over a progressive bitlist or list, EIP-7495 and EIP-7916), then
// attpool's against them where attpoolGloasRoots has an entry, and is
// skipped, after the first check, for the containers where it has none.
func TestGloasAttestationRoots(t *testing.T) {
	s := runSeeds(t)
	t.Logf("%d values per container from each seed; %s", casesPerSeed(), s)
	type container struct {
		name   string
		random func(g *gen) (ssz []byte, eth2, spec [32]byte)
	}
	containers := []container{
		{"Attestation", func(g *gen) ([]byte, [32]byte, [32]byte) {
			a := g.attestation()
			return gloasRoots(t, a, gloasAttestation(a), specGloasAttestationRoot(t, a))
		}},
		{"IndexedAttestation", func(g *gen) ([]byte, [32]byte, [32]byte) {
			i := g.indexedAttestation()
			return gloasRoots(t, i, gloasIndexedAttestation(i), specGloasIndexedAttestationRoot(t, i))
		}},
		{"AggregateAndProof", func(g *gen) ([]byte, [32]byte, [32]byte) {
			a := g.aggregateAndProof()
			return gloasRoots(t, a, gloasAggregateAndProof(a), specGloasAggregateAndProofRoot(t, a))
		}},
		{"SignedAggregateAndProof", func(g *gen) ([]byte, [32]byte, [32]byte) {
			sa := g.signedAggregateAndProof()
			spec := specMerkleize([]chunk{specGloasAggregateAndProofRoot(t, sa.Message), specSignatureRoot(sa.Signature)}, 0)
			return gloasRoots(t, sa, gloasSignedAggregateAndProof(sa), spec)
		}},
	}
	var missing []string
	for _, c := range containers {
		hook := attpoolGloasRoots[c.name]
		if hook == nil {
			missing = append(missing, c.name)
		}
		var specEqual, attpoolEqual int
		for _, seed := range [][32]byte{s.fixed, s.random} {
			g := newGen(seed, "Gloas roots of "+c.name)
			for i := range casesPerSeed() {
				enc, eth2Root, specRoot := c.random(g)
				if eth2Root != specRoot {
					t.Fatalf("%s, seed %x, value %d: go-eth2-client's Gloas root %x, the spec's %x", c.name, seed, i, eth2Root, specRoot)
				}
				specEqual++
				if hook == nil {
					continue
				}
				root, err := hook(enc)
				if err != nil || root != specRoot {
					t.Fatalf("%s, seed %x, value %d: attpool's Gloas root %x (%v), the spec's and go-eth2-client's %x",
						c.name, seed, i, root, err, specRoot)
				}
				attpoolEqual++
			}
		}
		t.Logf("Gloas %s: %d random values: go-eth2-client's root is the spec's progressive one for %d, attpool's is too for %d",
			c.name, 2*casesPerSeed(), specEqual, attpoolEqual)
	}
	if len(missing) > 0 {
		t.Skipf("attpool hashes %v as the Electra containers, not as the Gloas progressive ones (EIP-7688): "+
			"add their hashing to attpoolGloasRoots to compare", missing)
	}
}

// gloasRoots returns attpool's encoding of a, after checking that it is
// go-eth2-client's of e, with e's root and spec.
func gloasRoots(t *testing.T, a interface{ MarshalSSZ() ([]byte, error) }, e sszValue, spec chunk) ([]byte, [32]byte, [32]byte) {
	t.Helper()
	enc, err := a.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	encE, err := e.MarshalSSZ()
	if err != nil || string(enc) != string(encE) {
		t.Fatalf("encodings differ: attpool %x, go-eth2-client %x (%v)", enc, encE, err)
	}
	root, err := e.HashTreeRoot()
	if err != nil {
		t.Fatal(err)
	}
	return enc, root, spec
}

// The SSZ spec's merkleization ("Merkleization" in ssz/simple-serialize.md
// of the consensus specs), over crypto/sha256.

type chunk = [32]byte

func hashPair(a, b chunk) chunk { return sha256.Sum256(append(a[:], b[:]...)) }

// specPack splits b into chunks, the last one right-padded with zeroes;
// no chunk for no bytes.
func specPack(b []byte) []chunk {
	out := make([]chunk, (len(b)+31)/32)
	for i := range out {
		copy(out[i][:], b[32*i:])
	}
	return out
}

// specMerkleize is merkleize(chunks, limit); limit 0 is no limit.
func specMerkleize(chunks []chunk, limit int) chunk {
	width := 1
	for width < max(len(chunks), limit) {
		width *= 2
	}
	layer := append(make([]chunk, 0, width), chunks...)
	for len(layer) < width {
		layer = append(layer, chunk{})
	}
	for len(layer) > 1 {
		next := make([]chunk, len(layer)/2)
		for i := range next {
			next[i] = hashPair(layer[2*i], layer[2*i+1])
		}
		layer = next
	}
	return layer[0]
}

// specMerkleizeProgressive is merkleize_progressive(chunks, numLeaves).
func specMerkleizeProgressive(chunks []chunk, numLeaves int) chunk {
	if len(chunks) == 0 {
		return chunk{}
	}
	k := min(numLeaves, len(chunks))
	return hashPair(specMerkleize(chunks[:k], numLeaves), specMerkleizeProgressive(chunks[k:], 4*numLeaves))
}

func specMixIn(root chunk, n uint64) chunk {
	var c chunk
	binary.LittleEndian.PutUint64(c[:], n)
	return hashPair(root, c)
}

// specMixInActiveFields is mix_in_active_fields for n active fields in a
// row, pack_bits([1] * n) with n < 8.
func specMixInActiveFields(root chunk, n int) chunk {
	var c chunk
	c[0] = byte(1<<n - 1)
	return hashPair(root, c)
}

// specBitlistBits returns the bits of an SSZ bitlist, packed, without its
// length bit, and their number.
func specBitlistBits(t *testing.T, b []byte) ([]byte, uint64) {
	t.Helper()
	if len(b) == 0 || b[len(b)-1] == 0 {
		t.Fatalf("bitlist %x has no length bit", b)
	}
	last := b[len(b)-1]
	top := 7
	for last>>top == 0 {
		top--
	}
	n := 8*(len(b)-1) + top
	bits := append([]byte(nil), b...)
	bits[len(bits)-1] &^= 1 << top
	return bits[:(n+7)/8], uint64(n)
}

func specSignatureRoot(s [96]byte) chunk { return specMerkleize(specPack(s[:]), 0) }

func specDataRoot(t *testing.T, d *attestation.AttestationData) chunk {
	t.Helper()
	checkpoint := func(c *attestation.Checkpoint) chunk {
		return specMerkleize([]chunk{specUint(c.Epoch), c.Root}, 0)
	}
	return specMerkleize([]chunk{specUint(d.Slot), specUint(d.Index), d.BeaconBlockRoot, checkpoint(d.Source), checkpoint(d.Target)}, 0)
}

func specUint(v uint64) (c chunk) {
	binary.LittleEndian.PutUint64(c[:], v)
	return c
}

// specGloasAttestationRoot is the Gloas Attestation's root:
// ProgressiveContainer(active_fields=[1] * 4) of a ProgressiveBitList,
// AttestationData, BLSSignature and Bitvector[64].
func specGloasAttestationRoot(t *testing.T, a *attestation.Attestation) chunk {
	t.Helper()
	bits, n := specBitlistBits(t, a.AggregationBits)
	fields := []chunk{
		specMixIn(specMerkleizeProgressive(specPack(bits), 1), n),
		specDataRoot(t, a.Data),
		specSignatureRoot(a.Signature),
		specMerkleize(specPack(a.CommitteeBits), 0),
	}
	return specMixInActiveFields(specMerkleizeProgressive(fields, 1), len(fields))
}

// specGloasIndexedAttestationRoot is the Gloas IndexedAttestation's root:
// ProgressiveContainer(active_fields=[1] * 3) of a
// ProgressiveList[ValidatorIndex], AttestationData and BLSSignature.
func specGloasIndexedAttestationRoot(t *testing.T, i *attestation.IndexedAttestation) chunk {
	t.Helper()
	packed := make([]byte, 0, 8*len(i.AttestingIndices))
	for _, v := range i.AttestingIndices {
		packed = binary.LittleEndian.AppendUint64(packed, v)
	}
	fields := []chunk{
		specMixIn(specMerkleizeProgressive(specPack(packed), 1), uint64(len(i.AttestingIndices))),
		specDataRoot(t, i.Data),
		specSignatureRoot(i.Signature),
	}
	return specMixInActiveFields(specMerkleizeProgressive(fields, 1), len(fields))
}

// specGloasAggregateAndProofRoot is the root of the AggregateAndProof
// container over the Gloas Attestation.
func specGloasAggregateAndProofRoot(t *testing.T, a *attestation.AggregateAndProof) chunk {
	t.Helper()
	return specMerkleize([]chunk{specUint(a.AggregatorIndex), specGloasAttestationRoot(t, a.Aggregate), specSignatureRoot(a.SelectionProof)}, 0)
}

// TestSpecMerkleization checks the merkleization above against attpool's
// Electra roots (the SSZ spec's List, Bitlist and Container rules, which
// the official vectors check in attpool) and its PayloadAttestation root
// (a progressive container), so that a disagreement in
// TestGloasAttestationRoots is not in the helpers.
func TestSpecMerkleization(t *testing.T) {
	s := runSeeds(t)
	g := newGen(s.random, "spec merkleization")
	for i := range casesPerSeed() {
		a := g.attestation()
		bits, n := specBitlistBits(t, a.AggregationBits)
		spec := specMerkleize([]chunk{
			specMixIn(specMerkleize(specPack(bits), (mainnetBits+255)/256), n),
			specDataRoot(t, a.Data),
			specSignatureRoot(a.Signature),
			specMerkleize(specPack(a.CommitteeBits), 0),
		}, 0)
		if err := sameRoot(a, spec); err != nil {
			t.Fatalf("Attestation, seed %x, value %d: %v", s.random, i, err)
		}
		p := g.payloadAttestation()
		d := p.Data
		var present, available chunk
		present[0], available[0] = b2u(d.PayloadPresent), b2u(d.BlobDataAvailable)
		dataRoot := specMerkleize([]chunk{d.BeaconBlockRoot, specUint(d.Slot), present, available}, 0)
		spec = specMixInActiveFields(specMerkleizeProgressive([]chunk{
			specMerkleize(specPack(p.AggregationBits), 0), dataRoot, specSignatureRoot(p.Signature),
		}, 1), 3)
		if err := sameRoot(p, spec); err != nil {
			t.Fatalf("PayloadAttestation, seed %x, value %d: %v", s.random, i, err)
		}
	}
	t.Logf("%d Attestation and %d PayloadAttestation roots equal to attpool's", casesPerSeed(), casesPerSeed())
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func sameRoot(v interface{ HashTreeRoot() ([32]byte, error) }, want chunk) error {
	root, err := v.HashTreeRoot()
	switch {
	case err != nil:
		return err
	case root != want:
		return fmt.Errorf("root %x, the spec's %x", root, want)
	}
	return nil
}
