package main

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"runtime"

	"github.com/golang/snappy"
	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/prysmaticlabs/go-bitfield"
	"golang.org/x/sync/errgroup"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/gossipsub"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/ssz"
)

// This file is the rest of the network, simulated: the validator clients of
// other nodes, which sign attestations and aggregates as the validator guide
// says, and the peers that gossip them to our node. They are not part of
// the wiring the example shows; they read the same chain as the node.

// outgoing is a message a peer sends the node (msg.ReceivedFrom is the
// peer), and the result the simulation expects from the node's validator
// for it.
type outgoing struct {
	kind string // attestationKind or aggregateKind
	msg  pubsub.Message
	want pubsub.ValidationResult
	what string // what the message is, for the report
}

// Peers: honest ones relay valid messages (and copies, and attestations for
// blocks the node has not seen, which are ignored without penalty); one
// sends the invalid messages, which the node rejects. Their IDs are their
// names' bytes (a real peer's is the multihash of its key): the router and
// the pool treat a peer.ID as opaque, and its String is their base58.
var (
	honestPeers = []peer.ID{"peer-a", "peer-b", "peer-c", "peer-d"}
	badPeer     = peer.ID("peer-x")
)

// network is the validator clients' side: the secret keys of every
// validator, and the chain they read their duties from.
type network struct {
	secrets    []*crypto.SecretKey
	committees *committeeCache
	forks      *forkSchedule
	chain      *forkChoice
}

// slotTraffic is what the peers send during a slot.
type slotTraffic struct {
	attestations []outgoing // at 1/3 of the slot
	copies       []outgoing // right after: copies relayed by other peers
	aggregates   []outgoing // at 2/3 of the slot
	// subsets arrive after the aggregates' verdicts: the specs' superset
	// rule ignores an aggregate only when a superset was seen on the topic
	// first, so its verdict depends on the order of arrival.
	subsets []outgoing
}

// traffic builds the messages of slot for every committee. Of a committee
// of n members, the first 3n/4 (k) publish their attestation on their
// subnet (accepted; two are relayed again later, ignored), member k's is
// signed with another key (rejected), member k+1's is sent on the wrong
// subnet (rejected), member k+2 votes for a block the node has not seen
// (ignored). Then four aggregates: one of the first n-1 members (accepted),
// one of a subset of the first aggregate's attestations, sent after it
// (ignored), one
// with a bad aggregator signature and one from a validator the selection
// proof does not select (both rejected). Plus one payload per topic that
// does not decode (rejected).
func (nw *network) traffic(slot uint64, digest gossipsub.ForkDigest) (*slotTraffic, error) {
	epoch := slot / slotsPerEpoch
	perSlot, ok := nw.committees.CommitteeCountPerSlot(epoch)
	if !ok {
		return nil, fmt.Errorf("no committees for epoch %d", epoch)
	}
	head := blockRoot(slot)
	target, ok := nw.chain.CheckpointBlock(head, epoch)
	if !ok {
		return nil, fmt.Errorf("no target block for slot %d", slot)
	}
	justified := nw.chain.justifiedCheckpoint()
	data := &attestation.AttestationData{
		Slot: slot, BeaconBlockRoot: head,
		Source: &justified,
		Target: &attestation.Checkpoint{Epoch: epoch, Root: target},
	}
	orphan := data.Copy()
	orphan.BeaconBlockRoot = sha256.Sum256(fmt.Appendf(nil, "orphan %d", slot))

	t := &slotTraffic{}
	for ci := range perSlot {
		committee, _ := nw.committees.BeaconCommittee(slot, ci)
		if err := nw.committeeTraffic(t, slot, ci, perSlot, committee, data, orphan, digest); err != nil {
			return nil, err
		}
	}

	// One undecodable payload per topic: a truncated SSZ SingleAttestation,
	// and bytes that are not snappy at all.
	raw, err := (&attestation.SingleAttestation{Data: data}).MarshalSSZ()
	if err != nil {
		return nil, err
	}
	t.attestations = append(t.attestations, outgoing{
		kind: attestationKind, want: pubsub.ValidationReject, what: "truncated SSZ",
		msg: newMessage(gossipsub.AttestationTopic(digest, pool.ComputeSubnetForAttestation(slotsPerEpoch, perSlot, slot, 0)), snappy.Encode(nil, raw[:100]), badPeer),
	})
	t.aggregates = append(t.aggregates, outgoing{
		kind: aggregateKind, want: pubsub.ValidationReject, what: "not snappy",
		msg: newMessage(gossipsub.AggregateTopic(digest), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, badPeer),
	})
	return t, nil
}

