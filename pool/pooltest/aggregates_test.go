package pooltest_test

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"
	"time"

	"github.com/attpool/attpool/verifier/baseline"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/pool"
	"github.com/attpool/attpool/pool/pooltest"
	"github.com/attpool/attpool/ssz"
)

// smallNet has 2 committees of 128 a slot (so that a committee index can be
// out of range) and a head at slot 64 (epoch 2: stale votes exist).
func smallNet() *pooltest.Network { return pooltest.NewNetwork(32*2*128, 64) }

func TestAggregateTrafficShape(t *testing.T) {
	t.Run("default", func(t *testing.T) { testTrafficShape(t, pooltest.AggregateConfig{Seed: 7}, 0.85) })
	// Full views would all be equal: no view may contain another.
	t.Run("full-views", func(t *testing.T) { testTrafficShape(t, pooltest.AggregateConfig{MinView: 1, MaxView: 1}, 0.8) })
}

func testTrafficShape(t *testing.T, cfg pooltest.AggregateConfig, minShare float64) {
	net := smallNet()
	const slot = 64
	gen := pooltest.NewAggregateTraffic(net, cfg)
	msgs, err := gen.Slot(slot, nil)
	if err != nil {
		t.Fatal(err)
	}
	fork := net.Forks.ForkVersion(2)
	selDomain, _ := ssz.ComputeDomain(ssz.DomainSelectionProof, fork, net.Forks.Root)
	attDomain, _ := ssz.ComputeDomain(ssz.DomainBeaconAttester, fork, net.Forks.Root)
	aapDomain, _ := ssz.ComputeDomain(ssz.DomainAggregateAndProof, fork, net.Forks.Root)
	selRoot := ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(slot), selDomain)

	// Every member whose own selection proof selects it sends one aggregate.
	perCommittee := map[uint64]map[uint64]bool{}
	for _, m := range msgs {
		if m.Fault != pooltest.AggregateValid || m.Late || m.WantVerdict != pool.Accept || m.WantErr != nil {
			t.Fatalf("no faults asked, got %v", m.Fault)
		}
		if perCommittee[m.Committee] == nil {
			perCommittee[m.Committee] = map[uint64]bool{}
		}
		perCommittee[m.Committee][m.Msg.Message.AggregatorIndex] = true
	}
	for ci := range uint64(2) {
		members, _ := net.Committees.BeaconCommittee(slot, ci)
		want := 0
		for _, v := range members {
			proof := crypto.Sign(net.Keys.SecretKey(v), selRoot[:]).Bytes()
			if selects(len(members), proof) {
				want++
				if !perCommittee[ci][v] {
					t.Errorf("committee %d: selected validator %d sends no aggregate", ci, v)
				}
			}
		}
		if len(perCommittee[ci]) != want {
			t.Errorf("committee %d: %d aggregators, is_aggregator selects %d", ci, len(perCommittee[ci]), want)
		}
	}

	for i, m := range msgs {
		aap := m.Msg.Message
		agg := aap.Aggregate
		members, _ := net.Committees.BeaconCommittee(slot, m.Committee)
		if got := agg.CommitteeBits.BitIndices(); len(got) != 1 || uint64(got[0]) != m.Committee {
			t.Fatalf("message %d: committee bits %v, committee %d", i, got, m.Committee)
		}
		share := float64(agg.AggregationBits.Count()) / float64(len(members))
		if share < minShare-0.1 || share > 1 {
			t.Errorf("message %d: a view of %.2f of the committee", i, share)
		}
		var pks []*crypto.PublicKey
		for _, p := range agg.AggregationBits.BitIndices() {
			pks = append(pks, net.Keys.PublicKey(members[p]))
		}
		attRoot, _ := ssz.ComputeSigningRoot(agg.Data, attDomain)
		sig, err := crypto.SignatureFromBytes(agg.Signature[:])
		if err != nil || !crypto.FastAggregateVerify(pks, attRoot[:], sig) {
			t.Fatalf("message %d: aggregate signature does not verify (%v)", i, err)
		}
		proof, _ := crypto.SignatureFromBytes(aap.SelectionProof[:])
		if !crypto.Verify(net.Keys.PublicKey(aap.AggregatorIndex), selRoot[:], proof) {
			t.Fatalf("message %d: selection proof does not verify", i)
		}
		aapRoot, _ := ssz.ComputeSigningRoot(aap, aapDomain)
		outer, _ := crypto.SignatureFromBytes(m.Msg.Signature[:])
		if !crypto.Verify(net.Keys.PublicKey(aap.AggregatorIndex), aapRoot[:], outer) {
			t.Fatalf("message %d: aggregator signature does not verify", i)
		}
		for j := range i {
			o := msgs[j].Msg.Message.Aggregate
			if msgs[j].Committee != m.Committee {
				continue
			}
			c1, _ := o.AggregationBits.Contains(agg.AggregationBits)
			c2, _ := agg.AggregationBits.Contains(o.AggregationBits)
			if c1 || c2 {
				t.Fatalf("views %d and %d: one contains the other", j, i)
			}
		}
	}
}

