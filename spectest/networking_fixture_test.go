package spectest

import (
	"encoding/hex"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/attestantio/go-eth2-client/spec/electra"
	"github.com/attestantio/go-eth2-client/spec/gloas"
	"github.com/attestantio/go-eth2-client/spec/phase0"
	"github.com/golang/snappy"
	"github.com/prysmaticlabs/go-bitfield"
	"gopkg.in/yaml.v3"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/ssz"
)

// The networking fixture of testdata/networking: gossip_validation cases in
// the official layout, made by this file (go test -run
// TestNetworkingFixture -update-networking, from spectest/) since the
// vectors beside the repository have no networking runner. See
// testdata/README.md.

var updateNetworking = flag.Bool("update-networking", false, "rewrite testdata/networking")

const networkingFixture = "testdata/networking"

// fixtureChain is the state of one fixture case being written.
type fixtureChain struct {
	t          *testing.T
	p          *preset
	fork       string
	dir        string
	state      *anchorState
	comm       *stateCommittees
	files      map[string][]byte // name without extension -> SSZ
	anchor     *block
	anchorName string
}

var fixtureVersions = map[string][2]phase0.Version{
	"mainnet/electra": {{4, 0, 0, 0}, {5, 0, 0, 0}},
	"minimal/electra": {{4, 0, 0, 1}, {5, 0, 0, 1}},
	"minimal/gloas":   {{6, 0, 0, 1}, {7, 0, 0, 1}},
}

// newFixtureChain makes a genesis state of SLOTS_PER_EPOCH * 8 active
// interop validators (the generators' default) and its anchor block.
func newFixtureChain(t *testing.T, presetName, fork, handler, name string) *fixtureChain {
	p := presets[presetName]
	n := p.slotsPerEpoch * 8
	versions := fixtureVersions[presetName+"/"+fork]
	st := &anchorState{
		genesisTime: 1_606_824_023,
		gvr:         [32]byte{0x42, 0x42},
		fork:        phase0.Fork{PreviousVersion: versions[0], CurrentVersion: versions[1]},
		mixes:       make([]phase0.Root, p.epochsPerHistoricalVector),
	}
	for i := range st.mixes {
		st.mixes[i] = phase0.Root{0x4d, 0x49, 0x58} // the eth1 block hash of genesis
	}
	if fork == "gloas" {
		// ptc_window: (2 + MIN_SEED_LOOKAHEAD) epochs of PTC_SIZE (16 in
		// minimal) members; entry w (of the previous, current, next epoch's
		// slots) is validators 2w..2w+15 (mod n).
		for slot := range 3 * p.slotsPerEpoch {
			var ptc []phase0.ValidatorIndex
			for j := range uint64(16) {
				ptc = append(ptc, phase0.ValidatorIndex((2*slot+j)%n))
			}
			st.ptcWindow = append(st.ptcWindow, ptc)
		}
	}
	for i := range n {
		sk, err := crypto.InteropSecretKey(i)
		if err != nil {
			t.Fatal(err)
		}
		st.validators = append(st.validators, &phase0.Validator{
			PublicKey: phase0.BLSPubKey(sk.PublicKey().Bytes()), WithdrawalCredentials: make([]byte, 32),
			EffectiveBalance: 32_000_000_000, ExitEpoch: math.MaxUint64, WithdrawableEpoch: math.MaxUint64,
		})
	}
	f := &fixtureChain{
		t: t, p: p, fork: fork, state: st, files: map[string][]byte{},
		dir: filepath.Join(networkingFixture, presetName, fork, "networking", handler, "pyspec_tests", name),
	}
	f.files["state"] = f.marshal(f.beaconState())
	f.comm = &stateCommittees{p: p, validators: st.validators, mixes: newRandaoMixes(st, p)}
	f.anchor, f.anchorName = f.block(0, [32]byte{}, 0)
	return f
}

