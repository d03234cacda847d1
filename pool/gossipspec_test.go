package pool

// The consensus specs' own gossip validation test cases for the
// beacon_attestation_{subnet_id}, beacon_aggregate_and_proof and (Gloas)
// payload_attestation_message topics, ported from the generators of
// consensus-specs:
//
//	tests/core/pyspec/eth_consensus_specs/test/{phase0,deneb,electra,gloas}/networking/
//	  test_gossip_beacon_attestation.py
//	  test_gossip_beacon_aggregate_and_proof.py
//	tests/core/pyspec/eth_consensus_specs/test/gloas/networking/
//	  test_gossip_payload_attestation_message.py
//
// Every generator case whose fork decorators include Electra or a later fork
// is here, named after its generator function, with the forks it runs in
// (of those the pool serves: electra, fulu, gloas; the generators also emit
// heze, which the pool does not know). Each builds the generator's situation
// (the genesis anchor block at slot 0, the state advanced to the message's
// slot, the same committee members, aggregators, blocks, finalized checkpoint
// and clock) against the pool's in-memory node (InteropKeys,
// ShuffledCommittees with the generators' validator counts, MemChain,
// ForkList, ManualClock), sends the messages in order at the generator's
// times and asserts the verdict the specs expect (valid, ignore, reject);
// the spec's reason string is kept for the failure message.
//
// The committees are those of ShuffledCommittees, answered as a beacon
// node's head state answers them: only for epochs up to the state's next
// epoch (MIN_SEED_LOOKAHEAD 1), the state being the generator's, advanced to
// the message's slot. A lookup the node cannot answer must never turn the
// specs' REJECT into an IGNORE (a target epoch of 100 on a chain at epoch 0).
//
// The mainnet preset is used (SLOTS_PER_EPOCH 32, 12 s slots): with the
// generators' default of SLOTS_PER_EPOCH * 8 = 256 validators that is one
// committee of 8 per slot, as in their mainnet vectors. The one case that is
// minimal-only ("need multiple committees per slot") gets two committees per
// slot from 8192 validators instead.

import (
	"context"
	"crypto/sha256"
	"slices"
	"testing"
	"time"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/pool/internal/memnode"
	"github.com/attpool/attpool/ssz"
)

const (
	gsSlotsPerEpoch = 32
	gsSlotMs        = 12_000
	gsDisparityMs   = 500
	gsValidators    = gsSlotsPerEpoch * 8 // the generators' default_balances
)

var gsGenesis = time.Unix(1_606_824_023, 0)

// Forks a case runs in.
var (
	gsElectraOn   = []string{"electra", "fulu", "gloas"} // with_all_phases, with_deneb_and_later, with_electra_and_later
	gsElectraFulu = []string{"electra", "fulu"}          // with_all_phases_from_to(ELECTRA, GLOAS)
	gsGloasOn     = []string{"gloas"}                    // with_gloas_and_later
)

var gsForkVersions = map[string]ssz.Version{
	"electra": {5, 0, 0, 0},
	"fulu":    {6, 0, 0, 0},
	"gloas":   {7, 0, 0, 0},
}

// gsEnv is the situation of one generator case.
type gsEnv struct {
	t      *testing.T
	fork   string
	keys   *memnode.InteropKeys
	comm   *memnode.ShuffledCommittees
	head   *gsHead
	chain  *memnode.MemChain[PayloadStatus]
	clock  *memnode.ManualClock
	forks  *memnode.ForkList
	anchor [32]byte // the genesis block at slot 0
}

// gsHead is the Committees of a node whose head state is at epoch: it
// answers for epochs up to epoch + MIN_SEED_LOOKAHEAD.
type gsHead struct {
	comm  Committees
	epoch uint64
}

func (h *gsHead) CommitteeCountPerSlot(epoch uint64) (uint64, bool) {
	if epoch > h.epoch+1 {
		return 0, false
	}
	return h.comm.CommitteeCountPerSlot(epoch)
}

func (h *gsHead) BeaconCommittee(slot, index uint64) ([]uint64, bool) {
	if slot/gsSlotsPerEpoch > h.epoch+1 {
		return nil, false
	}
	return h.comm.BeaconCommittee(slot, index)
}

// gsMsg is one message of a case, received at ms after genesis, with the
// verdict the specs expect.
type gsMsg struct {
	ms     int64
	att    *attestation.SingleAttestation
	subnet uint64
	sap    *attestation.SignedAggregateAndProof
	pam    *attestation.PayloadAttestationMessage
	want   Verdict
	reason string
}

func newGSEnv(t *testing.T, fork string, validators uint64) *gsEnv {
	e := &gsEnv{
		t: t, fork: fork,
		keys:  memnode.NewInteropKeys(validators),
		comm:  memnode.NewShuffledCommittees(validators, gsSlotsPerEpoch),
		head:  new(gsHead),
		chain: memnode.NewMemChain[PayloadStatus](gsSlotsPerEpoch),
		clock: memnode.NewManualClock(gsGenesis),
		forks: memnode.SingleFork(gsForkVersions[fork], ssz.Root{0x42}),
	}
	e.head.comm = e.comm
	e.anchor = e.addBlock("anchor", 0, [32]byte{}, true)
	// get_forkchoice_store: the anchor is the finalized checkpoint.
	e.chain.SetFinalized(attestation.Checkpoint{Epoch: 0, Root: e.anchor})
	return e
}

func gsRoot(label string) [32]byte { return sha256.Sum256([]byte(label)) }

