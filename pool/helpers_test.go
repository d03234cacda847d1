package pool

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/clientbatch"
	"github.com/attpool/attpool/internal/signtest"
	"github.com/attpool/attpool/pool/internal/memnode"
	"github.com/attpool/attpool/ssz"
	"github.com/attpool/attpool/verifier/baseline"
)

// testCommittees has cps committees of size validators per slot; validator
// (slot%spe)*cps*size + ci*size + pos sits at pos of committee ci.
type testCommittees struct{ spe, cps, size uint64 }

func (c testCommittees) CommitteeCountPerSlot(uint64) (uint64, bool) { return c.cps, true }

func (c testCommittees) BeaconCommittee(slot, index uint64) ([]uint64, bool) {
	if index >= c.cps {
		return nil, false
	}
	out := make([]uint64, c.size)
	for i := range out {
		out[i] = c.validator(slot, index, uint64(i))
	}
	return out, true
}

func (c testCommittees) validator(slot, index, pos uint64) uint64 {
	return (slot%c.spe)*c.cps*c.size + index*c.size + pos
}

// env is a small chain for unit tests: SLOTS_PER_EPOCH 32, 2 committees of
// 8 per slot, one block per slot with root blockRoot(slot).
type env struct {
	t       testing.TB
	spe     uint64
	comm    testCommittees
	keys    *memnode.InteropKeys
	clock   *memnode.ManualClock
	chain   *memnode.MemChain[PayloadStatus]
	forks   *memnode.ForkList
	genesis time.Time
	node    Node
}

var testGenesis = time.Unix(1_600_000_000, 0)

func blockRoot(slot uint64) [32]byte {
	var r [32]byte
	binary.LittleEndian.PutUint64(r[:], slot+1)
	r[31] = 0xb1
	return r
}

func newEnv(t testing.TB, cps, size uint64, headSlot uint64) *env {
	e := &env{t: t, spe: 32, genesis: testGenesis}
	e.comm = testCommittees{spe: 32, cps: cps, size: size}
	e.keys = memnode.NewInteropKeys(32 * cps * size)
	e.clock = memnode.NewManualClock(testGenesis)
	e.chain = memnode.NewMemChain[PayloadStatus](32)
	for s := uint64(0); s <= headSlot; s++ {
		parent := [32]byte{}
		if s > 0 {
			parent = blockRoot(s - 1)
		}
		e.chain.AddBlock(blockRoot(s), parent, s, true)
	}
	e.chain.SetFinalized(attestation.Checkpoint{Epoch: 0, Root: blockRoot(0)})
	e.forks = memnode.SingleFork(ssz.Version{5, 0, 0, 0}, ssz.Root{0x42})
	e.node = Node{GenesisTime: testGenesis, Clock: e.clock, Keys: e.keys, Committees: e.comm, Forks: e.forks, Chain: e.chain}
	e.setSlot(headSlot, 1000)
	return e
}

// setSlot sets the clock ms milliseconds into slot.
func (e *env) setSlot(slot uint64, ms int64) {
	e.clock.Set(e.genesis.Add(time.Duration(slot)*12*time.Second + time.Duration(ms)*time.Millisecond))
}

// data returns the AttestationData of slot voting for its block.
func (e *env) data(slot uint64) *attestation.AttestationData {
	epoch := slot / e.spe
	return &attestation.AttestationData{
		Slot:            slot,
		BeaconBlockRoot: blockRoot(slot),
		Source:          &attestation.Checkpoint{Epoch: 0, Root: blockRoot(0)},
		Target:          &attestation.Checkpoint{Epoch: epoch, Root: blockRoot(epoch * e.spe)},
	}
}