func (f *fixtureChain) marshal(v any) []byte {
	b, err := f.p.ssz.MarshalSSZ(v)
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

// beaconState is the fork's BeaconState with the fields the runner reads
// (the others zero).
func (f *fixtureChain) beaconState() any {
	s := f.state
	if f.fork == "gloas" {
		return &gloas.BeaconState{GenesisTime: s.genesisTime, GenesisValidatorsRoot: s.gvr, Fork: &s.fork,
			Validators: s.validators, RANDAOMixes: s.mixes, PTCWindow: s.ptcWindow}
	}
	return &electra.BeaconState{GenesisTime: s.genesisTime, GenesisValidatorsRoot: s.gvr, Fork: &s.fork,
		Validators: s.validators, RANDAOMixes: s.mixes}
}

// block writes an empty block of the fork at slot with parent and returns
// it (as the runner decodes it) and its file name.
func (f *fixtureChain) block(slot uint64, parent [32]byte, reveal byte) (*block, string) {
	var signed any
	switch f.fork {
	case "gloas":
		signed = &gloas.SignedBeaconBlock{Message: &gloas.BeaconBlock{Slot: phase0.Slot(slot), ParentRoot: parent,
			Body: &gloas.BeaconBlockBody{RANDAOReveal: phase0.BLSSignature{reveal}}}}
	default:
		signed = &electra.SignedBeaconBlock{Message: &electra.BeaconBlock{Slot: phase0.Slot(slot), ParentRoot: parent,
			Body: &electra.BeaconBlockBody{RANDAOReveal: phase0.BLSSignature{reveal}}}}
	}
	raw := f.marshal(signed)
	b, err := decodeBlock(f.p, f.fork, raw)
	if err != nil {
		f.t.Fatal(err)
	}
	root, err := f.p.ssz.HashTreeRoot(signed)
	if err != nil {
		f.t.Fatal(err)
	}
	name := "block_0x" + hex.EncodeToString(root[:])
	f.files[name] = raw
	return b, name
}

// envelope writes the payload envelope of block root.
func (f *fixtureChain) envelope(root [32]byte) string {
	env := &gloas.SignedExecutionPayloadEnvelope{Message: &gloas.ExecutionPayloadEnvelope{BeaconBlockRoot: root}}
	r, err := f.p.ssz.HashTreeRoot(env)
	if err != nil {
		f.t.Fatal(err)
	}
	name := "execution_payload_envelope_0x" + hex.EncodeToString(r[:])
	f.files[name] = f.marshal(env)
	return name
}

func (f *fixtureChain) domain(typ ssz.DomainType) ssz.Domain {
	d, err := ssz.ComputeDomain(typ, ssz.Version(f.state.fork.CurrentVersion), f.state.gvr)
	if err != nil {
		f.t.Fatal(err)
	}
	return d
}

func (f *fixtureChain) sign(v uint64, root [32]byte) [96]byte {
	sk, err := crypto.InteropSecretKey(v)
	if err != nil {
		f.t.Fatal(err)
	}
	return crypto.Sign(sk, root[:]).Bytes()
}

func (f *fixtureChain) data(slot uint64, vote [32]byte, index uint64) *attestation.AttestationData {
	return &attestation.AttestationData{Slot: slot, Index: index, BeaconBlockRoot: vote, Source: &attestation.Checkpoint{},
		Target: &attestation.Checkpoint{Epoch: slot / f.p.slotsPerEpoch, Root: f.anchor.root}}
}

func (f *fixtureChain) dataRoot(d *attestation.AttestationData) [32]byte {
	r, err := ssz.ComputeSigningRoot(d.Copy(), f.domain(ssz.DomainBeaconAttester))
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

// single writes the attestation of committee 0's first member and returns
// its file name and subnet.
func (f *fixtureChain) single(d *attestation.AttestationData) (string, uint64) {
	committee, _ := f.comm.BeaconCommittee(d.Slot, 0)
	att := &attestation.SingleAttestation{AttesterIndex: committee[0], Data: d, Signature: f.sign(committee[0], f.dataRoot(d))}
	cps, _ := f.comm.CommitteeCountPerSlot(d.Slot / f.p.slotsPerEpoch)
	return f.object("single_attestation", att), (cps * (d.Slot % f.p.slotsPerEpoch)) % 64
}

// aggregate writes the aggregate of the whole of committee 0 by its first
// member (every member is an aggregator in committees below 16).
func (f *fixtureChain) aggregate(d *attestation.AttestationData) string {
	committee, _ := f.comm.BeaconCommittee(d.Slot, 0)
	bits := bitfield.NewBitlist(uint64(len(committee)))
	var sigs []*crypto.Signature
	for i, v := range committee {
		bits.SetBitAt(uint64(i), true)
		s := f.sign(v, f.dataRoot(d))
		sig, err := crypto.SignatureFromBytes(s[:])
		if err != nil {
			f.t.Fatal(err)
		}
		sigs = append(sigs, sig)
	}
	agg, err := crypto.AggregateSignatures(sigs)
	if err != nil {
		f.t.Fatal(err)
	}
	cb := bitfield.NewBitvector64()
	cb.SetBitAt(0, true)
	proofRoot := ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(d.Slot), f.domain(ssz.DomainSelectionProof))
	aap := &attestation.AggregateAndProof{AggregatorIndex: committee[0], SelectionProof: f.sign(committee[0], proofRoot),
		Aggregate: &attestation.Attestation{AggregationBits: bits, Data: d, Signature: agg.Bytes(), CommitteeBits: cb}}
	r, err := ssz.ComputeSigningRoot(aap, f.domain(ssz.DomainAggregateAndProof))
	if err != nil {
		f.t.Fatal(err)
	}
	return f.object("aggregate", &attestation.SignedAggregateAndProof{Message: aap, Signature: f.sign(committee[0], r)})
}

// payloadAttestation writes validator's payload attestation of block at slot.
func (f *fixtureChain) payloadAttestation(validator, slot uint64, root [32]byte) string {
	d := &attestation.PayloadAttestationData{BeaconBlockRoot: root, Slot: slot, PayloadPresent: true, BlobDataAvailable: true}
	r, err := ssz.ComputeSigningRoot(d, f.domain(ssz.DomainPTCAttester))
	if err != nil {
		f.t.Fatal(err)
	}
	return f.object("payload_attestation_message", &attestation.PayloadAttestationMessage{ValidatorIndex: validator, Data: d, Signature: f.sign(validator, r)})
}

func (f *fixtureChain) object(prefix string, o Object) string {
	raw, err := o.MarshalSSZ()
	if err != nil {
		f.t.Fatal(err)
	}
	root, err := o.HashTreeRoot()
	if err != nil {
		f.t.Fatal(err)
	}
	name := prefix + "_0x" + hex.EncodeToString(root[:])
	f.files[name] = raw
	return name
}

// write writes the case: meta.yaml and every file, snappy-compressed.
func (f *fixtureChain) write(meta map[string]any) {
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		f.t.Fatal(err)
	}
	y, err := yaml.Marshal(meta)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "meta.yaml"), y, 0o644); err != nil {
		f.t.Fatal(err)
	}
	for name, raw := range f.files {
		if err := os.WriteFile(filepath.Join(f.dir, name+".ssz_snappy"), snappy.Encode(nil, raw), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
}

type fixtureMsg = map[string]any

func (f *fixtureChain) anchorOnly() []map[string]any {
	return []map[string]any{{"block": f.anchorName}}
}

func msgAt(offset int64, file, expected string, extra ...any) fixtureMsg {
	m := fixtureMsg{"offset_ms": offset, "message": file, "expected": expected}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	return m
}

// writeNetworkingFixture writes every case of the fixture.
func writeNetworkingFixture(t *testing.T) {
	if err := os.RemoveAll(networkingFixture); err != nil {
		t.Fatal(err)
	}
	const att, agg = "gossip_beacon_attestation", "gossip_beacon_aggregate_and_proof"
	slotMs := func(f *fixtureChain, slot uint64) int64 { return int64(slot) * f.p.slotMs }

	f := newFixtureChain(t, "minimal", "electra", att, "gossip_beacon_attestation__valid")
	file, subnet := f.single(f.data(1, f.anchor.root, 0))
	f.write(map[string]any{"topic": "beacon_attestation", "blocks": f.anchorOnly(), "current_time_ms": slotMs(f, 1),
		"messages": []fixtureMsg{msgAt(500, file, "valid", "subnet_id", subnet)}})

	f = newFixtureChain(t, "minimal", "electra", att, "gossip_beacon_attestation__ignore_already_seen")
	file, subnet = f.single(f.data(1, f.anchor.root, 0))
	f.write(map[string]any{"topic": "beacon_attestation", "blocks": f.anchorOnly(), "current_time_ms": slotMs(f, 1),
		"messages": []fixtureMsg{
			msgAt(500, file, "valid", "subnet_id", subnet),
			msgAt(600, file, "ignore", "subnet_id", subnet, "reason", "already seen attestation for this epoch and validator"),
		}})

	f = newFixtureChain(t, "minimal", "electra", att, "gossip_beacon_attestation__reject_wrong_subnet")
	file, subnet = f.single(f.data(1, f.anchor.root, 0))
	f.write(map[string]any{"topic": "beacon_attestation", "blocks": f.anchorOnly(), "current_time_ms": slotMs(f, 1),
		"messages": []fixtureMsg{msgAt(500, file, "reject", "subnet_id", (subnet+1)%64, "reason", "attestation is for wrong subnet")}})

	f = newFixtureChain(t, "minimal", "electra", att, "gossip_beacon_attestation__reject_block_failed_validation")
	failed, failedName := f.block(2, f.anchor.root, 7)
	file, subnet = f.single(f.data(2, failed.root, 0))
	f.write(map[string]any{"topic": "beacon_attestation", "current_time_ms": slotMs(f, 2),
		"blocks":   []map[string]any{{"block": f.anchorName}, {"block": failedName, "failed": true}},
		"messages": []fixtureMsg{msgAt(500, file, "reject", "subnet_id", subnet, "reason", "block being voted for failed validation")}})

	f = newFixtureChain(t, "mainnet", "electra", agg, "gossip_beacon_aggregate_and_proof__valid")
	file = f.aggregate(f.data(1, f.anchor.root, 0))
	f.write(map[string]any{"topic": "beacon_aggregate_and_proof", "blocks": f.anchorOnly(), "current_time_ms": slotMs(f, 1),
		"messages": []fixtureMsg{msgAt(500, file, "valid")}})

	f = newFixtureChain(t, "mainnet", "electra", agg, "gossip_beacon_aggregate_and_proof__ignore_finalized_not_ancestor")
	file = f.aggregate(f.data(1, f.anchor.root, 0))
	f.write(map[string]any{"topic": "beacon_aggregate_and_proof", "blocks": f.anchorOnly(), "current_time_ms": slotMs(f, 1),
		"finalized_checkpoint": map[string]any{"epoch": 0, "root": "0x" + hex.EncodeToString(bytesOf(0xef, 32))},
		"messages":             []fixtureMsg{msgAt(500, file, "ignore", "reason", "finalized checkpoint is not an ancestor of block")}})

	// Gloas: a block at slot 1 voted for at slot 2 with data.index 1; the
	// messages carry current_time_ms, as the Gloas generators write them.
	for _, c := range []struct{ name, status, expected string }{
		{"gossip_beacon_attestation__valid_payload_validated", "VALID", "valid"},
		{"gossip_beacon_attestation__ignore_payload_pending_el_validation", "NOT_VALIDATED", "ignore"},
	} {
		f = newFixtureChain(t, "minimal", "gloas", att, c.name)
		b, name := f.block(1, f.anchor.root, 9)
		env := f.envelope(b.root)
		file, subnet = f.single(f.data(2, b.root, 1))
		f.write(map[string]any{"topic": "beacon_attestation", "current_time_ms": slotMs(f, 2),
			"blocks": []map[string]any{{"block": f.anchorName}, {"block": name, "payload": env, "payload_status": c.status}},
			"messages": []fixtureMsg{{"subnet_id": subnet, "current_time_ms": slotMs(f, 2) + 500,
				"message": file, "expected": c.expected}}})
	}

	// payload_attestation_message: a block at slot 1; the current slot's PTC
	// members of the state's ptc_window (slot 1 of the current epoch is
	// entry SLOTS_PER_EPOCH + 1 = 9: validators 18 to 33).
	const ptcHandler = "gossip_payload_attestation_message"
	for _, c := range []struct {
		name      string
		validator uint64
		expected  string
	}{
		{"gossip_payload_attestation_message__valid", 18, "valid"},
		{"gossip_payload_attestation_message__reject_validator_not_in_ptc", 40, "reject"},
	} {
		f = newFixtureChain(t, "minimal", "gloas", ptcHandler, c.name)
		b, name := f.block(1, f.anchor.root, 9)
		file = f.payloadAttestation(c.validator, 1, b.root)
		f.write(map[string]any{"topic": "payload_attestation_message", "current_time_ms": slotMs(f, 1),
			"blocks":   []map[string]any{{"block": f.anchorName}, {"block": name}},
			"messages": []fixtureMsg{{"current_time_ms": slotMs(f, 1) + 100, "message": file, "expected": c.expected}}})
	}
}

func bytesOf(b byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

// TestNetworkingFixture runs the networking fixture: every case must run
// and pass.
func TestNetworkingFixture(t *testing.T) {
	if *updateNetworking {
		writeNetworkingFixture(t)
	}
	results, err := Run(networkingFixture)
	if err != nil {
		t.Fatal(err)
	}
	_, total := Tally(results)
	for _, r := range results {
		if !r.Passed() {
			t.Errorf("%s %s: %v %s", r.Handler, r.Case, r.Err, r.Reason)
		}
	}
	if total.Passed != 10 {
		t.Errorf("%v, want 10 passed", total)
	}
}