// addBlock records a block of the store (valid false: seen but failed
// validation) and returns its root.
func (e *gsEnv) addBlock(label string, slot uint64, parent [32]byte, valid bool) [32]byte {
	root := gsRoot(label)
	e.chain.AddBlock(root, parent, slot, valid)
	return root
}

// slotMs is compute_time_at_slot_ms relative to genesis.
func slotMs(slot uint64) int64 { return int64(slot) * gsSlotMs }

// epochStartMs is the time of the first slot of epoch.
func epochStartMs(epoch uint64) int64 { return slotMs(epoch * gsSlotsPerEpoch) }

// data is build_attestation_data's AttestationData at slot voting for block
// with target root targetRoot (source: the genesis state's justified
// checkpoint).
func (e *gsEnv) data(slot uint64, block, targetRoot [32]byte) *attestation.AttestationData {
	return &attestation.AttestationData{
		Slot: slot, BeaconBlockRoot: block,
		Source: &attestation.Checkpoint{},
		Target: &attestation.Checkpoint{Epoch: slot / gsSlotsPerEpoch, Root: targetRoot},
	}
}

func (e *gsEnv) committee(slot, index uint64) []uint64 {
	c, ok := e.comm.BeaconCommittee(slot, index)
	if !ok {
		e.t.Fatalf("no committee %d at slot %d", index, slot)
	}
	return c
}

func (e *gsEnv) committeesPerSlot(epoch uint64) uint64 {
	n, _ := e.comm.CommitteeCountPerSlot(epoch)
	return n
}

// subnet is compute_subnet_for_attestation.
func (e *gsEnv) subnet(slot, index uint64) uint64 {
	return (e.committeesPerSlot(slot/gsSlotsPerEpoch)*(slot%gsSlotsPerEpoch) + index) % AttestationSubnetCount
}

// env is the env of helpers_test.go over this case's forks and keys, for
// its domains and signatures.
func (e *gsEnv) env() *env { return &env{t: e.t, forks: e.forks, keys: e.keys} }

func (e *gsEnv) domain(typ ssz.DomainType, epoch uint64) ssz.Domain {
	return e.env().domain(typ, epoch)
}

func (e *gsEnv) signRoot(validator uint64, root [32]byte) [96]byte {
	return e.env().sign(validator, root)
}

func (e *gsEnv) attestationSignature(validator uint64, d *attestation.AttestationData) [96]byte {
	root, err := ssz.ComputeSigningRoot(d.Copy(), e.domain(ssz.DomainBeaconAttester, d.Target.Epoch))
	if err != nil {
		e.t.Fatal(err)
	}
	return e.signRoot(validator, root)
}

// single is to_single_attestation: d signed by attester as a member of
// committee index, and the subnet get_correct_subnet gives it.
func (e *gsEnv) single(d *attestation.AttestationData, index, attester uint64) (*attestation.SingleAttestation, uint64) {
	att := &attestation.SingleAttestation{
		CommitteeIndex: index, AttesterIndex: attester, Data: d,
		Signature: e.attestationSignature(attester, d),
	}
	return att, e.subnet(d.Slot, index)
}

// first is to_single_attestation's default attester: the committee's first
// member.
func (e *gsEnv) first(slot, index uint64) uint64 { return e.committee(slot, index)[0] }

func (e *gsEnv) selectionProof(validator, slot uint64) [96]byte {
	root := ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(slot), e.domain(ssz.DomainSelectionProof, slot/gsSlotsPerEpoch))
	return e.signRoot(validator, root)
}

// aggregators returns the first k members of the committee, in committee
// order, whose selection proof selects them (is_aggregator), or fewer.
func (e *gsEnv) aggregators(slot, index uint64, k int, selected bool) []uint64 {
	committee := e.committee(slot, index)
	var out []uint64
	for _, v := range committee {
		if isAggregator(len(committee), e.selectionProof(v, slot)) == selected {
			out = append(out, v)
			if len(out) == k {
				break
			}
		}
	}
	return out
}

// aggregate is get_valid_attestation(signed=True) of the participants
// (validator indices; nil: the whole committee) wrapped by
// create_signed_aggregate_and_proof for aggregator (or, when aggregator is
// nil, the committee's first selected member).
func (e *gsEnv) aggregate(d *attestation.AttestationData, index uint64, participants []uint64, aggregator *uint64) *attestation.SignedAggregateAndProof {
	committee := e.committee(d.Slot, index)
	if participants == nil {
		participants = committee
	}
	bits := bitfield.NewBitlist(uint64(len(committee)))
	var sigs [][96]byte
	for pos, v := range committee {
		if slices.Contains(participants, v) {
			bits.SetBitAt(uint64(pos), true)
			sigs = append(sigs, e.attestationSignature(v, d))
		}
	}
	agg := &attestation.Attestation{AggregationBits: bits, Data: d, Signature: aggregateSignatures(e.t, sigs), CommitteeBits: committeeBits(index)}
	who := committee[0]
	if aggregator != nil {
		who = *aggregator
	} else if a := e.aggregators(d.Slot, index, 1, true); len(a) > 0 {
		who = a[0]
	}
	return e.signedAggregate(who, agg)
}