func (nw *network) committeeTraffic(t *slotTraffic, slot, ci, perSlot uint64, committee []uint64,
	data, orphan *attestation.AttestationData, digest gossipsub.ForkDigest) error {
	n := len(committee)
	k := max(1, 3*n/4)
	epoch := slot / slotsPerEpoch
	subnet := pool.ComputeSubnetForAttestation(slotsPerEpoch, perSlot, slot, ci)

	// Every member signs the head vote (the aggregates need them all).
	root, err := nw.signingRoot(ssz.DomainBeaconAttester, epoch, data)
	if err != nil {
		return err
	}
	sigs := make([][96]byte, n)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range sigs {
		g.Go(func() error { sigs[i] = crypto.Sign(nw.secrets[committee[i]], root[:]).Bytes(); return nil })
	}
	_ = g.Wait() // the signings return no error

	single := func(i int, d *attestation.AttestationData, sig [96]byte, subnet uint64, from peer.ID, want pubsub.ValidationResult, what string) error {
		att := &attestation.SingleAttestation{CommitteeIndex: ci, AttesterIndex: committee[i], Data: d, Signature: sig}
		b, err := gossipsub.Encode(att)
		if err != nil {
			return err
		}
		o := outgoing{kind: attestationKind, want: want, what: what,
			msg: newMessage(gossipsub.AttestationTopic(digest, subnet), b, from)}
		if what == "copy" {
			t.copies = append(t.copies, o)
		} else {
			t.attestations = append(t.attestations, o)
		}
		return nil
	}
	for i := range k {
		if err := single(i, data, sigs[i], subnet, honestPeers[i%len(honestPeers)], pubsub.ValidationAccept, "attestation"); err != nil {
			return err
		}
	}
	for i := range min(2, k) {
		if err := single(i, data, sigs[i], subnet, honestPeers[(i+1)%len(honestPeers)], pubsub.ValidationIgnore, "copy"); err != nil {
			return err
		}
	}
	if k < n {
		// Another member's signature: a valid point, the wrong key.
		if err := single(k, data, sigs[(k+1)%n], subnet, badPeer, pubsub.ValidationReject, "bad signature"); err != nil {
			return err
		}
	}
	if k+1 < n {
		if err := single(k+1, data, sigs[k+1], (subnet+1)%pool.AttestationSubnetCount, badPeer, pubsub.ValidationReject, "wrong subnet"); err != nil {
			return err
		}
	}
	if k+2 < n {
		r, err := nw.signingRoot(ssz.DomainBeaconAttester, epoch, orphan)
		if err != nil {
			return err
		}
		sig := crypto.Sign(nw.secrets[committee[k+2]], r[:]).Bytes()
		if err := single(k+2, orphan, sig, subnet, honestPeers[0], pubsub.ValidationIgnore, "unknown block"); err != nil {
			return err
		}
	}

	// Aggregators: members whose selection proof selects them.
	selRoot, err := nw.signingRootOf(ssz.DomainSelectionProof, epoch, ssz.HashTreeRootUint64(slot))
	if err != nil {
		return err
	}
	var aggregators []int
	proofs := make(map[int][96]byte)
	notAggregator := -1
	for i := 0; i < n && (len(aggregators) < 3 || notAggregator < 0); i++ {
		proofs[i] = crypto.Sign(nw.secrets[committee[i]], selRoot[:]).Bytes()
		if isAggregator(n, proofs[i]) {
			aggregators = append(aggregators, i)
		} else if notAggregator < 0 {
			notAggregator = i
		}
	}
	aggregate := func(agg, signer int, positions []int, from peer.ID, want pubsub.ValidationResult, what string) error {
		b, err := nw.signedAggregate(slot, ci, committee, sigs, data, positions, agg, proofs[agg], signer)
		if err != nil {
			return err
		}
		t.aggregates = append(t.aggregates, outgoing{kind: aggregateKind, want: want, what: what,
			msg: newMessage(gossipsub.AggregateTopic(digest), b, from)})
		return nil
	}
	span := func(lo, hi int) []int {
		s := make([]int, 0, hi-lo)
		for i := lo; i < hi; i++ {
			s = append(s, i)
		}
		return s
	}
	if len(aggregators) > 0 && n > 1 {
		if err := aggregate(aggregators[0], aggregators[0], span(0, n-1), honestPeers[1], pubsub.ValidationAccept, "aggregate"); err != nil {
			return err
		}
	}
	if len(aggregators) > 1 && k >= 2 {
		if err := aggregate(aggregators[1], aggregators[1], span(0, k/2), honestPeers[2], pubsub.ValidationIgnore, "aggregate subset"); err != nil {
			return err
		}
		last := len(t.aggregates) - 1
		t.subsets = append(t.subsets, t.aggregates[last])
		t.aggregates = t.aggregates[:last]
	}
	if len(aggregators) > 2 && k < n {
		wrong := (aggregators[2] + 1) % n
		if err := aggregate(aggregators[2], wrong, span(k, n), badPeer, pubsub.ValidationReject, "bad aggregator signature"); err != nil {
			return err
		}
	}
	if notAggregator >= 0 && k < n {
		if err := aggregate(notAggregator, notAggregator, span(k, n), badPeer, pubsub.ValidationReject, "not an aggregator"); err != nil {
			return err
		}
	}
	return nil
}

