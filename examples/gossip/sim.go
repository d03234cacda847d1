package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
	"github.com/attpool/attpool/ssz"
)

// kind is what a simulated message is: a valid attestation or one of the
// injected faults, each with the verdict and rule the pool must give it.
type kind uint8

const (
	valid kind = iota
	invalidSignature
	nilMessage
	nilData
	badSignatureEncoding
	signatureNotInG2
	wrongSubnet
	committeeOutOfRange
	notInCommittee
	futureSlot
	staleEpoch
	duplicate
	numKinds
)

// family groups the fault kinds that one flag gives the share of.
type family uint8

const (
	famValid     family = iota
	famInvalid          // -invalid
	famMalformed        // -malformed
	famWindow           // -window
	famDuplicate        // -duplicates
)

// kinds describes every kind: its name (the report's key), its family,
// what the simulation does to the message, and the expected verdict with the
// sentinel of the rule (nil for Accept).
var kinds = [numKinds]struct {
	name    string
	family  family
	what    string
	verdict pool.Verdict
	rule    error
}{
	valid:                {"valid", famValid, "signed attestation of a committee member", pool.Accept, nil},
	invalidSignature:     {"invalid_signature", famInvalid, "another attester's signature (a valid G2 point)", pool.Reject, pool.ErrInvalidSignature},
	nilMessage:           {"nil_message", famMalformed, "no attestation at all", pool.Reject, pool.ErrMalformed},
	nilData:              {"nil_data", famMalformed, "attestation without data", pool.Reject, pool.ErrMalformed},
	badSignatureEncoding: {"bad_signature_encoding", famMalformed, "signature bytes that do not decode", pool.Reject, pool.ErrInvalidSignature},
	signatureNotInG2:     {"signature_not_in_g2", famMalformed, "signature on the curve but outside G2", pool.Reject, pool.ErrInvalidSignature},
	wrongSubnet:          {"wrong_subnet", famMalformed, "sent on the next subnet", pool.Reject, pool.ErrWrongSubnet},
	committeeOutOfRange:  {"committee_out_of_range", famMalformed, "committee index = committees per slot", pool.Reject, pool.ErrCommitteeIndex},
	notInCommittee:       {"not_in_committee", famMalformed, "attester index of a non-member", pool.Reject, pool.ErrNotInCommittee},
	futureSlot:           {"future_slot", famWindow, "signed vote for the next slot, 8s early", pool.Ignore, pool.ErrFutureSlot},
	staleEpoch:           {"stale_epoch", famWindow, "signed vote from two epochs ago", pool.Ignore, pool.ErrEpochWindow},
	duplicate:            {"duplicate", famDuplicate, "copy of an accepted message, sent after its verdict", pool.Ignore, pool.ErrAlreadySeen},
}

func (k kind) String() string { return kinds[k].name }

// expected is the verdict k must get, as a Result.
func (k kind) expected() pool.Result {
	return pool.Result{Verdict: kinds[k].verdict, Err: kinds[k].rule}
}

// matches reports whether r is the verdict k must get: the same verdict,
// and an error wrapping the same rule.
func (k kind) matches(r pool.Result) bool {
	return pooltest.Matches(r, kinds[k].verdict, kinds[k].rule)
}

// message is one simulated gossip message.
type message struct {
	att    *attestation.SingleAttestation // nil for nilMessage
	subnet uint64
	kind   kind
	// late messages are sent once every other message of the slot has its
	// verdict (copies re-gossiped by slower peers).
	late bool
}

// validator is the index the message claims, for the report (-1 if none).
func (m *message) validator() int64 {
	if m.att == nil {
		return -1
	}
	return int64(m.att.AttesterIndex)
}

// slotLoad is the traffic of one slot: clean is every member of every
// committee attesting once, validly; gossip is the same with the faults
// injected (faulty copies replace some of clean's messages; duplicates and
// the out-of-window votes of other validators are added).
type slotLoad struct {
	slot     uint64
	clean    []message
	gossip   []message
	accepted int // messages of gossip expected to be accepted

	// The slot's aggregates: every aggregator's, valid (aggClean), and with
	// the faults of the shares (aggGossip).
	aggClean, aggGossip []pooltest.AggregateMsg
	// With -ptc, the slot's payload attestations, valid and with the
	// invalid share.
	ptcClean, ptcGossip []ptcMsg
}

// shares are the fractions of a slot's attestations turned into faults of
// each family (see the flags).
type shares struct {
	Invalid    float64 `json:"invalid"`
	Malformed  float64 `json:"malformed"`
	Window     float64 `json:"window"`
	Duplicates float64 `json:"duplicates"`
}

// plan is which messages of a slot become which fault, decided from the
// seed before any key exists (so that the keys of the out-of-window voters
// can be derived with the others).
type plan struct {
	slot    uint64
	inPlace map[int]kind // index into the slot's attestations -> fault
	dups    []int        // indices copied late
	extra   []extraVote  // out-of-window votes of other validators
}

type extraVote struct {
	kind      kind
	slot      uint64 // the vote's slot
	committee uint64
	validator uint64
}