// signedAggregate is get_aggregate_and_proof and its signature, over the
// fork's AggregateAndProof (in Gloas, the one holding the progressive
// Attestation).
func (e *gsEnv) signedAggregate(aggregator uint64, agg *attestation.Attestation) *attestation.SignedAggregateAndProof {
	aap := &attestation.AggregateAndProof{
		AggregatorIndex: aggregator, Aggregate: agg,
		SelectionProof: e.selectionProof(aggregator, agg.Data.Slot),
	}
	var msg hashRooter = aap
	if e.fork == "gloas" {
		msg = aap.Gloas()
	}
	return &attestation.SignedAggregateAndProof{Message: aap, Signature: e.env().signAggregateAndProofRoot(aggregator, msg, agg.Data.Target.Epoch)}
}

// run sends the messages to a new pool over the node, in order, each at
// its time, and checks each verdict.
func (e *gsEnv) run(msgs []gsMsg) {
	e.t.Helper()
	node := Node{GenesisTime: gsGenesis, Clock: e.clock, Keys: e.keys, Committees: e.head, Forks: e.forks, Chain: e.chain}
	if e.fork == "gloas" {
		// The generators' Gloas states are Gloas from genesis.
		node.Gloas = &GloasNode{ForkEpoch: 0, PTC: memnode.CommitteePTC{Committees: e.head, SlotsPerEpoch: gsSlotsPerEpoch}}
	}
	p, err := New(Config{
		SlotsPerEpoch: gsSlotsPerEpoch, SlotDuration: gsSlotMs * time.Millisecond,
		BatchTime: time.Millisecond, pruneEvery: time.Hour,
	}, node)
	if err != nil {
		e.t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), patience(e.t))
	defer cancel()
	for i, m := range msgs {
		e.clock.Set(gsGenesis.Add(time.Duration(m.ms) * time.Millisecond))
		var got Result
		switch {
		case m.att != nil:
			got = p.ValidateAttestation(ctx, NoPeer, m.att, m.subnet)
		case m.pam != nil:
			got = p.ValidatePayloadAttestation(ctx, NoPeer, m.pam)
		default:
			got = p.ValidateAggregate(ctx, NoPeer, m.sap)
		}
		if got.Verdict != m.want {
			e.t.Errorf("message %d: got %v, want %v (specs: %q)", i, got, m.want, m.reason)
		}
	}
}

// gsCase is one generator case.
type gsCase struct {
	name       string   // the generator's function name
	forks      []string // the forks the generator runs it in
	validators uint64   // 0: gsValidators
	pending    string   // while non-empty, the case waits for this fix
	build      func(e *gsEnv) []gsMsg
}

func runGossipSpecCases(t *testing.T, topic string, cases []gsCase) {
	for _, fork := range gsElectraOn {
		t.Run(fork, func(t *testing.T) {
			for _, c := range cases {
				if !slices.Contains(c.forks, fork) {
					continue
				}
				t.Run(c.name, func(t *testing.T) {
					if c.pending != "" {
						t.Skip("waits for " + c.pending)
					}
					n := c.validators
					if n == 0 {
						n = gsValidators
					}
					e := newGSEnv(t, fork, n)
					e.run(c.build(e))
				})
			}
		})
	}
}

// TestGossipSpecBeaconAttestation runs the ported beacon_attestation cases.
func TestGossipSpecBeaconAttestation(t *testing.T) {
	runGossipSpecCases(t, "beacon_attestation", gsAttestationCases)
}

// TestGossipSpecBeaconAggregateAndProof runs the ported
// beacon_aggregate_and_proof cases.
func TestGossipSpecBeaconAggregateAndProof(t *testing.T) {
	runGossipSpecCases(t, "beacon_aggregate_and_proof", gsAggregateCases)
}

// gsAtSlot1 is the common start of the phase0 generators: the state
// advanced to slot 1 (next_slot), an attestation of committee 0 voting for
// the anchor, with the anchor as target.
func (e *gsEnv) atSlot1() *attestation.AttestationData { return e.data(1, e.anchor, e.anchor) }

// attAt returns the valid attestation of the first member of committee 0 at
// slot (state transitioned there) voting for the anchor.
func (e *gsEnv) attAt(slot uint64) (*attestation.SingleAttestation, uint64) {
	return e.single(e.data(slot, e.anchor, e.anchor), 0, e.first(slot, 0))
}

// singleMsg and aggMsg build messages.
func singleMsg(ms int64, att *attestation.SingleAttestation, subnet uint64, want Verdict, reason string) gsMsg {
	return gsMsg{ms: ms, att: att, subnet: subnet, want: want, reason: reason}
}

func aggMsg(ms int64, sap *attestation.SignedAggregateAndProof, want Verdict, reason string) gsMsg {
	return gsMsg{ms: ms, sap: sap, want: want, reason: reason}
}

// Deneb's epoch window (deneb/networking): an attestation of epoch e is
// accepted from the start of e minus the disparity to the start of e+2 plus
// the disparity.
func windowOpenMs(epoch uint64) int64  { return epochStartMs(epoch) - gsDisparityMs }
func windowCloseMs(epoch uint64) int64 { return epochStartMs(epoch+2) + gsDisparityMs }

// gsWindowCase is one of the deneb generators' ten clock cases: the
// message at slot (advanced there from genesis) voting for the anchor,
// received at ms.
type gsWindowCase struct {
	suffix string
	slot   uint64
	ms     func(slot uint64) int64
	want   Verdict
}

const gsLastSlotOfEpoch2 = 2*gsSlotsPerEpoch + gsSlotsPerEpoch - 1

