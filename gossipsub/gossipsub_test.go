package gossipsub_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/golang/snappy"
	pubsub "github.com/libp2p/go-libp2p-pubsub"
	pb "github.com/libp2p/go-libp2p-pubsub/pb"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/sirupsen/logrus"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/gossipsub"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/ssz"
)

// Every verdict maps to the router's outcome of the same name, whatever the
// numeric values of the two enums (a cast would swap Accept and Reject).
func TestValidationOfEveryVerdict(t *testing.T) {
	cases := []struct {
		v    pool.Verdict
		want pubsub.ValidationResult
	}{
		{pool.Accept, pubsub.ValidationAccept},
		{pool.Ignore, pubsub.ValidationIgnore},
		{pool.Reject, pubsub.ValidationReject},
		{pool.Verdict(200), pubsub.ValidationReject}, // not a verdict: the safe side
	}
	for _, c := range cases {
		if got := gossipsub.ValidationOf(c.v); got != c.want {
			t.Errorf("ValidationOf(%v) = %d, want %d", c.v, got, c.want)
		}
	}
	// The enums are ordered differently, which is why the map is by name:
	// a cast of Accept is not ValidationAccept.
	if pubsub.ValidationResult(pool.Accept) == pubsub.ValidationAccept {
		t.Error("the enums now agree on Accept: revisit the package doc")
	}
}

func TestTopics(t *testing.T) {
	d := gossipsub.ForkDigest{0x44, 0x6a, 0x72, 0x32}
	if got, want := gossipsub.AggregateTopic(d), "/eth2/446a7232/beacon_aggregate_and_proof/ssz_snappy"; got != want {
		t.Errorf("AggregateTopic = %q, want %q (the specs' example)", got, want)
	}
	if got, want := gossipsub.AttestationTopic(d, 63), "/eth2/446a7232/beacon_attestation_63/ssz_snappy"; got != want {
		t.Errorf("AttestationTopic = %q, want %q", got, want)
	}
	// compute_fork_digest is the fork data root's first four bytes.
	v, gvr := ssz.Version{5, 0, 0, 0}, ssz.Root{0x42}
	root, err := ssz.ComputeForkDataRoot(v, gvr)
	if err != nil {
		t.Fatal(err)
	}
	got, err := gossipsub.ComputeForkDigest(v, gvr)
	if err != nil || !bLike(got[:], root[:4]) {
		t.Errorf("ComputeForkDigest = %x, %v; want %x", got, err, root[:4])
	}
	// Mainnet's genesis digest (phase0 version 0, mainnet genesis validators
	// root) is b5303f2a, as every client's logs show.
	gv, _ := hex.DecodeString("4b363db94e286120d76eb905340fdd4e54bfe9f06bf33ff6cf5ad27f511bfe95")
	got, err = gossipsub.ComputeForkDigest(ssz.Version{}, ssz.Root(gv))
	if err != nil || hex.EncodeToString(got[:]) != "b5303f2a" {
		t.Errorf("mainnet genesis digest %x, %v; want b5303f2a", got, err)
	}
}

func bLike(a, b []byte) bool { return string(a) == string(b) }

// specID is the message-id written out from the specs' formula.
func specID(domain byte, topic string, body []byte) string {
	b := []byte{domain, 0, 0, 0}
	n := uint64(len(topic))
	for range 8 {
		b = append(b, byte(n))
		n >>= 8
	}
	b = append(b, topic...)
	b = append(b, body...)
	h := sha256.Sum256(b)
	return string(h[:20])
}

func TestMessageID(t *testing.T) {
	topic := "/eth2/446a7232/beacon_attestation_3/ssz_snappy"
	raw := []byte("an ssz payload")
	valid := snappy.Encode(nil, raw)
	id := gossipsub.MessageID(&pb.Message{Topic: &topic, Data: valid})
	if len(id) != 20 {
		t.Fatalf("message-id of %d bytes, want 20", len(id))
	}
	if id != specID(1, topic, raw) {
		t.Error("valid snappy: id is not SHA256(MESSAGE_DOMAIN_VALID_SNAPPY + len(topic) + topic + decompressed)[:20]")
	}
	// Two compressions of the same payload share an id; the topic is part of it.
	if other := snappy.Encode(nil, raw); gossipsub.MessageID(&pb.Message{Topic: &topic, Data: other}) != id {
		t.Error("same payload, different id")
	}
	topic2 := strings.Replace(topic, "_3/", "_4/", 1)
	if gossipsub.MessageID(&pb.Message{Topic: &topic2, Data: valid}) == id {
		t.Error("the topic is not part of the id")
	}
	// Invalid snappy: the other domain over the raw data.
	bad := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02}
	if gossipsub.MessageID(&pb.Message{Topic: &topic, Data: bad}) != specID(0, topic, bad) {
		t.Error("invalid snappy: id is not SHA256(MESSAGE_DOMAIN_INVALID_SNAPPY + len(topic) + topic + data)[:20]")
	}
	// A payload claiming more than MAX_PAYLOAD_SIZE is not decompressed.
	huge := snappy.Encode(nil, make([]byte, gossipsub.MaxPayloadSize+1))
	if gossipsub.MessageID(&pb.Message{Topic: &topic, Data: huge}) != specID(0, topic, huge) {
		t.Error("oversized payload: not the invalid-snappy id")
	}
}

