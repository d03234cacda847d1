package p2psim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/golang/snappy"
	pb "github.com/libp2p/go-libp2p-pubsub/pb"

	"github.com/attpool/attpool/gossipsub"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// Expect is what the validating hosts must do with a message.
type Expect struct {
	// Verdict and Err (the sentinel its error wraps; nil for Accept) are
	// what the entry host's validator must answer; an Accept must be
	// answered by every validating host.
	Verdict pool.Verdict
	Err     error
	// Dedup: a byte-for-byte copy of an earlier message on the same topic,
	// which every router drops by its message-id before validation.
	Dedup bool
	// Hostile: an attacker's message (Attack), whose fate depends on the
	// race it is part of: it must be accepted by no host and forwarded past
	// none, and any other verdict of its entry host is right (Verdict and
	// Err are not checked), as is a drop by that host's router (the
	// attacker graylisted, a topic's validations throttled).
	Hostile bool
}

// Msg is one planned gossip message.
type Msg struct {
	Kind   string // "attestation" or "aggregate"
	Label  string // "valid" or the fault's name
	Topic  string
	Data   []byte
	Source int // index of the publishing source
	Want   Expect
	ID     string // message-id
	// At, when positive, is when the message is published, from its
	// phase's start, instead of its place in its source's share of the
	// phase's Spread (an attacker's schedule; a source's messages go in
	// order).
	At time.Duration

	published time.Time
}

// Phase is a group of messages published together, after Clock has set the
// simulated chain's clock; a phase starts once the one before is done.
type Phase struct {
	Name  string
	Clock func()
	Msgs  []Msg
	// Spread spaces each source's messages evenly over this time (zero:
	// as fast as the router takes them), as a slot's traffic arrives over
	// about a second rather than at once.
	Spread time.Duration
}

// TrafficConfig configures Traffic.
type TrafficConfig struct {
	// Slot: the attestations are those of Slot (published 4 s into it), the
	// aggregates those of Slot+1 (8 s into it), so that the pools' own
	// aggregates of the attestations do not cover the gossip aggregates.
	// The Network's chain needs blocks up to Slot+1; Slot >= 64 for the
	// stale-epoch fault.
	Slot uint64
	// InvalidSignatures is the share of attestations signed by another
	// validator's key.
	InvalidSignatures float64
	// Undecodable is the number of attestation payloads that are not
	// ssz_snappy (half not snappy, half truncated SSZ).
	Undecodable int
	// WrongSubnet is the number of valid attestations also published on
	// another committee's subnet (needs two committees a slot).
	WrongSubnet int
	// AggregateFaults is the number of aggregates of each fault kind of
	// pooltest (but nil_message, which SSZ cannot carry).
	AggregateFaults int
	// Spread is each phase's Spread.
	Spread time.Duration
	// Honest are the sources of the valid and IGNORE messages (round-robin),
	// Faulty the source of the REJECT ones.
	Honest []int
	Faulty int
	Seed   uint64
}

// Traffic plans the gossip of a slot over net: the attestation phase, the
// aggregate phase and the late aggregates, and the subnets they use.
func Traffic(net *pooltest.Network, digest gossipsub.ForkDigest, cfg TrafficConfig) ([]Phase, []uint64, error) {
	if len(cfg.Honest) == 0 {
		return nil, nil, fmt.Errorf("%w: no honest source", ErrConfig)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Slot))
	atts, subnets, err := attestationPhase(net, digest, cfg, rng)
	if err != nil {
		return nil, nil, err
	}
	aggs, late, err := aggregatePhases(net, digest, cfg)
	if err != nil {
		return nil, nil, err
	}
	phases := []Phase{
		{Name: "attestations", Clock: func() { net.SetSlot(cfg.Slot, 4*time.Second) }, Msgs: atts, Spread: cfg.Spread},
		{Name: "aggregates", Clock: func() { net.SetSlot(cfg.Slot+1, 8*time.Second) }, Msgs: aggs, Spread: cfg.Spread},
		{Name: "late aggregates", Clock: func() {}, Msgs: late, Spread: cfg.Spread},
	}
	return phases, subnets, nil
}

// honest picks the honest source of the i-th message.
func (c *TrafficConfig) honest(i int) int { return c.Honest[i%len(c.Honest)] }

func attestationPhase(net *pooltest.Network, digest gossipsub.ForkDigest, cfg TrafficConfig, rng *rand.Rand) ([]Msg, []uint64, error) {
	net.DeriveKeys(net.Attesters(cfg.Slot))
	sim := net.SlotMessages(cfg.Slot, cfg.InvalidSignatures, cfg.Seed)
	var msgs []Msg
	var subnets []uint64
	for i, m := range sim {
		if !slices.Contains(subnets, m.Subnet) {
			subnets = append(subnets, m.Subnet)
		}
		data, err := gossipsub.Encode(m.Att)
		if err != nil {
			return nil, nil, err
		}
		msg := Msg{Kind: "attestation", Label: "valid", Topic: gossipsub.AttestationTopic(digest, m.Subnet), Data: data,
			Source: cfg.honest(i), Want: Expect{Verdict: pool.Accept}}
		if !m.Valid {
			msg.Label, msg.Source = "invalid_signature", cfg.Faulty
			msg.Want = Expect{Verdict: pool.Reject, Err: pool.ErrInvalidSignature}
		}
		msgs = append(msgs, msg)
	}
	wrong, err := wrongSubnet(sim, subnets, digest, cfg)
	if err != nil {
		return nil, nil, err
	}
	msgs = append(msgs, wrong...)
	msgs = append(msgs, undecodable(msgs, cfg, rng)...)
	rng.Shuffle(len(msgs), func(i, j int) { msgs[i], msgs[j] = msgs[j], msgs[i] })
	return msgs, subnets, nil
}