var gsWindowCases = []gsWindowCase{
	{"accepts_one_millisecond_before_slot_start", 1, func(s uint64) int64 { return slotMs(s) - 1 }, Accept},
	{"accepts_at_slot_start", 1, slotMs, Accept},
	{"ignores_first_slot_before_epoch_window_opens", 2 * gsSlotsPerEpoch, func(uint64) int64 { return windowOpenMs(2) - 1 }, Ignore},
	{"accepts_first_slot_when_epoch_window_opens", 2 * gsSlotsPerEpoch, func(uint64) int64 { return windowOpenMs(2) }, Accept},
	{"accepts_first_slot_when_epoch_window_closes", 2 * gsSlotsPerEpoch, func(uint64) int64 { return windowCloseMs(2) }, Accept},
	{"ignores_first_slot_after_epoch_window_closes", 2 * gsSlotsPerEpoch, func(uint64) int64 { return windowCloseMs(2) + 1 }, Ignore},
	{"accepts_last_slot_one_millisecond_before_slot_start", gsLastSlotOfEpoch2, func(s uint64) int64 { return slotMs(s) - 1 }, Accept},
	{"accepts_last_slot_at_slot_start", gsLastSlotOfEpoch2, slotMs, Accept},
	{"accepts_last_slot_when_epoch_window_closes", gsLastSlotOfEpoch2, func(uint64) int64 { return windowCloseMs(2) }, Accept},
	{"ignores_last_slot_after_epoch_window_closes", gsLastSlotOfEpoch2, func(uint64) int64 { return windowCloseMs(2) + 1 }, Ignore},
}

func gsWindow(prefix string, f func(w gsWindowCase) func(e *gsEnv) []gsMsg) []gsCase {
	out := make([]gsCase, len(gsWindowCases))
	for i, w := range gsWindowCases {
		out[i] = gsCase{name: prefix + w.suffix, forks: gsElectraOn, build: f(w)}
	}
	return out
}

var gsAttestationCases = slices.Concat([]gsCase{
	// phase0/networking/test_gossip_beacon_attestation.py
	{name: "test_gossip_beacon_attestation__valid", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		att, subnet := e.attAt(1)
		return []gsMsg{singleMsg(slotMs(1)+500, att, subnet, Accept, "")}
	}},
	{name: "test_gossip_beacon_attestation__reject_committee_index_out_of_range", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		att, _ := e.attAt(1)
		att.CommitteeIndex = e.committeesPerSlot(0) + 10
		return []gsMsg{singleMsg(slotMs(1)+500, att, 0, Reject, "committee index out of range")}
	}},
	{name: "test_gossip_beacon_attestation__reject_wrong_subnet", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		att, subnet := e.attAt(1)
		return []gsMsg{singleMsg(slotMs(1)+500, att, (subnet+1)%AttestationSubnetCount, Reject, "attestation is for wrong subnet")}
	}},
	{name: "test_gossip_beacon_attestation__valid_within_clock_disparity", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		att, subnet := e.attAt(1)
		return []gsMsg{singleMsg(slotMs(1)-gsDisparityMs, att, subnet, Accept, "")}
	}},
	{name: "test_gossip_beacon_attestation__reject_epoch_mismatch", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		d := e.atSlot1()
		d.Target.Epoch = 100 // signed with the modified data
		att, subnet := e.single(d, 0, e.first(1, 0))
		return []gsMsg{singleMsg(slotMs(1)+500, att, subnet, Reject, "attestation epoch does not match target epoch")}
	}},
	{name: "test_gossip_beacon_attestation__ignore_already_seen", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		att, subnet := e.attAt(1)
		return []gsMsg{
			singleMsg(slotMs(1)+500, att, subnet, Accept, ""),
			singleMsg(slotMs(1)+600, att, subnet, Ignore, "already seen attestation for this epoch and validator"),
		}
	}},
	{name: "test_gossip_beacon_attestation__ignore_block_not_seen", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		block := gsRoot("block at slot 2, not in the store")
		att, subnet := e.single(e.data(2, block, e.anchor), 0, e.first(2, 0))
		return []gsMsg{singleMsg(slotMs(2)+500, att, subnet, Ignore, "block being voted for has not been seen")}
	}},
	{name: "test_gossip_beacon_attestation__reject_block_failed_validation", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		block := e.addBlock("failed block at slot 2", 2, e.anchor, false)
		att, subnet := e.single(e.data(2, block, e.anchor), 0, e.first(2, 0))
		return []gsMsg{singleMsg(slotMs(2)+500, att, subnet, Reject, "block being voted for failed validation")}
	}},
	{name: "test_gossip_beacon_attestation__reject_invalid_signature", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		att, subnet := e.attAt(1)
		att.Signature = [96]byte{}
		return []gsMsg{singleMsg(slotMs(1)+500, att, subnet, Reject, "invalid attestation signature")}
	}},
	{name: "test_gossip_beacon_attestation__reject_target_not_ancestor", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		d := e.data(1, e.anchor, [32]byte(slices.Repeat([]byte{0xcd}, 32)))
		att, subnet := e.single(d, 0, e.first(1, 0))
		return []gsMsg{singleMsg(slotMs(1)+500, att, subnet, Reject, "target block is not an ancestor of LMD vote block")}
	}},
	{name: "test_gossip_beacon_attestation__ignore_finalized_not_ancestor", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		block := e.addBlock("block at slot 2", 2, e.anchor, true)
		att, subnet := e.single(e.data(2, block, e.anchor), 0, e.first(2, 0))
		e.chain.SetFinalized(attestation.Checkpoint{Epoch: 0, Root: [32]byte(slices.Repeat([]byte{0xef}, 32))})
		return []gsMsg{singleMsg(slotMs(2)+500, att, subnet, Ignore, "finalized checkpoint is not an ancestor of block")}
	}},
},
	// deneb/networking/test_gossip_beacon_attestation.py
	gsWindow("test_gossip_beacon_attestation__", func(w gsWindowCase) func(e *gsEnv) []gsMsg {
		return func(e *gsEnv) []gsMsg {
			e.head.epoch = w.slot / gsSlotsPerEpoch // transition_to(w.slot)
			d := e.data(w.slot, e.anchor, e.anchor)
			att, subnet := e.single(d, 0, e.first(w.slot, 0))
			return []gsMsg{singleMsg(w.ms(w.slot), att, subnet, w.want, "")}
		}
	}),
	[]gsCase{
		// electra/networking/test_gossip_beacon_attestation.py
		{name: "test_gossip_beacon_attestation__reject_nonzero_data_index", forks: gsElectraFulu, build: func(e *gsEnv) []gsMsg {
			att, subnet := e.attAt(1)
			att.Data.Index = 1
			return []gsMsg{singleMsg(slotMs(1)+500, att, subnet, Reject, "attestation data index is non-zero")}
		}},
		{name: "test_gossip_beacon_attestation__reject_attester_not_in_committee", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
			att, subnet := e.attAt(1)
			att.AttesterIndex = e.outsider(1, 0)
			return []gsMsg{singleMsg(slotMs(1)+500, att, subnet, Reject, "attester is not a member of the committee")}
		}},
		// gloas/networking/test_gossip_beacon_attestation.py
		{name: "test_gossip_beacon_attestation__reject_data_index_too_high", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
			att, subnet := e.attAt(1)
			att.Data.Index = 2
			return []gsMsg{singleMsg(slotMs(1)+500, att, subnet, Reject, "attestation data index must be 0 or 1")}
		}},
		{name: "test_gossip_beacon_attestation__reject_same_slot_with_payload", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
			att, subnet := e.single(e.sameSlotData(1), 0, e.first(1, 0))
			return []gsMsg{singleMsg(slotMs(1)+500, att, subnet, Reject, "same-slot attestation must attest with index 0")}
		}},
		{name: "test_gossip_beacon_attestation__valid_same_slot_index_zero", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
			att, subnet := e.single(e.sameSlotData(0), 0, e.first(1, 0))
			return []gsMsg{singleMsg(slotMs(1)+500, att, subnet, Accept, "")}
		}},
	},
	gsPayloadCases("test_gossip_beacon_attestation__", func(e *gsEnv, d *attestation.AttestationData, want Verdict, reason string) gsMsg {
		att, subnet := e.single(d, 0, e.first(d.Slot, 0))
		return singleMsg(slotMs(d.Slot)+500, att, subnet, want, reason)
	}),
)

