package spectest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/golang/snappy"
	"gopkg.in/yaml.v3"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
)

// The networking runner's gossip_validation format
// (tests/formats/networking/gossip_validation.md of consensus-specs) for the
// topics the pool validates: handlers gossip_beacon_attestation and
// gossip_beacon_aggregate_and_proof, from Electra on. A case gives an anchor
// state, blocks to import, a clock and messages with their expected result;
// the runner builds the pool's node from them and drives a pool through the
// messages in order.

// gossipMeta is meta.yaml, every key of the format (decoding fails on a
// key the format does not have).
type gossipMeta struct {
	Topic                        string              `yaml:"topic"`
	Blocks                       []gossipBlock       `yaml:"blocks"`
	FinalizedCheckpoint          *gossipCheckpoint   `yaml:"finalized_checkpoint"`
	SeenPartialDataColumnHeaders []gossipSeenHeader  `yaml:"seen_partial_data_column_headers"`
	CurrentTimeMs                *uint64             `yaml:"current_time_ms"`
	Messages                     []gossipMessageMeta `yaml:"messages"`
}

type gossipBlock struct {
	Block         string `yaml:"block"`
	Failed        bool   `yaml:"failed"`
	Pending       bool   `yaml:"pending"`
	PayloadStatus string `yaml:"payload_status"`
	Payload       string `yaml:"payload"`
}

type gossipCheckpoint struct {
	Epoch *uint64 `yaml:"epoch"`
	Root  string  `yaml:"root"`
	Block string  `yaml:"block"`
}

type gossipSeenHeader struct {
	BlockRoot string `yaml:"block_root"`
	Header    string `yaml:"header"`
}

// gossipMessageMeta is one entry of messages. The Gloas generators give a
// message's time as current_time_ms (absolute) instead of offset_ms; both
// are accepted, not together.
type gossipMessageMeta struct {
	OffsetMs      *uint64 `yaml:"offset_ms"`
	CurrentTimeMs *uint64 `yaml:"current_time_ms"`
	SubnetID      *uint64 `yaml:"subnet_id"`
	ColumnIndex   *uint64 `yaml:"column_index"`
	GroupID       string  `yaml:"group_id"`
	Message       string  `yaml:"message"`
	Expected      string  `yaml:"expected"`
	Reason        string  `yaml:"reason"`
}

// gossipTopics maps the handlers this runner knows to their topic.
var gossipTopics = map[string]string{
	"gossip_beacon_attestation":          "beacon_attestation",
	"gossip_beacon_aggregate_and_proof":  "beacon_aggregate_and_proof",
	"gossip_payload_attestation_message": "payload_attestation_message",
}

// NetworkingHandlers returns the networking handlers this package runs.
func NetworkingHandlers() []string {
	return []string{"gossip_beacon_aggregate_and_proof", "gossip_beacon_attestation", "gossip_payload_attestation_message"}
}

func networkingHandler(c Case) (caseFunc, error) {
	if _, ok := gossipTopics[c.Handler]; !ok {
		return nil, notCoveredf("no handler for networking/%s (the pool validates beacon_attestation, beacon_aggregate_and_proof and payload_attestation_message)", c.Handler)
	}
	switch c.Fork {
	case "electra", "fulu", "gloas":
	default:
		return nil, notCoveredf("networking/%s of %s: the pool validates the forms of Electra, Fulu and Gloas", c.Handler, c.Fork)
	}
	p, ok := presets[c.Preset]
	if !ok {
		return nil, notCoveredf("no preset %q", c.Preset)
	}
	if c.Handler == "gossip_payload_attestation_message" && c.Fork != "gloas" {
		return nil, notCoveredf("networking/%s of %s: the topic exists from Gloas on", c.Handler, c.Fork)
	}
	if c.Handler == "gossip_beacon_aggregate_and_proof" && c.Preset != "mainnet" {
		return nil, notCoveredf("networking/%s of the %s preset: the pool's SignedAggregateAndProof is the mainnet preset's", c.Handler, c.Preset)
	}
	return func(c Case) error { return runGossipCase(c, p) }, nil
}