func (e *env) domain(typ ssz.DomainType, epoch uint64) ssz.Domain {
	d, err := ssz.ComputeDomain(typ, e.forks.ForkVersion(epoch), e.forks.Root)
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

func (e *env) sign(validator uint64, root [32]byte) [96]byte {
	return signtest.Sign(e.keys.SecretKey(validator), root)
}

func (e *env) dataSigningRoot(d *attestation.AttestationData) [32]byte {
	r, err := ssz.ComputeSigningRoot(d.Copy(), e.domain(ssz.DomainBeaconAttester, d.Target.Epoch))
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// single returns the signed attestation of the validator at pos of
// committee ci for d, and its subnet.
func (e *env) single(d *attestation.AttestationData, ci, pos uint64) (*attestation.SingleAttestation, uint64) {
	v := e.comm.validator(d.Slot, ci, pos)
	att := &attestation.SingleAttestation{CommitteeIndex: ci, AttesterIndex: v, Data: d, Signature: e.sign(v, e.dataSigningRoot(d))}
	subnet := (e.comm.cps*(d.Slot%e.spe) + ci) % AttestationSubnetCount
	return att, subnet
}

// aggregatorFor returns a committee position whose selection proof selects
// it, and the proof.
func (e *env) aggregatorFor(slot, ci uint64) (uint64, [96]byte) {
	root := ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(slot), e.domain(ssz.DomainSelectionProof, slot/e.spe))
	for pos := range e.comm.size {
		proof := e.sign(e.comm.validator(slot, ci, pos), root)
		if isAggregator(int(e.comm.size), proof) {
			return pos, proof
		}
	}
	e.t.Fatal("no aggregator")
	return 0, [96]byte{}
}

// aggregate returns a signed aggregate of committee ci over the positions.
func (e *env) aggregate(d *attestation.AttestationData, ci uint64, positions []uint64) *attestation.SignedAggregateAndProof {
	bits := bitfield.NewBitlist(e.comm.size)
	var sigs [][96]byte
	root := e.dataSigningRoot(d)
	for _, pos := range positions {
		bits.SetBitAt(pos, true)
		sigs = append(sigs, e.sign(e.comm.validator(d.Slot, ci, pos), root))
	}
	pos, proof := e.aggregatorFor(d.Slot, ci)
	aggregator := e.comm.validator(d.Slot, ci, pos)
	aap := &attestation.AggregateAndProof{
		AggregatorIndex: aggregator,
		Aggregate:       &attestation.Attestation{AggregationBits: bits, Data: d, Signature: aggregateSignatures(e.t, sigs), CommitteeBits: committeeBits(ci)},
		SelectionProof:  proof,
	}
	return &attestation.SignedAggregateAndProof{Message: aap, Signature: e.signAggregateAndProof(aap)}
}

// aggregateSignatures returns the aggregate of the encoded signatures.
func aggregateSignatures(t testing.TB, encoded [][96]byte) [96]byte {
	t.Helper()
	sigs := make([]*crypto.Signature, len(encoded))
	for i, b := range encoded {
		s, err := crypto.SignatureFromBytes(b[:])
		if err != nil {
			t.Fatal(err)
		}
		sigs[i] = s
	}
	sig, err := crypto.AggregateSignatures(sigs)
	if err != nil {
		t.Fatal(err)
	}
	return sig.Bytes()
}

// committeeBits returns the committee bits of committee ci alone.
func committeeBits(ci uint64) bitfield.Bitvector64 {
	cb := bitfield.NewBitvector64()
	cb.SetBitAt(ci, true)
	return cb
}

// signAggregateAndProof signs aap as its aggregator does: the Electra
// container's root, or from the Gloas fork on the Gloas one's.
func (e *env) signAggregateAndProof(aap *attestation.AggregateAndProof) [96]byte {
	c := *aap
	a := *aap.Aggregate
	a.Data = a.Data.Copy()
	c.Aggregate = &a
	var msg hashRooter = &c
	if e.node.Gloas != nil && a.Data.Slot/e.spe >= e.node.Gloas.ForkEpoch {
		msg = c.Gloas()
	}
	return e.signAggregateAndProofRoot(c.AggregatorIndex, msg, a.Data.Target.Epoch)
}

// hashRooter is an SSZ container.
type hashRooter interface{ HashTreeRoot() ([32]byte, error) }

// signAggregateAndProofRoot signs the AggregateAndProof msg of epoch as
// validator.
func (e *env) signAggregateAndProofRoot(validator uint64, msg hashRooter, epoch uint64) [96]byte {
	r, err := msg.HashTreeRoot()
	if err != nil {
		e.t.Fatal(err)
	}
	return e.sign(validator, ssz.ComputeSigningRootFromRoot(r, e.domain(ssz.DomainAggregateAndProof, epoch)))
}

// perSignature is the per-signature baseline of the benchmarks, a
// SignatureVerifier that checks every set alone (in parallel).
func perSignature(testing.TB) SignatureVerifier { return baseline.EachAlone{} }

func (e *env) pool(cfg Config) *Pool {
	e.t.Helper()
	if cfg.BatchTime == 0 {
		cfg.BatchTime = time.Millisecond
	}
	if cfg.pruneEvery == 0 {
		cfg.pruneEvery = time.Hour // tests prune by hand
	}
	p, err := New(cfg, e.node)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		p.Close()
		checkInvariants(e.t, p)
	})
	return p
}