// sameSlotData is prepare_same_slot_attestation's data: a block at slot 1
// in the store and the slot-1 vote for it with data.index payloadIndex.
func (e *gsEnv) sameSlotData(payloadIndex uint64) *attestation.AttestationData {
	block := e.addBlock("block at slot 1", 1, e.anchor, true)
	d := e.data(1, block, e.anchor)
	d.Index = payloadIndex
	return d
}

// gsPayloadCase is one of prepare_past_slot_attestation's cases: a block
// at slot 1 (with its payload envelope delivered or not, and an EL status or
// none), voted for at slot 2 with data.index 1 (payload present).
type gsPayloadCase struct {
	suffix string
	status PayloadStatus // what the node knows: envelope and EL status
	want   Verdict
	reason string
}

var gsPayloadStatusCases = []gsPayloadCase{
	{"ignore_payload_envelope_unseen", PayloadUnverified, Ignore, "execution payload envelope has not been seen"},
	// envelope delivered, PAYLOAD_STATUS_NOT_VALIDATED
	{"ignore_payload_pending_el_validation", PayloadOptimistic, Ignore, "attested payload is optimistic"},
	// envelope delivered, PAYLOAD_STATUS_INVALIDATED
	{"reject_payload_failed_el_validation", PayloadInvalidated, Reject, "attested payload is invalid"},
	// envelope delivered, PAYLOAD_STATUS_VALID
	{"valid_payload_validated", PayloadValid, Accept, ""},
	// PAYLOAD_STATUS_VALID but the envelope never delivered:
	// is_payload_verified is false.
	{"ignore_payload_status_without_envelope", PayloadUnverified, Ignore, "execution payload envelope has not been seen"},
}

func gsPayloadCases(prefix string, msg func(e *gsEnv, d *attestation.AttestationData, want Verdict, reason string) gsMsg) []gsCase {
	out := make([]gsCase, len(gsPayloadStatusCases))
	for i, c := range gsPayloadStatusCases {
		out[i] = gsCase{name: prefix + c.suffix, forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
			block := e.addBlock("block at slot 1", 1, e.anchor, true)
			e.chain.SetPayloadStatus(block, c.status)
			d := e.data(2, block, e.anchor)
			d.Index = 1
			return []gsMsg{msg(e, d, c.want, c.reason)}
		}}
	}
	return out
}

// outsider is the lowest validator index not in the committee.
func (e *gsEnv) outsider(slot, index uint64) uint64 {
	committee := e.committee(slot, index)
	for v := uint64(0); ; v++ {
		if !slices.Contains(committee, v) {
			return v
		}
	}
}

// sorted returns the committee's members in index order.
func (e *gsEnv) sorted(slot, index uint64) []uint64 {
	return slices.Sorted(slices.Values(e.committee(slot, index)))
}