// familyCount is how many messages of n a share gives each of kinds
// kinds of a family: the rounded share, at least one of each kind when the
// share is not zero.
func familyCount(share float64, n, kinds int) int {
	if share <= 0 {
		return 0
	}
	return max(1, int(math.Round(share*float64(n)/float64(kinds))))
}

// kindsOf lists the kinds of a family in order.
func kindsOf(f family) []kind {
	var out []kind
	for k := range numKinds {
		if kinds[k].family == f {
			out = append(out, k)
		}
	}
	return out
}

// attestersOn returns the members of the committees of slot on the subnets
// below subnets, in committee order (the order of signSlotSubnets).
func attestersOn(net *pooltest.Network, slot, subnets uint64) []uint64 {
	sg := signer{net: net}
	cps, _ := net.Committees.CommitteeCountPerSlot(slot / net.SlotsPerEpoch)
	var out []uint64
	for ci := range cps {
		if sg.subnet(slot, ci) < subnets {
			c, _ := net.Committees.BeaconCommittee(slot, ci)
			out = append(out, c...)
		}
	}
	return out
}

// lowerShares is what to do when a slot's messages cannot hold the faults.
const lowerShares = "lower -invalid, -malformed, -window or -duplicates, or raise -validators or -subnets"

// planSlot chooses the faulty messages among the attestations of slot on
// the subnets below subnets, with an RNG seeded by seed and the slot: the
// same flags give the same faults. A node on no subnet gets no attestation
// at all.
func planSlot(net *pooltest.Network, slot uint64, sh shares, seed, subnets uint64) (plan, error) {
	n := len(attestersOn(net, slot, subnets))
	rng := rand.New(rand.NewPCG(seed, slot))
	perm := rng.Perm(n)
	pl := plan{slot: slot, inPlace: map[int]kind{}}
	if n == 0 {
		return pl, nil
	}
	take := func(k int) ([]int, error) {
		if k > len(perm) {
			return nil, fmt.Errorf("slot %d: its %d attestations cannot hold the faults asked for: %s", slot, n, lowerShares)
		}
		out := perm[:k]
		perm = perm[k:]
		return out, nil
	}
	for _, f := range []struct {
		fam   family
		share float64
	}{{famInvalid, sh.Invalid}, {famMalformed, sh.Malformed}} {
		ks := kindsOf(f.fam)
		c := familyCount(f.share, n, len(ks))
		for _, k := range ks {
			idx, err := take(c)
			if err != nil {
				return pl, err
			}
			for _, i := range idx {
				pl.inPlace[i] = k
			}
		}
	}
	idx, err := take(familyCount(sh.Duplicates, n, 1))
	if err != nil {
		return pl, err
	}
	pl.dups = slices.Clone(idx)

	// Out-of-window votes come from the members of the committees of the
	// next slot (too early) and of the slot two epochs back (too late).
	spe := net.SlotsPerEpoch
	c := familyCount(sh.Window, n, 2)
	for _, k := range []kind{futureSlot, staleEpoch} {
		voteSlot := slot + 1
		if k == staleEpoch {
			if slot < 2*spe {
				return pl, fmt.Errorf("slot %d: no slot two epochs back", slot)
			}
			voteSlot = slot - 2*spe
		}
		cps, _ := net.Committees.CommitteeCountPerSlot(voteSlot / spe)
		for range c {
			ci := rng.Uint64N(cps)
			members, _ := net.Committees.BeaconCommittee(voteSlot, ci)
			v := members[rng.IntN(len(members))]
			pl.extra = append(pl.extra, extraVote{kind: k, slot: voteSlot, committee: ci, validator: v})
		}
	}
	return pl, nil
}

// signer signs the AttestationData of the simulation.
type signer struct {
	net *pooltest.Network
}

// signingRoot is the root a validator signs for msg, a message of slot,
// under the domain of type dt: an attester's for its AttestationData
// (ssz.DomainBeaconAttester), a PTC member's for its PayloadAttestationData
// (ssz.DomainPTCAttester).
func (s signer) signingRoot(dt ssz.DomainType, slot uint64, msg interface{ HashTreeRoot() ([32]byte, error) }) ([32]byte, error) {
	domain, err := ssz.ComputeDomain(dt, s.net.Forks.ForkVersion(slot/s.net.SlotsPerEpoch), s.net.Forks.GenesisValidatorsRoot())
	if err != nil {
		return [32]byte{}, err
	}
	root, err := msg.HashTreeRoot()
	if err != nil {
		return [32]byte{}, err
	}
	return ssz.ComputeSigningRootFromRoot(root, domain), nil
}

// subnet is the subnet of committee's attestations at slot.
func (s signer) subnet(slot, committee uint64) uint64 {
	cps, _ := s.net.Committees.CommitteeCountPerSlot(slot / s.net.SlotsPerEpoch)
	return pool.ComputeSubnetForAttestation(s.net.SlotsPerEpoch, cps, slot, committee)
}

// signSlot returns the valid attestation of every member of every committee
// of slot, all for the slot's block, signed in parallel (bar counts them).
func (s signer) signSlot(slot uint64, bar *progress) ([]message, error) {
	return s.signSlotSubnets(slot, pool.AttestationSubnetCount, bar)
}