// selects is the specs' is_aggregator.
func selects(size int, proof [96]byte) bool {
	modulo := max(1, uint64(size)/pool.TargetAggregatorsPerCommittee)
	h := sha256.Sum256(proof[:])
	return binary.LittleEndian.Uint64(h[:8])%modulo == 0
}

// TestAggregateTrafficFaults sends a slot with every fault through a pool:
// every message gets the verdict and the rule its fault names.
func TestAggregateTrafficFaults(t *testing.T) {
	net := smallNet()
	const slot = 64
	gen := pooltest.NewAggregateTraffic(net, pooltest.AggregateConfig{Seed: 3})
	faults := map[pooltest.AggregateFault]int{}
	for _, f := range pooltest.AggregateFaults() {
		faults[f] = 1
	}
	msgs, err := gen.Slot(slot, faults)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[pooltest.AggregateFault]int{}
	for _, m := range msgs {
		seen[m.Fault]++
	}
	for _, f := range pooltest.AggregateFaults() {
		if seen[f] != 1 {
			t.Errorf("%v: %d messages, want 1", f, seen[f])
		}
	}
	results, tally := submitSlot(t, net, slot, msgs)
	for _, i := range tally.Wrong {
		t.Errorf("%v (committee %d): got %v, want %v %v", msgs[i].Fault, msgs[i].Committee, results[i], msgs[i].WantVerdict, msgs[i].WantErr)
	}
	if tally.FaultsInjected != len(pooltest.AggregateFaults()) || tally.FaultsFound != tally.FaultsInjected {
		t.Errorf("faults: %d injected, %d found", tally.FaultsInjected, tally.FaultsFound)
	}

	// The baseline finds the signature faults and passes the valid ones.
	valid := referenceValid(net, msgs)
	for i, m := range msgs {
		switch m.Fault {
		case pooltest.AggregateValid, pooltest.AggDuplicate, pooltest.AggAggregatorSeen:
			if !valid[i] {
				t.Errorf("baseline: %v message %d invalid", m.Fault, i)
			}
		case pooltest.AggInvalidSelectionProof, pooltest.AggInvalidAggregatorSignature, pooltest.AggInvalidAggregateSignature:
			if valid[i] {
				t.Errorf("baseline: %v message %d valid", m.Fault, i)
			}
		}
	}
}

// submitSlot sends msgs of slot to a new pool over net, when aggregates
// are sent, and checks their verdicts.
func submitSlot(t *testing.T, net *pooltest.Network, slot uint64, msgs []pooltest.AggregateMsg) ([]pool.Result, pooltest.Tally) {
	t.Helper()
	p, err := pool.New(pool.Config{}, net.Node())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	net.SetSlot(slot, 8*time.Second)
	results, _ := pooltest.SubmitAggregates(p, msgs, 8)
	return results, pooltest.CheckAggregates(msgs, results)
}

func TestAggregateTrafficImpossibleFault(t *testing.T) {
	net := pooltest.NewNetwork(32*64*128, 10) // 64 committees, epoch 0
	gen := pooltest.NewAggregateTraffic(net, pooltest.AggregateConfig{})
	if _, err := gen.Slot(10, map[pooltest.AggregateFault]int{pooltest.AggCommitteeIndex: 1}); err == nil {
		t.Error("a committee index out of range at 64 committees: no error")
	}
	if _, err := gen.Slot(10, map[pooltest.AggregateFault]int{pooltest.AggStaleEpoch: 1}); err == nil {
		t.Error("a vote two epochs before epoch 0: no error")
	}
}