func (e *gsEnv) aggAt1() *attestation.SignedAggregateAndProof {
	return e.aggregate(e.atSlot1(), 0, nil, nil)
}

var gsAggregateCases = slices.Concat([]gsCase{
	// phase0/networking/test_gossip_beacon_aggregate_and_proof.py
	{name: "test_gossip_beacon_aggregate_and_proof__valid", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		return []gsMsg{aggMsg(slotMs(1)+500, e.aggAt1(), Accept, "")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__reject_committee_index_out_of_range", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sap := e.aggAt1()
		sap.Message.Aggregate.CommitteeBits = committeeBits(e.committeesPerSlot(0))
		return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "committee index out of range")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__valid_within_clock_disparity", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		return []gsMsg{aggMsg(slotMs(1)-gsDisparityMs, e.aggAt1(), Accept, "")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__reject_epoch_mismatch", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sap := e.aggAt1()
		sap.Message.Aggregate.Data.Target.Epoch = 100 // after signing
		return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "attestation epoch does not match target epoch")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__ignore_already_seen_aggregate", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sap := e.aggAt1()
		return []gsMsg{
			aggMsg(slotMs(1)+500, sap, Accept, ""),
			aggMsg(slotMs(1)+600, sap, Ignore, "already seen aggregate for this data"),
		}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__ignore_same_data_root_without_superset", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sorted := e.sorted(1, 0)
		first := e.aggregate(e.atSlot1(), 0, sorted[:1], nil)
		aggregator := first.Message.AggregatorIndex
		second := e.aggregate(e.atSlot1(), 0, sorted[:2], &aggregator)
		return []gsMsg{
			aggMsg(slotMs(1)+500, first, Accept, ""),
			aggMsg(slotMs(1)+600, second, Ignore, "already seen aggregate for this epoch and aggregator"),
		}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__valid_two_aggregators_same_data", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sorted := e.sorted(1, 0)
		aggregators := e.aggregators(1, 0, 2, true)
		if len(aggregators) != 2 {
			e.t.Fatal("need two aggregators in the committee")
		}
		return []gsMsg{
			aggMsg(slotMs(1)+500, e.aggregate(e.atSlot1(), 0, sorted[:1], &aggregators[0]), Accept, ""),
			aggMsg(slotMs(1)+600, e.aggregate(e.atSlot1(), 0, sorted[1:2], &aggregators[1]), Accept, ""),
		}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__ignore_block_not_seen", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		block := gsRoot("block at slot 2, not in the store")
		sap := e.aggregate(e.data(2, block, e.anchor), 0, nil, nil)
		return []gsMsg{aggMsg(slotMs(2)+500, sap, Ignore, "block being voted for has not been seen")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__reject_aggregation_bits_size_mismatch", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sap := e.aggAt1()
		bits := bitfield.NewBitlist(uint64(len(e.committee(1, 0))) + 5)
		bits.SetBitAt(0, true)
		sap.Message.Aggregate.AggregationBits = bits
		return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "aggregation bits length does not match committee size")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__reject_no_participants", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sap := e.aggAt1()
		sap.Message.Aggregate.AggregationBits = bitfield.NewBitlist(uint64(len(e.committee(1, 0))))
		return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "aggregate has no participants")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__ignore_already_seen_aggregator", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		first := e.aggAt1()
		aggregator := first.Message.AggregatorIndex
		other := e.data(1, [32]byte(slices.Repeat([]byte{0xab}, 32)), e.anchor)
		second := e.aggregate(other, 0, nil, &aggregator)
		return []gsMsg{
			aggMsg(slotMs(1)+500, first, Accept, ""),
			aggMsg(slotMs(1)+600, second, Ignore, "already seen aggregate for this epoch and aggregator"),
		}
	}},
	// with_presets([MAINNET]) and 32 * SLOTS_PER_EPOCH validators, so that
	// committees of 32 have non-aggregators.
	{name: "test_gossip_beacon_aggregate_and_proof__reject_not_aggregator", forks: gsElectraOn, validators: 32 * gsSlotsPerEpoch, build: func(e *gsEnv) []gsMsg {
		non := e.aggregators(1, 0, 1, false)
		if len(non) == 0 {
			e.t.Fatal("no non-aggregator in the committee")
		}
		sap := e.aggregate(e.atSlot1(), 0, nil, &non[0])
		return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "validator is not selected as aggregator")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__reject_aggregator_not_in_committee", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sap := e.aggAt1()
		sap.Message.AggregatorIndex = e.outsider(1, 0) // not re-signed
		return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "aggregator index not in committee")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__reject_aggregator_index_out_of_range", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sap := e.aggAt1()
		sap.Message.AggregatorIndex = gsValidators + 1
		return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "aggregator index not in committee")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__reject_invalid_selection_proof", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sap := e.aggAt1()
		sap.Message.SelectionProof = [96]byte{}
		return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "invalid selection proof signature")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__reject_invalid_aggregator_signature", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sap := e.aggAt1()
		sap.Signature = [96]byte{}
		return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "invalid aggregator signature")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__reject_invalid_aggregate_signature", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		// The aggregate's signature is zeros before the aggregator signs it.
		sap := e.aggAt1()
		agg := sap.Message.Aggregate
		agg.Signature = [96]byte{}
		sap = e.signedAggregate(sap.Message.AggregatorIndex, agg)
		return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "invalid aggregate signature")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__reject_block_failed_validation", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		block := e.addBlock("failed block at slot 2", 2, e.anchor, false)
		sap := e.aggregate(e.data(2, block, e.anchor), 0, nil, nil)
		return []gsMsg{aggMsg(slotMs(2)+500, sap, Reject, "block being voted for failed validation")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__reject_target_not_ancestor", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sap := e.aggregate(e.data(1, e.anchor, [32]byte(slices.Repeat([]byte{0xcd}, 32))), 0, nil, nil)
		return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "target block is not an ancestor of LMD vote block")}
	}},
	{name: "test_gossip_beacon_aggregate_and_proof__ignore_finalized_not_ancestor", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
		sap := e.aggAt1()
		e.chain.SetFinalized(attestation.Checkpoint{Epoch: 0, Root: [32]byte(slices.Repeat([]byte{0xef}, 32))})
		return []gsMsg{aggMsg(slotMs(1)+500, sap, Ignore, "finalized checkpoint is not an ancestor of block")}
	}},
},
	// deneb/networking/test_gossip_beacon_aggregate_and_proof.py
	gsWindow("test_gossip_beacon_aggregate_and_proof__", func(w gsWindowCase) func(e *gsEnv) []gsMsg {
		return func(e *gsEnv) []gsMsg {
			e.head.epoch = w.slot / gsSlotsPerEpoch // transition_to(w.slot)
			sap := e.aggregate(e.data(w.slot, e.anchor, e.anchor), 0, nil, nil)
			return []gsMsg{aggMsg(w.ms(w.slot), sap, w.want, "")}
		}
	}),
	[]gsCase{
		// electra/networking/test_gossip_beacon_aggregate_and_proof.py
		// with_presets([MINIMAL], "need multiple committees per slot"): two
		// committees per slot here from 8192 validators.
		{name: "test_gossip_beacon_aggregate_and_proof__accept_same_data_for_disjoint_committees", forks: gsElectraOn, validators: 2 * gsSlotsPerEpoch * 128, build: func(e *gsEnv) []gsMsg {
			if e.committeesPerSlot(0) < 2 {
				e.t.Fatal("need at least two committees in the current slot")
			}
			d := e.atSlot1()
			first := e.aggregate(d, 0, e.sorted(1, 0)[:1], nil)
			second := e.aggregate(d.Copy(), 1, e.sorted(1, 1)[:1], nil)
			return []gsMsg{
				aggMsg(slotMs(1)+500, first, Accept, ""),
				aggMsg(slotMs(1)+600, second, Accept, ""),
			}
		}},
		{name: "test_gossip_beacon_aggregate_and_proof__reject_nonzero_data_index", forks: gsElectraFulu, build: func(e *gsEnv) []gsMsg {
			sap := e.aggAt1()
			sap.Message.Aggregate.Data.Index = 1
			return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "aggregate data index is non-zero")}
		}},
		{name: "test_gossip_beacon_aggregate_and_proof__reject_zero_committees", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
			sap := e.aggAt1()
			sap.Message.Aggregate.CommitteeBits = bitfield.NewBitvector64()
			return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "aggregate committee bits must specify exactly one committee")}
		}},
		{name: "test_gossip_beacon_aggregate_and_proof__reject_multiple_committees", forks: gsElectraOn, build: func(e *gsEnv) []gsMsg {
			sap := e.aggAt1()
			cb := bitfield.NewBitvector64()
			cb.SetBitAt(0, true)
			cb.SetBitAt(1, true)
			sap.Message.Aggregate.CommitteeBits = cb
			return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "aggregate committee bits must specify exactly one committee")}
		}},
		// gloas/networking/test_gossip_beacon_aggregate_and_proof.py
		{name: "test_gossip_beacon_aggregate_and_proof__reject_data_index_too_high", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
			sap := e.aggAt1()
			sap.Message.Aggregate.Data.Index = 2
			return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "aggregate data index must be 0 or 1")}
		}},
		{name: "test_gossip_beacon_aggregate_and_proof__reject_same_slot_with_payload", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
			sap := e.aggregate(e.sameSlotData(1), 0, nil, nil)
			return []gsMsg{aggMsg(slotMs(1)+500, sap, Reject, "same-slot attestation must attest with index 0")}
		}},
	},
	gsPayloadCases("test_gossip_beacon_aggregate_and_proof__", func(e *gsEnv, d *attestation.AttestationData, want Verdict, reason string) gsMsg {
		return aggMsg(slotMs(d.Slot)+500, e.aggregate(d, 0, nil, nil), want, reason)
	}),
)