// wrongSubnet publishes valid attestations again on the next committee's
// subnet: a different message-id (the topic is part of it), REJECT.
func wrongSubnet(sim []pooltest.Message, subnets []uint64, digest gossipsub.ForkDigest, cfg TrafficConfig) ([]Msg, error) {
	if cfg.WrongSubnet == 0 {
		return nil, nil
	}
	if len(subnets) < 2 {
		return nil, fmt.Errorf("%w: wrong-subnet messages need two committees a slot", ErrConfig)
	}
	var out []Msg
	for _, m := range sim {
		if len(out) == cfg.WrongSubnet {
			break
		}
		if !m.Valid {
			continue
		}
		other := subnets[(slices.Index(subnets, m.Subnet)+1)%len(subnets)]
		data, err := gossipsub.Encode(m.Att)
		if err != nil {
			return nil, err
		}
		out = append(out, Msg{Kind: "attestation", Label: "wrong_subnet", Topic: gossipsub.AttestationTopic(digest, other),
			Data: data, Source: cfg.Faulty, Want: Expect{Verdict: pool.Reject, Err: pool.ErrWrongSubnet}})
	}
	return out, nil
}

// undecodable makes payloads that are not ssz_snappy, on the topics of
// valid messages: random bytes (invalid snappy: the other message-id
// domain) and snappy of a truncated attestation.
func undecodable(valid []Msg, cfg TrafficConfig, rng *rand.Rand) []Msg {
	var out []Msg
	for i := range cfg.Undecodable {
		m := valid[i%len(valid)]
		var data []byte
		label := "not_snappy"
		if i%2 == 0 {
			data = make([]byte, 64+i)
			for j := range data {
				data[j] = byte(rng.Uint32())
			}
			data[0] = 0xff // a length varint that goes on: a bad block, or past MAX_PAYLOAD_SIZE
		} else {
			label = "truncated_ssz"
			raw, err := snappy.Decode(nil, m.Data)
			if err != nil {
				panic(err) // m.Data is gossipsub.Encode's
			}
			data = snappy.Encode(nil, raw[:len(raw)-1-i%8])
		}
		out = append(out, Msg{Kind: "attestation", Label: label, Topic: m.Topic, Data: data, Source: cfg.Faulty,
			Want: Expect{Verdict: pool.Reject, Err: gossipsub.ErrUndecodable}})
	}
	return out
}

// aggregatePhases plans the aggregates of Slot+1 and the late ones.
func aggregatePhases(net *pooltest.Network, digest gossipsub.ForkDigest, cfg TrafficConfig) (msgs, late []Msg, err error) {
	faults := make(map[pooltest.AggregateFault]int)
	if cfg.AggregateFaults > 0 {
		for _, f := range pooltest.AggregateFaults() {
			if f != pooltest.AggNilMessage {
				faults[f] = cfg.AggregateFaults
			}
		}
	}
	gen := pooltest.NewAggregateTraffic(net, pooltest.AggregateConfig{Seed: cfg.Seed})
	sim, err := gen.Slot(cfg.Slot+1, faults)
	if err != nil {
		return nil, nil, err
	}
	topic := gossipsub.AggregateTopic(digest)
	seen := make(map[string]bool)
	for i, m := range sim {
		data, err := encodeAggregate(m)
		if err != nil {
			return nil, nil, err
		}
		msg := Msg{Kind: "aggregate", Label: m.Fault.String(), Topic: topic, Data: data, Source: cfg.honest(i),
			Want: Expect{Verdict: m.WantVerdict, Err: m.WantErr}}
		if m.WantVerdict == pool.Reject {
			msg.Source = cfg.Faulty
		}
		if errors.Is(m.WantErr, pool.ErrMalformed) {
			// Bitfields that are not SSZ do not decode off the wire.
			msg.Want.Err = gossipsub.ErrUndecodable
		}
		msg.Want.Dedup = seen[string(data)]
		seen[string(data)] = true
		if m.Late {
			late = append(late, msg)
		} else {
			msgs = append(msgs, msg)
		}
	}
	return msgs, late, nil
}