// TestOutsiderAggregatesNowhere: the aggregator an
// AggAggregatorNotInCommittee fault puts in is no aggregator of any
// committee of the epoch. One that is would have its own aggregate of the
// epoch, and once that is in, the fault's message is ignored
// (aggregator_seen, a rule before the committee check) instead of rejected.
func TestOutsiderAggregatesNowhere(t *testing.T) {
	net := smallNet()
	const epoch = 2
	slots := uint64(32)
	if testing.Short() {
		slots = 12
	}
	gen := pooltest.NewAggregateTraffic(net, pooltest.AggregateConfig{Seed: 3})
	fork := net.Forks.ForkVersion(epoch)
	selDomain, _ := ssz.ComputeDomain(ssz.DomainSelectionProof, fork, net.Forks.Root)
	for slot := epoch * net.SlotsPerEpoch; slot < epoch*net.SlotsPerEpoch+slots; slot++ {
		msgs, err := gen.Slot(slot, map[pooltest.AggregateFault]int{pooltest.AggAggregatorNotInCommittee: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			if m.Fault != pooltest.AggAggregatorNotInCommittee {
				continue
			}
			v := m.Msg.Message.AggregatorIndex
			s, members := committeeOf(t, net, epoch, v)
			selRoot := ssz.ComputeSigningRootFromRoot(ssz.HashTreeRootUint64(s), selDomain)
			net.DeriveKeys([]uint64{v})
			if selects(len(members), crypto.Sign(net.Keys.SecretKey(v), selRoot[:]).Bytes()) {
				t.Errorf("slot %d: the outsider %d aggregates for its own committee at slot %d", slot, v, s)
			}
		}
	}
}

// committeeOf returns the slot and committee of validator v in epoch.
func committeeOf(t *testing.T, net *pooltest.Network, epoch, v uint64) (uint64, []uint64) {
	t.Helper()
	cps, _ := net.Committees.CommitteeCountPerSlot(epoch)
	for s := epoch * net.SlotsPerEpoch; s < (epoch+1)*net.SlotsPerEpoch; s++ {
		for ci := range cps {
			members, _ := net.Committees.BeaconCommittee(s, ci)
			for _, m := range members {
				if m == v {
					return s, members
				}
			}
		}
	}
	t.Fatalf("validator %d is in no committee of epoch %d", v, epoch)
	return 0, nil
}

// TestAggregateTrafficGloas: on a network that reaches Gloas, the
// aggregators sign the Gloas AggregateAndProof's root, which a pool with
// the Gloas rules and the baseline accept.
func TestAggregateTrafficGloas(t *testing.T) {
	net := smallNet()
	net.Gloas = &pool.GloasNode{ForkEpoch: 2, PTC: pooltest.CommitteePTC{Committees: net.Committees, SlotsPerEpoch: net.SlotsPerEpoch}}
	const slot = 64 // epoch 2
	msgs, err := pooltest.NewAggregateTraffic(net, pooltest.AggregateConfig{Seed: 5}).Slot(slot, nil)
	if err != nil {
		t.Fatal(err)
	}
	if results, tally := submitSlot(t, net, slot, msgs); len(tally.Wrong) != 0 {
		i := tally.Wrong[0]
		t.Fatalf("%d of %d wrong verdicts, the first %v", len(tally.Wrong), len(msgs), results[i])
	}
	valid := referenceValid(net, msgs)
	for i, ok := range valid {
		if !ok {
			t.Fatalf("baseline: message %d invalid", i)
		}
	}
	// The Electra root the aggregators sign before the fork is wrong here.
	aap := msgs[0].Msg.Message
	aapDomain, _ := ssz.ComputeDomain(ssz.DomainAggregateAndProof, net.Forks.ForkVersion(2), net.Forks.Root)
	electra, _ := ssz.ComputeSigningRoot(aap, aapDomain)
	outer, _ := crypto.SignatureFromBytes(msgs[0].Msg.Signature[:])
	if crypto.Verify(net.Keys.PublicKey(aap.AggregatorIndex), electra[:], outer) {
		t.Fatal("the aggregator signed the Electra root")
	}
}

// referenceValid reports, for each message, whether its three signatures
// are valid, each checked alone against the sets Network.AggregateSets
// builds without the pool.
func referenceValid(net *pooltest.Network, msgs []pooltest.AggregateMsg) []bool {
	valid := make([]bool, len(msgs))
	for i, m := range msgs {
		if sets, ok := net.AggregateSets(m.Msg); ok {
			v := baseline.EachAlone{}.Verify(sets[:])
			valid[i] = v[0] && v[1] && v[2]
		}
	}
	return valid
}