// gloas/networking/test_gossip_payload_attestation_message.py: every case
// (with_gloas_and_later). setup_store_with_one_block: a block at slot 1 in
// the store; the message of the slot's first PTC member (CommitteePTC of
// the in-memory node) for it, received 100 ms into slot 1 unless the case
// says otherwise.

// TestGossipSpecPayloadAttestationMessage runs the ported
// payload_attestation_message cases.
func TestGossipSpecPayloadAttestationMessage(t *testing.T) {
	runGossipSpecCases(t, "payload_attestation_message", gsPTCCases)
}

// ptcMember is the first member of slot's PTC.
func (e *gsEnv) ptcMember(slot uint64) uint64 {
	ptc, ok := e.ptc().PTC(slot)
	if !ok {
		e.t.Fatalf("no PTC at slot %d", slot)
	}
	return ptc[0]
}

func (e *gsEnv) ptc() PTCs {
	return memnode.CommitteePTC{Committees: e.head, SlotsPerEpoch: gsSlotsPerEpoch}
}

// payloadAttestation is build_payload_attestation_message (payload present,
// blob data available), signed unless signed is false.
func (e *gsEnv) payloadAttestation(validator, slot uint64, block [32]byte, signed bool) *attestation.PayloadAttestationMessage {
	d := &attestation.PayloadAttestationData{BeaconBlockRoot: block, Slot: slot, PayloadPresent: true, BlobDataAvailable: true}
	msg := &attestation.PayloadAttestationMessage{ValidatorIndex: validator, Data: d}
	if signed {
		root, err := ssz.ComputeSigningRoot(d, e.domain(ssz.DomainPTCAttester, slot/gsSlotsPerEpoch))
		if err != nil {
			e.t.Fatal(err)
		}
		msg.Signature = e.signRoot(validator, root)
	}
	return msg
}