// signSlotSubnets is signSlot for the committees whose subnet is below
// subnets: a node subscribed to subnets 0 to subnets-1.
func (s signer) signSlotSubnets(slot, subnets uint64, bar *progress) ([]message, error) {
	d := s.net.Data(slot)
	root, err := s.signingRoot(ssz.DomainBeaconAttester, d.Slot, d)
	if err != nil {
		return nil, err
	}
	h := crypto.HashMessage(root[:])
	cps, _ := s.net.Committees.CommitteeCountPerSlot(slot / s.net.SlotsPerEpoch)
	var msgs []message
	for ci := range cps {
		members, _ := s.net.Committees.BeaconCommittee(slot, ci)
		subnet := s.subnet(slot, ci)
		if subnet >= subnets {
			continue
		}
		for _, v := range members {
			msgs = append(msgs, message{
				att:    &attestation.SingleAttestation{CommitteeIndex: ci, AttesterIndex: v, Data: d},
				subnet: subnet,
			})
		}
	}
	signAll(len(msgs), func(i int) {
		msgs[i].att.Signature = mulSign(s.net.Keys.SecretKey(msgs[i].att.AttesterIndex), h)
		bar.Add(1)
	})
	return msgs, nil
}

// signVote returns the valid attestation of one validator for the block of
// slot (the out-of-window votes).
func (s signer) signVote(e extraVote) (message, error) {
	d := s.net.Data(e.slot)
	root, err := s.signingRoot(ssz.DomainBeaconAttester, d.Slot, d)
	if err != nil {
		return message{}, err
	}
	sig := crypto.Sign(s.net.Keys.SecretKey(e.validator), root[:])
	return message{
		att:    &attestation.SingleAttestation{CommitteeIndex: e.committee, AttesterIndex: e.validator, Data: d, Signature: sig.Bytes()},
		subnet: s.subnet(e.slot, e.committee),
		kind:   e.kind,
	}, nil
}

// offCurveSignatures returns two compressed G2 encodings made from rng: one
// of a point on the curve outside G2 (it decodes without the subgroup check,
// so only the verifier can catch it) and one of an x with no point on the
// curve (it does not decode).
func offCurveSignatures(rng *rand.Rand) (notInG2, noPoint [crypto.SignatureSize]byte) {
	var haveNotInG2, haveNoPoint bool
	for !haveNotInG2 || !haveNoPoint {
		var b [crypto.SignatureSize]byte
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		// x = c1 + c0*u, big-endian c1 then c0, each below p (whose top
		// byte is 0x1a); the three flag bits: compressed, not infinity.
		b[0] = 0x80 | b[0]&0x0f
		b[48] &= 0x0f
		var s crypto.Signature
		if _, err := s.SetBytesNoSubgroupCheck(b[:]); err != nil {
			noPoint, haveNoPoint = b, true
		} else if !s.InG2() {
			notInG2, haveNotInG2 = b, true
		}
	}
	return notInG2, noPoint
}

// inject builds the gossip load of a slot from its clean attestations and
// its plan.
func (s signer) inject(clean []message, pl plan, extra []message, seed uint64) slotLoad {
	l := slotLoad{slot: pl.slot, clean: clean}
	rng := rand.New(rand.NewPCG(seed^0x5eed, pl.slot))
	notInG2, noPoint := offCurveSignatures(rng)
	cps, _ := s.net.Committees.CommitteeCountPerSlot(pl.slot / s.net.SlotsPerEpoch)
	gossip := make([]message, 0, len(clean)+len(pl.dups)+len(extra))
	for i, m := range clean {
		k, faulty := pl.inPlace[i]
		if !faulty {
			gossip = append(gossip, m)
			l.accepted++
			continue
		}
		att := *m.att // a copy: clean keeps the valid one
		m.att, m.kind = &att, k
		switch k {
		case invalidSignature:
			// A valid point, but the next attester's signature.
			att.Signature = clean[(i+1)%len(clean)].att.Signature
			if len(clean) == 1 {
				att.Signature = notInG2
			}
		case nilMessage:
			m.att = nil
		case nilData:
			att.Data = nil
		case badSignatureEncoding:
			att.Signature = noPoint
		case signatureNotInG2:
			att.Signature = notInG2
		case wrongSubnet:
			m.subnet = (m.subnet + 1) % pool.AttestationSubnetCount
		case committeeOutOfRange:
			att.CommitteeIndex = cps
		case notInCommittee:
			members, _ := s.net.Committees.BeaconCommittee(pl.slot, att.CommitteeIndex)
			v := att.AttesterIndex
			for slices.Contains(members, v) {
				v = (v + 1) % s.net.Validators
			}
			att.AttesterIndex = v
		}
		gossip = append(gossip, m)
	}
	gossip = append(gossip, extra...)
	for _, i := range pl.dups {
		m := clean[i]
		att := *m.att
		m.att, m.kind, m.late = &att, duplicate, true
		gossip = append(gossip, m)
	}
	l.gossip = gossip
	return l
}