// encodeAggregate is the wire form of m. Bits that are not an SSZ bitlist
// do not encode: their wire form is that of the message with valid bits and
// the bitlist's last byte (the last of the payload) zeroed, which no decoder
// accepts ("trailing byte is zero").
func encodeAggregate(m pooltest.AggregateMsg) ([]byte, error) {
	if m.Fault != pooltest.AggBadBits {
		return gossipsub.Encode(m.Msg)
	}
	sap := *m.Msg
	aap := *sap.Message
	agg := *aap.Aggregate
	agg.AggregationBits = []byte{0x01}
	aap.Aggregate, sap.Message = &agg, &aap
	raw, err := sap.MarshalSSZ()
	if err != nil {
		return nil, err
	}
	raw[len(raw)-1] = 0
	return snappy.Encode(nil, raw), nil
}

// messageID is the id the routers give m.
func messageID(m *Msg) string {
	return gossipsub.MessageID(&pb.Message{Topic: &m.Topic, Data: m.Data})
}

// AttackConfig configures Attack.
type AttackConfig struct {
	// Slot is the slot of the attestation phase the attack joins
	// (TrafficConfig.Slot): its messages copy that slot's attestations.
	Slot uint64
	// Source is the attacking source.
	Source int
	// Invalid is the number of the slot's attestations it sends, spread
	// before FloodAt, each signed by another attester: the first one
	// verified isolates it in the pool (its sets verified apart), and each
	// one verified is a REJECT that costs it peer score.
	Invalid int
	// Oversized is the number of payloads, spread among them, whose snappy
	// header declares MAX_PAYLOAD_SIZE bytes over a few bytes of body, on
	// the slot's subnets: REJECTed before any decompression.
	Oversized int
	// Flood is the number of attestations with invalid signatures it sends
	// at once at FloodAt, isolated by then: far more than its lane in the
	// pool verifies within the validator's timeout. Those still queued when
	// it ends are answered IGNORE (pool.ErrCancelled) and leave the pool's
	// queues; those past its share of the pool's places are IGNOREd at
	// once (pool.ErrQueueFull); those its entry host's router receives once
	// its score is below the graylist threshold are dropped unvalidated.
	Flood int
	// FloodAt is when the flood goes, from the phase's start.
	FloodAt time.Duration
}

// Attack plans an attacker's messages for the attestation phase of
// cfg.Slot (see AttackConfig), every one Hostile and with its At set.
// Traffic must have planned the slot (its keys derived).
func Attack(net *pooltest.Network, digest gossipsub.ForkDigest, cfg AttackConfig) ([]Msg, error) {
	if cfg.FloodAt <= 0 {
		return nil, fmt.Errorf("%w: FloodAt %v", ErrConfig, cfg.FloodAt)
	}
	sim := net.SlotMessages(cfg.Slot, 0, 0)
	n := len(sim)
	if n < 2 {
		return nil, fmt.Errorf("%w: slot %d has %d attesters", ErrConfig, cfg.Slot, n)
	}
	if cfg.Invalid+cfg.Flood > n*(n-1) {
		return nil, fmt.Errorf("%w: %d invalid signatures, past the %d pairs of the slot's attesters", ErrConfig, cfg.Invalid+cfg.Flood, n*(n-1))
	}
	// The invalid signatures and the oversized payloads alternate while
	// both last.
	var msgs []Msg
	for k := range max(cfg.Invalid, cfg.Oversized) {
		if k < cfg.Invalid {
			m, err := invalidMsg(sim, k, "invalid_signature", digest, cfg.Source)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, m)
		}
		if k < cfg.Oversized {
			msgs = append(msgs, oversizedMsg(sim[k%n].Subnet, k, digest, cfg.Source))
		}
	}
	for i := range msgs {
		msgs[i].At = cfg.FloodAt * time.Duration(i+1) / time.Duration(len(msgs)+1)
	}
	for k := range cfg.Flood {
		m, err := invalidMsg(sim, cfg.Invalid+k, "flood", digest, cfg.Source)
		if err != nil {
			return nil, err
		}
		m.At = cfg.FloodAt
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// invalidMsg is the k-th attestation with an invalid signature: attester a
// with the valid signature of attester b != a, a distinct message for each
// pair, a point of G2 that fails a's key.
func invalidMsg(sim []pooltest.Message, k int, label string, digest gossipsub.ForkDigest, source int) (Msg, error) {
	n := len(sim)
	a, b := k%n, (k%n+1+k/n)%n
	att := *sim[a].Att
	att.Signature = sim[b].Att.Signature
	data, err := gossipsub.Encode(&att)
	if err != nil {
		return Msg{}, err
	}
	return Msg{Kind: "attestation", Label: label, Topic: gossipsub.AttestationTopic(digest, sim[a].Subnet),
		Data: data, Source: source, Want: Expect{Hostile: true}}, nil
}

// oversizedMsg is the k-th oversized payload: a snappy header declaring
// MAX_PAYLOAD_SIZE bytes and a few bytes that make it distinct.
func oversizedMsg(subnet uint64, k int, digest gossipsub.ForkDigest, source int) Msg {
	data := binary.AppendUvarint(nil, gossipsub.MaxPayloadSize)
	data = binary.AppendUvarint(data, uint64(k))
	return Msg{Kind: "attestation", Label: "oversized", Topic: gossipsub.AttestationTopic(digest, subnet),
		Data: data, Source: source, Want: Expect{Hostile: true}}
}