// patience is how long a test in real time waits for what only a hung
// pool would withhold (a verdict, a drained queue, goroutines on their way
// out): what the test binary's -timeout leaves, less a margin for the
// test's own failure message, or ten minutes without a deadline
// (benchmarks, -timeout 0). A slow or loaded machine is never failed by it;
// a hang fails with the test's message rather than the timeout's panic. In
// a synctest bubble (where T.Deadline must not be called) waits pass in
// fake time and need none of this.
func patience(tb testing.TB) time.Duration {
	if t, ok := tb.(interface{ Deadline() (time.Time, bool) }); ok {
		if d, ok := t.Deadline(); ok {
			return max(time.Until(d)-5*time.Second, time.Second)
		}
	}
	return 10 * time.Minute
}

// checkLeaks fails t if goroutines started during the test outlive it: a
// goroutine running this module's code at cleanup (after the test's pools
// are closed) that did not run before the test is a leak. Close waits for
// what a pool started, so such goroutines can only be on their way out: the
// check waits for them with patience, so a slow or loaded machine does not
// fail it, and it names the goroutines it finds. Tests in a synctest bubble
// need no checkLeaks: the bubble fails a test whose goroutines outlive it.
func checkLeaks(t *testing.T) {
	before := moduleGoroutines()
	t.Cleanup(func() {
		limit := time.Now().Add(patience(t))
		for {
			var leaked []string
			for id, stack := range moduleGoroutines() {
				if _, ok := before[id]; !ok {
					leaked = append(leaked, stack)
				}
			}
			if len(leaked) == 0 {
				return
			}
			if time.Now().After(limit) {
				t.Errorf("%d goroutines outlive the test:\n%s", len(leaked), strings.Join(leaked, "\n\n"))
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// moduleGoroutines returns the stacks, by goroutine id, of the goroutines
// other than the caller's that run this module's code.
func moduleGoroutines() map[string]string {
	buf := make([]byte, 1<<16)
	n := runtime.Stack(buf, true)
	for n == len(buf) {
		buf = make([]byte, 2*len(buf))
		n = runtime.Stack(buf, true)
	}
	out := map[string]string{}
	stacks := strings.Split(strings.TrimRight(string(buf[:n]), "\n"), "\n\n")
	for _, g := range stacks[1:] { // the first is the caller's
		if strings.Contains(g, "github.com/attpool/attpool/") {
			id, _, _ := strings.Cut(strings.TrimPrefix(g, "goroutine "), " ")
			out[id] = g
		}
	}
	return out
}

// timingTests reports whether the assertions on figures of the machine
// (cost ratios, heap bounds) run: only when ATTPOOL_TIMING_TESTS is set, on
// a quiet machine, and never under the race detector, which changes both.
// Otherwise the tests log the figures; the benchmarks report them.
func timingTests() bool {
	return os.Getenv("ATTPOOL_TIMING_TESTS") != "" && !raceEnabled
}

// checkInvariants checks the pool's indexes against each other.
func checkInvariants(t testing.TB, p *Pool) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for root, e := range p.store.byRoot {
		if r, err := e.data.HashTreeRoot(); err != nil || r != root || e.root != root {
			t.Errorf("data entry %x: root mismatch", root[:4])
		}
		for ci, aggs := range e.committees {
			n += len(aggs)
			for i, a := range aggs {
				if a.participants() == 0 {
					t.Errorf("committee %d aggregate %d: empty", ci, i)
				}
				for j, b := range aggs {
					if i != j && isSuperset(b.bits, a.bits) {
						t.Errorf("committee %d: aggregate %d contained in %d", ci, i, j)
					}
				}
			}
		}
	}
	if n != p.store.n {
		t.Errorf("aggregate count %d, index says %d", n, p.store.n)
	}
	seen := 0
	for _, e := range p.aggSeen.byKey {
		seen += len(e.bits)
	}
	if seen != p.aggSeen.n {
		t.Errorf("seen aggregates %d, index says %d", seen, p.aggSeen.n)
	}
	inflight := len(p.attestations.inflight) + len(p.aggregates.inflight) + len(p.payloadAttestations.inflight)
	if p.closed.Load() && (inflight != 0 || p.pending.Load() != 0 || p.followers != 0) {
		t.Errorf("closed pool has work in flight: %d groups, %d sets, %d followers", inflight, p.pending.Load(), p.followers)
	}
	held := 0
	for _, n := range p.peerPending {
		held += n
	}
	if p.closed.Load() && held != 0 {
		t.Errorf("closed pool: peers hold %d places (%v)", held, p.peerPending)
	}
}

// verifyOnChain checks an on-chain aggregate's signature against its
// participants' keys.
func (e *env) verifyOnChain(a *attestation.Attestation) bool {
	var pks []*crypto.PublicKey
	var off uint64
	for _, ci := range a.CommitteeBits.BitIndices() {
		committee, _ := e.comm.BeaconCommittee(a.Data.Slot, uint64(ci))
		for pos, v := range committee {
			if a.AggregationBits.BitAt(off + uint64(pos)) {
				pks = append(pks, e.keys.PublicKey(v))
			}
		}
		off += uint64(len(committee))
	}
	if off != a.AggregationBits.Len() {
		return false
	}
	sig, err := crypto.SignatureFromBytes(a.Signature[:])
	if err != nil {
		return false
	}
	root := e.dataSigningRoot(a.Data)
	return crypto.FastAggregateVerify(pks, root[:], sig)
}

func wantResult(t testing.TB, got Result, verdict Verdict, sentinel error) {
	t.Helper()
	if got.Verdict != verdict || (sentinel != nil && !errors.Is(got, sentinel)) || (sentinel == nil && got.Err != nil) {
		t.Fatalf("got %v, want %v %v", got, verdict, sentinel)
	}
}

// fifo is a client's queue (clientbatch.Batching) for Config.fixed: at most
// size sets a batch, one at min queued sets or once the oldest waited wait.
func fifo(size, min int, wait time.Duration) *clientbatch.Batching {
	return &clientbatch.Batching{Size: size, Min: min, Wait: wait}
}

// validateAttestationAsync is ValidateAttestation without the wait, for the
// tests that submit messages in a known order from one goroutine: the
// verdict is sent once on the returned channel (buffered).
func (p *Pool) validateAttestationAsync(ctx context.Context, from Peer, att *attestation.SingleAttestation, subnet uint64) <-chan Result {
	return p.run(ctx, p.attestations, func(r *request) (Result, bool) { return p.submitAttestation(r, from, att, subnet) })
}

// validateAggregateAsync is ValidateAggregate without the wait.
func (p *Pool) validateAggregateAsync(ctx context.Context, from Peer, sap *attestation.SignedAggregateAndProof) <-chan Result {
	return p.run(ctx, p.aggregates, func(r *request) (Result, bool) { return p.submitAggregate(r, from, sap) })
}

// validatePayloadAttestationAsync is ValidatePayloadAttestation without the
// wait.
func (p *Pool) validatePayloadAttestationAsync(ctx context.Context, from Peer, msg *attestation.PayloadAttestationMessage) <-chan Result {
	return p.run(ctx, p.payloadAttestations, func(r *request) (Result, bool) { return p.submitPayloadAttestation(r, from, msg) })
}