// readGossipMeta reads and checks meta.yaml.
func readGossipMeta(dir, handler string) (*gossipMeta, error) {
	b, err := os.ReadFile(filepath.Join(dir, "meta.yaml"))
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var m gossipMeta
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("meta.yaml: %w", err)
	}
	switch {
	case m.Topic != gossipTopics[handler]:
		return nil, fmt.Errorf("meta.yaml: topic %q in handler %s", m.Topic, handler)
	case len(m.Blocks) == 0:
		return nil, errors.New("meta.yaml: no blocks (the first is the anchor)")
	case m.Blocks[0].Failed || m.Blocks[0].Pending:
		return nil, errors.New("meta.yaml: the anchor block cannot be failed or pending")
	case m.CurrentTimeMs == nil:
		return nil, errors.New("meta.yaml: no current_time_ms")
	case len(m.Messages) == 0:
		return nil, errors.New("meta.yaml: no messages")
	case len(m.SeenPartialDataColumnHeaders) > 0:
		return nil, fmt.Errorf("meta.yaml: seen_partial_data_column_headers in topic %s", m.Topic)
	}
	if cp := m.FinalizedCheckpoint; cp != nil && (cp.Epoch == nil || (cp.Root == "") == (cp.Block == "")) {
		return nil, errors.New("meta.yaml: finalized_checkpoint needs epoch and one of root or block")
	}
	for i, msg := range m.Messages {
		switch {
		case msg.Message == "":
			return nil, fmt.Errorf("meta.yaml: message %d names no file", i)
		case (msg.OffsetMs == nil) == (msg.CurrentTimeMs == nil):
			return nil, fmt.Errorf("meta.yaml: message %d needs one of offset_ms or current_time_ms", i)
		case m.Topic == "beacon_attestation" && msg.SubnetID == nil:
			return nil, fmt.Errorf("meta.yaml: message %d has no subnet_id", i)
		}
		if _, err := verdictOf(msg.Expected); err != nil {
			return nil, fmt.Errorf("meta.yaml: message %d: %w", i, err)
		}
	}
	return &m, nil
}

func verdictOf(expected string) (pool.Verdict, error) {
	return byName("expected", expected, named[pool.Verdict]{"valid", pool.Accept},
		named[pool.Verdict]{"ignore", pool.Ignore}, named[pool.Verdict]{"reject", pool.Reject})
}

// named is a value of an enumeration of the case files, by its name there.
type named[T any] struct {
	name  string
	value T
}

// byName returns the value of values named s, or an error naming the
// field, s and the names allowed.
func byName[T any](field, s string, values ...named[T]) (T, error) {
	names := make([]string, len(values))
	for i, v := range values {
		if v.name == s {
			return v.value, nil
		}
		names[i] = v.name
	}
	var zero T
	last := len(names) - 1
	return zero, fmt.Errorf("%s %q, want %s or %s", field, s, strings.Join(names[:last], ", "), names[last])
}

// readSSZSnappy reads the snappy-compressed SSZ file name (without its
// extension) of the case folder.
func readSSZSnappy(dir, name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dir, name+".ssz_snappy"))
	if err != nil {
		return nil, err
	}
	out, err := snappy.Decode(nil, b)
	if err != nil {
		return nil, fmt.Errorf("%s.ssz_snappy: %w", name, err)
	}
	return out, nil
}

// gossipNode is the pool's node built from a case.
type gossipNode struct {
	node   pool.Node
	clock  *pooltest.ManualClock
	blocks map[string]*block // by file name
}