// signedAggregate is what the aggregator (committee position agg) publishes:
// the aggregate of the attestations of the members at positions, signed by
// the member at position signer (agg itself, unless faulty).
func (nw *network) signedAggregate(slot, ci uint64, committee []uint64, sigs [][96]byte, data *attestation.AttestationData,
	positions []int, agg int, proof [96]byte, signer int) ([]byte, error) {
	bits := bitfield.NewBitlist(uint64(len(committee)))
	parts := make([]*crypto.Signature, 0, len(positions))
	for _, i := range positions {
		bits.SetBitAt(uint64(i), true)
		s, err := crypto.SignatureFromBytes(sigs[i][:])
		if err != nil {
			return nil, err
		}
		parts = append(parts, s)
	}
	sum, err := crypto.AggregateSignatures(parts)
	if err != nil {
		return nil, err
	}
	committeeBits := bitfield.NewBitvector64()
	committeeBits.SetBitAt(ci, true)
	aap := &attestation.AggregateAndProof{
		AggregatorIndex: committee[agg],
		Aggregate: &attestation.Attestation{
			AggregationBits: bits, Data: data.Copy(), Signature: sum.Bytes(), CommitteeBits: committeeBits,
		},
		SelectionProof: proof,
	}
	root, err := nw.signingRoot(ssz.DomainAggregateAndProof, slot/slotsPerEpoch, aap)
	if err != nil {
		return nil, err
	}
	return gossipsub.Encode(&attestation.SignedAggregateAndProof{
		Message:   aap,
		Signature: crypto.Sign(nw.secrets[committee[signer]], root[:]).Bytes(),
	})
}

// signingRoot is compute_signing_root(obj, get_domain(state, dt, epoch)).
func (nw *network) signingRoot(dt ssz.DomainType, epoch uint64, obj interface{ HashTreeRoot() ([32]byte, error) }) (ssz.Root, error) {
	r, err := obj.HashTreeRoot()
	if err != nil {
		return ssz.Root{}, err
	}
	return nw.signingRootOf(dt, epoch, r)
}

// signingRootOf is signingRoot for an object whose root is known.
func (nw *network) signingRootOf(dt ssz.DomainType, epoch uint64, root ssz.Root) (ssz.Root, error) {
	d, err := ssz.ComputeDomain(dt, nw.forks.ForkVersion(epoch), nw.forks.GenesisValidatorsRoot())
	if err != nil {
		return ssz.Root{}, err
	}
	return ssz.ComputeSigningRootFromRoot(root, d), nil
}

// isAggregator is the validator guide's is_aggregator.
func isAggregator(committeeLen int, selectionProof [96]byte) bool {
	modulo := max(1, uint64(committeeLen)/pool.TargetAggregatorsPerCommittee)
	h := sha256.Sum256(selectionProof[:])
	return binary.LittleEndian.Uint64(h[:8])%modulo == 0
}