func ptcMsg(ms int64, msg *attestation.PayloadAttestationMessage, want Verdict, reason string) gsMsg {
	return gsMsg{ms: ms, pam: msg, want: want, reason: reason}
}

// oneBlock is setup_store_with_one_block: the block at slot 1.
func (e *gsEnv) oneBlock() [32]byte { return e.addBlock("block at slot 1", 1, e.anchor, true) }

// ptcAt is the slot-1 message of the first PTC member at ms, with its
// verdict.
func (e *gsEnv) ptcAt(ms int64, want Verdict, reason string) []gsMsg {
	return []gsMsg{ptcMsg(ms, e.payloadAttestation(e.ptcMember(1), 1, e.oneBlock(), true), want, reason)}
}

const gsNotCurrentSlot = "payload attestation's slot is not the current slot"

var gsPTCCases = []gsCase{
	{name: "test_gossip_payload_attestation_message__valid", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		return e.ptcAt(slotMs(1)+100, Accept, "")
	}},
	{name: "test_gossip_payload_attestation_message__ignore_not_current_slot", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		return e.ptcAt(slotMs(1)+1000*1000, Ignore, gsNotCurrentSlot)
	}},
	{name: "test_gossip_payload_attestation_message__valid_slot_at_lower_disparity", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		return e.ptcAt(slotMs(1)-gsDisparityMs, Accept, "")
	}},
	{name: "test_gossip_payload_attestation_message__ignore_slot_outside_lower_disparity", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		return e.ptcAt(slotMs(1)-gsDisparityMs-1, Ignore, gsNotCurrentSlot)
	}},
	{name: "test_gossip_payload_attestation_message__valid_slot_at_upper_disparity", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		return e.ptcAt(slotMs(2)+gsDisparityMs, Accept, "")
	}},
	{name: "test_gossip_payload_attestation_message__ignore_slot_outside_upper_disparity", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		return e.ptcAt(slotMs(2)+gsDisparityMs+1, Ignore, gsNotCurrentSlot)
	}},
	{name: "test_gossip_payload_attestation_message__ignore_duplicate", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		msg := e.payloadAttestation(e.ptcMember(1), 1, e.oneBlock(), true)
		return []gsMsg{
			ptcMsg(slotMs(1)+100, msg, Accept, ""),
			ptcMsg(slotMs(1)+200, msg, Ignore, "already seen payload attestation from this validator"),
		}
	}},
	{name: "test_gossip_payload_attestation_message__ignore_block_unseen", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		e.oneBlock()
		msg := e.payloadAttestation(e.ptcMember(1), 1, [32]byte(slices.Repeat([]byte{0xee}, 32)), true)
		return []gsMsg{ptcMsg(slotMs(1)+100, msg, Ignore, "payload attestation's block has not been seen")}
	}},
	{name: "test_gossip_payload_attestation_message__reject_validator_not_in_ptc", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		ptc, _ := e.ptc().PTC(1)
		outsider := uint64(0)
		for slices.Contains(ptc, outsider) {
			outsider++
		}
		msg := e.payloadAttestation(outsider, 1, e.oneBlock(), true)
		return []gsMsg{ptcMsg(slotMs(1)+100, msg, Reject, "validator is not in the payload timeliness committee")}
	}},
	{name: "test_gossip_payload_attestation_message__reject_invalid_signature", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		msg := e.payloadAttestation(e.ptcMember(1), 1, e.oneBlock(), false)
		return []gsMsg{ptcMsg(slotMs(1)+100, msg, Reject, "invalid payload attestation signature")}
	}},
	{name: "test_gossip_payload_attestation_message__reject_block_failed_validation", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		// setup_store_with_failed_block: the slot-1 block fails import.
		block := e.addBlock("failed block at slot 1", 1, e.anchor, false)
		msg := e.payloadAttestation(e.ptcMember(1), 1, block, true)
		return []gsMsg{ptcMsg(slotMs(1)+100, msg, Reject, "payload attestation's block failed validation")}
	}},
	{name: "test_gossip_payload_attestation_message__reject_validator_index_out_of_range", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		msg := e.payloadAttestation(gsValidators, 1, e.oneBlock(), false)
		return []gsMsg{ptcMsg(slotMs(1)+100, msg, Reject, "validator index out of range")}
	}},
	{name: "test_gossip_payload_attestation_message__ignore_block_not_at_assigned_slot", forks: gsGloasOn, build: func(e *gsEnv) []gsMsg {
		// The state advanced to slot 2 with no block there: slot 2's PTC
		// attests to the slot-1 block.
		msg := e.payloadAttestation(e.ptcMember(2), 2, e.oneBlock(), true)
		return []gsMsg{ptcMsg(slotMs(2)+100, msg, Ignore, "payload attestation's block is not at the assigned slot")}
	}},
}