// buildGossipNode decodes the anchor state and the blocks and builds the
// node (Condition steps 1 to 3 of the format).
func buildGossipNode(c Case, p *preset, m *gossipMeta) (*gossipNode, error) {
	raw, err := readSSZSnappy(c.Dir, "state")
	if err != nil {
		return nil, err
	}
	state, err := decodeState(p, c.Fork, raw)
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	mixes := newRandaoMixes(state, p)
	chain := pooltest.NewMemChain(p.slotsPerEpoch)
	g := &gossipNode{blocks: map[string]*block{}}
	for i, mb := range m.Blocks {
		b, err := g.importBlock(c, p, chain, mb, i == 0)
		if err != nil {
			return nil, err
		}
		if i > 0 && !mb.Failed && !mb.Pending {
			mixes.applyBlock(b.slot/p.slotsPerEpoch, b.randaoReveal)
		}
	}
	anchor := g.blocks[m.Blocks[0].Block]
	// get_forkchoice_store: the anchor is the store's finalized checkpoint.
	finalized := attestation.Checkpoint{Epoch: state.slot / p.slotsPerEpoch, Root: anchor.root}
	if cp := m.FinalizedCheckpoint; cp != nil {
		if finalized, err = g.checkpoint(cp); err != nil {
			return nil, err
		}
	}
	chain.SetFinalized(finalized)
	committees := &stateCommittees{p: p, validators: state.validators, mixes: mixes}
	genesis := time.Unix(int64(state.genesisTime), 0)
	g.clock = pooltest.NewManualClock(genesis)
	g.node = pool.Node{
		GenesisTime: genesis, Clock: g.clock,
		Keys:       &stateKeys{validators: state.validators},
		Committees: committees,
		Forks:      stateForks{fork: state.fork, gvr: state.gvr},
		Chain:      chain,
	}
	if c.Fork == "gloas" {
		g.node.Gloas = &pool.GloasNode{
			ForkEpoch: uint64(state.fork.Epoch),
			PTC:       statePTC{window: state.ptcWindow, epoch: state.slot / p.slotsPerEpoch, slotsPerEpoch: p.slotsPerEpoch},
		}
	}
	return g, nil
}

// importBlock decodes a block of meta.yaml's blocks and records it in the
// chain: imported, failed or pending, with its payload status (Gloas).
func (g *gossipNode) importBlock(c Case, p *preset, chain *pooltest.MemChain, mb gossipBlock, anchor bool) (*block, error) {
	raw, err := readSSZSnappy(c.Dir, mb.Block)
	if err != nil {
		return nil, err
	}
	b, err := decodeBlock(p, c.Fork, raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mb.Block, err)
	}
	if !anchor {
		if seen, _ := chain.Block(b.parent); !seen {
			return nil, fmt.Errorf("%s: parent 0x%x not imported before it", mb.Block, b.parent)
		}
	}
	// A failed or pending block is seen, with no post-state: the rules
	// treat both as a block that did not pass validation.
	chain.AddBlock(b.root, b.parent, b.slot, !mb.Failed && !mb.Pending)
	status, err := payloadStatus(c, p, mb, b.root)
	if err != nil {
		return nil, err
	}
	chain.SetPayloadStatus(b.root, status)
	g.blocks[mb.Block] = b
	return b, nil
}

// payloadStatus maps a block's payload and payload_status to what the
// pool's node reports: a status without the envelope is unverified
// (is_payload_verified is false); an envelope without a status is
// PAYLOAD_STATUS_NOT_VALIDATED.
func payloadStatus(c Case, p *preset, mb gossipBlock, root [32]byte) (pool.PayloadStatus, error) {
	if mb.Payload == "" {
		if mb.PayloadStatus != "" {
			if _, err := elStatus(mb.PayloadStatus); err != nil {
				return 0, err
			}
		}
		return pool.PayloadUnverified, nil
	}
	if c.Fork != "gloas" {
		return 0, fmt.Errorf("%s: a payload envelope before Gloas", mb.Block)
	}
	raw, err := readSSZSnappy(c.Dir, mb.Payload)
	if err != nil {
		return 0, err
	}
	of, err := decodeEnvelope(p, raw)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", mb.Payload, err)
	}
	if of != root {
		return 0, fmt.Errorf("%s: the envelope of block 0x%x, not of %s", mb.Payload, of, mb.Block)
	}
	if mb.PayloadStatus == "" {
		return pool.PayloadOptimistic, nil
	}
	return elStatus(mb.PayloadStatus)
}