func TestDecode(t *testing.T) {
	att := &attestation.SingleAttestation{CommitteeIndex: 3, AttesterIndex: 77, Data: &attestation.AttestationData{
		Slot: 9, Source: &attestation.Checkpoint{}, Target: &attestation.Checkpoint{Epoch: 0},
	}}
	data, err := gossipsub.Encode(att)
	if err != nil {
		t.Fatal(err)
	}
	got, err := gossipsub.DecodeAttestation(data)
	if err != nil || got.AttesterIndex != 77 || got.CommitteeIndex != 3 || got.Data.Slot != 9 {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	raw, _ := att.MarshalSSZ()
	for name, c := range map[string]struct {
		data []byte
		want error
	}{
		"not snappy":    {[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, gossipsub.ErrUndecodable},
		"truncated ssz": {snappy.Encode(nil, raw[:len(raw)-1]), gossipsub.ErrUndecodable},
		"empty":         {nil, gossipsub.ErrUndecodable},
		"too large":     {snappy.Encode(nil, make([]byte, gossipsub.MaxPayloadSize+1)), gossipsub.ErrPayloadTooLarge},
		"other type":    {mustEncode(t, aggregate(att.Data)), gossipsub.ErrUndecodable},
	} {
		if _, err := gossipsub.DecodeAttestation(c.data); !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), "attpool/gossipsub: ") {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	if _, err := gossipsub.DecodeAggregate(data); !errors.Is(err, gossipsub.ErrUndecodable) {
		t.Errorf("an attestation decoded as an aggregate: %v", err)
	}
}

func mustEncode(t *testing.T, v interface{ MarshalSSZ() ([]byte, error) }) []byte {
	t.Helper()
	b, err := gossipsub.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func aggregate(d *attestation.AttestationData) *attestation.SignedAggregateAndProof {
	return &attestation.SignedAggregateAndProof{Message: &attestation.AggregateAndProof{
		Aggregate: &attestation.Attestation{Data: d, AggregationBits: []byte{1}, CommitteeBits: make([]byte, 8)},
	}}
}

// intake records what the validators hand the pool.
type intake struct {
	res  pool.Result
	from []pool.Peer
	subs []uint64
}

func (in *intake) ValidateAttestation(_ context.Context, from pool.Peer, _ *attestation.SingleAttestation, subnet uint64) pool.Result {
	in.from, in.subs = append(in.from, from), append(in.subs, subnet)
	return in.res
}

func (in *intake) ValidateAggregate(_ context.Context, from pool.Peer, _ *attestation.SignedAggregateAndProof) pool.Result {
	in.from = append(in.from, from)
	return in.res
}

// The validators pass the forwarding peer (NoPeer for the host's own
// messages) and the subnet, answer each pool verdict with the router's
// outcome of the same name, attach accepted messages, and reject
// undecodable payloads without calling the pool.
func TestValidators(t *testing.T) {
	self, fwd := peer.ID("self"), peer.ID("forwarder")
	in := &intake{}
	var seen []gossipsub.Outcome
	v, err := gossipsub.NewValidators(in, gossipsub.Config{Self: self, Observe: func(o gossipsub.Outcome) { seen = append(seen, o) }})
	if err != nil {
		t.Fatal(err)
	}
	att := &attestation.SingleAttestation{Data: &attestation.AttestationData{Source: &attestation.Checkpoint{}, Target: &attestation.Checkpoint{}}}
	data := mustEncode(t, att)
	topic := "t"
	for _, c := range []struct {
		res  pool.Result
		want pubsub.ValidationResult
	}{
		{pool.Result{Verdict: pool.Accept}, pubsub.ValidationAccept},
		{pool.Result{Verdict: pool.Ignore, Err: pool.ErrAlreadySeen}, pubsub.ValidationIgnore},
		{pool.Result{Verdict: pool.Reject, Err: pool.ErrInvalidSignature}, pubsub.ValidationReject},
	} {
		in.res = c.res
		msg := &pubsub.Message{Message: &pb.Message{Topic: &topic, Data: data}, ReceivedFrom: fwd}
		if got := v.Attestation(5)(context.Background(), fwd, msg); got != c.want {
			t.Errorf("pool %v: router told %d, want %d", c.res.Verdict, got, c.want)
		}
		if (msg.ValidatorData != nil) != (c.res.Verdict == pool.Accept) {
			t.Errorf("pool %v: ValidatorData %v", c.res.Verdict, msg.ValidatorData)
		}
	}
	if got := v.Aggregate()(context.Background(), self, &pubsub.Message{Message: &pb.Message{Topic: &topic, Data: mustEncode(t, aggregate(att.Data))}}); got != pubsub.ValidationReject {
		t.Errorf("aggregate: %d", got)
	}
	wantFrom := []pool.Peer{pool.Peer(fwd), pool.Peer(fwd), pool.Peer(fwd), pool.NoPeer}
	if len(in.from) != len(wantFrom) {
		t.Fatalf("pool called %d times, want %d", len(in.from), len(wantFrom))
	}
	for i := range wantFrom {
		if in.from[i] != wantFrom[i] {
			t.Errorf("call %d from %q, want %q", i, in.from[i], wantFrom[i])
		}
	}
	for _, s := range in.subs {
		if s != 5 {
			t.Errorf("subnet %d, want 5", s)
		}
	}
	calls := len(in.from)
	msg := &pubsub.Message{Message: &pb.Message{Topic: &topic, Data: []byte{0xff, 0xff, 0xff}}}
	if got := v.Attestation(5)(context.Background(), fwd, msg); got != pubsub.ValidationReject {
		t.Errorf("undecodable: %d, want reject", got)
	}
	if len(in.from) != calls {
		t.Error("undecodable payload reached the pool")
	}
	if len(seen) != 5 || !errors.Is(seen[4].Result.Err, gossipsub.ErrUndecodable) || seen[4].From != fwd {
		t.Errorf("outcomes: %+v", seen)
	}
	if _, err := gossipsub.NewValidators(nil, gossipsub.Config{}); !errors.Is(err, gossipsub.ErrConfig) {
		t.Errorf("nil intake: %v", err)
	}
}

// A message not accepted is logged at debug level, as one line with its
// verdict; with the logger above debug, the validator builds no log fields
// for it: it allocates no more than an accepted one (a flood of them costs
// no log lines nobody reads).
func TestValidatorLog(t *testing.T) {
	att := &attestation.SingleAttestation{Data: &attestation.AttestationData{Source: &attestation.Checkpoint{}, Target: &attestation.Checkpoint{}}}
	topic, fwd := "t", peer.ID("forwarder")
	msg := &pubsub.Message{Message: &pb.Message{Topic: &topic, Data: mustEncode(t, att)}, ReceivedFrom: fwd}
	allocs := make(map[pool.Verdict]float64)
	for _, level := range []logrus.Level{logrus.DebugLevel, logrus.InfoLevel} {
		for _, verdict := range []pool.Verdict{pool.Ignore, pool.Accept} {
			var out bytes.Buffer
			l := logrus.New()
			l.SetOutput(&out)
			l.SetLevel(level)
			v, err := gossipsub.NewValidators(fixedIntake{pool.Result{Verdict: verdict, Err: pool.ErrAlreadySeen}}, gossipsub.Config{Logger: l})
			if err != nil {
				t.Fatal(err)
			}
			validate := v.Attestation(5)
			validate(context.Background(), fwd, msg)
			want := 0
			if level == logrus.DebugLevel && verdict != pool.Accept {
				want = 1
			}
			if lines := strings.Count(out.String(), "gossip message not accepted"); lines != want || want == 1 && !strings.Contains(out.String(), "already_seen") {
				t.Errorf("logger at %v, %v: %d lines, want %d: %q", level, verdict, lines, want, out.String())
			}
			if level == logrus.InfoLevel {
				allocs[verdict] = testing.AllocsPerRun(20, func() { validate(context.Background(), fwd, msg) })
			}
		}
	}
	if allocs[pool.Ignore] > allocs[pool.Accept] {
		t.Errorf("logger above debug: %.0f allocations for a message not accepted, %.0f for an accepted one", allocs[pool.Ignore], allocs[pool.Accept])
	}
}

// fixedIntake answers every message with res.
type fixedIntake struct{ res pool.Result }

func (f fixedIntake) ValidateAttestation(context.Context, pool.Peer, *attestation.SingleAttestation, uint64) pool.Result {
	return f.res
}

func (f fixedIntake) ValidateAggregate(context.Context, pool.Peer, *attestation.SignedAggregateAndProof) pool.Result {
	return f.res
}