func elStatus(s string) (pool.PayloadStatus, error) {
	return byName("payload_status", s, named[pool.PayloadStatus]{"VALID", pool.PayloadValid},
		named[pool.PayloadStatus]{"INVALIDATED", pool.PayloadInvalidated}, named[pool.PayloadStatus]{"NOT_VALIDATED", pool.PayloadOptimistic})
}

func (g *gossipNode) checkpoint(cp *gossipCheckpoint) (attestation.Checkpoint, error) {
	out := attestation.Checkpoint{Epoch: *cp.Epoch}
	if cp.Block != "" {
		b, ok := g.blocks[cp.Block]
		if !ok {
			return out, fmt.Errorf("finalized_checkpoint: block %s is not in blocks", cp.Block)
		}
		out.Root = b.root
		return out, nil
	}
	root, err := decodeHex(cp.Root)
	if err != nil || len(root) != 32 {
		return out, fmt.Errorf("finalized_checkpoint: root %q", cp.Root)
	}
	out.Root = [32]byte(root)
	return out, nil
}

// runGossipCase runs one case: every message in order, each at its time,
// its verdict compared with expected (Condition steps 4 and 5).
func runGossipCase(c Case, p *preset) error {
	m, err := readGossipMeta(c.Dir, c.Handler)
	if err != nil {
		return err
	}
	g, err := buildGossipNode(c, p, m)
	if err != nil {
		return err
	}
	pl, err := pool.New(pool.Config{
		SlotsPerEpoch: p.slotsPerEpoch, SlotDuration: time.Duration(p.slotMs) * time.Millisecond,
		BatchTime: time.Millisecond,
	}, g.node)
	if err != nil {
		return err
	}
	defer pl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	genesis := g.node.GenesisTime
	for i, msg := range m.Messages {
		at := *m.CurrentTimeMs
		if msg.OffsetMs != nil {
			at += *msg.OffsetMs
		} else {
			at = *msg.CurrentTimeMs
		}
		g.clock.Set(genesis.Add(time.Duration(at) * time.Millisecond))
		got, err := submitGossip(ctx, pl, c.Dir, m.Topic, msg)
		if err != nil {
			return fmt.Errorf("message %d (%s): %w", i, msg.Message, err)
		}
		want, _ := verdictOf(msg.Expected)
		if got.Verdict != want {
			return fmt.Errorf("message %d (%s): %v, want %s (%s)", i, msg.Message, got, msg.Expected, msg.Reason)
		}
	}
	return nil
}

// submitGossip decodes a message file and has the pool validate it.
func submitGossip(ctx context.Context, pl *pool.Pool, dir, topic string, msg gossipMessageMeta) (pool.Result, error) {
	raw, err := readSSZSnappy(dir, msg.Message)
	if err != nil {
		return pool.Result{}, err
	}
	switch topic {
	case "beacon_attestation":
		var att attestation.SingleAttestation
		if err := att.UnmarshalSSZ(raw); err != nil {
			return pool.Result{}, fmt.Errorf("SingleAttestation: %w", err)
		}
		return pl.ValidateAttestation(ctx, pool.NoPeer, &att, *msg.SubnetID), nil
	case "payload_attestation_message":
		var pam attestation.PayloadAttestationMessage
		if err := pam.UnmarshalSSZ(raw); err != nil {
			return pool.Result{}, fmt.Errorf("PayloadAttestationMessage: %w", err)
		}
		return pl.ValidatePayloadAttestation(ctx, pool.NoPeer, &pam), nil
	}
	var sap attestation.SignedAggregateAndProof
	if err := sap.UnmarshalSSZ(raw); err != nil {
		return pool.Result{}, fmt.Errorf("SignedAggregateAndProof: %w", err)
	}
	return pl.ValidateAggregate(ctx, pool.NoPeer, &sap), nil
}
