package pool

import (
	"encoding/binary"
	"sync"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/ssz"
)

// dataBytes is the SSZ encoding of an AttestationData (8+8+32+40+40 bytes).
type dataBytes [128]byte

// encodeData returns the SSZ encoding of d, treating nil checkpoints as zero
// ones (as their encoding does). Unlike the generated MarshalSSZTo it never
// writes to d, so many goroutines may share one AttestationData.
func encodeData(d *attestation.AttestationData) (b dataBytes) {
	binary.LittleEndian.PutUint64(b[0:], d.Slot)
	binary.LittleEndian.PutUint64(b[8:], d.Index)
	copy(b[16:48], d.BeaconBlockRoot[:])
	if d.Source != nil {
		binary.LittleEndian.PutUint64(b[48:], d.Source.Epoch)
		copy(b[56:88], d.Source.Root[:])
	}
	if d.Target != nil {
		binary.LittleEndian.PutUint64(b[88:], d.Target.Epoch)
		copy(b[96:128], d.Target.Root[:])
	}
	return b
}

// dataInfo is what the pool derives from an AttestationData once.
type dataInfo struct {
	data        *attestation.AttestationData // the pool's copy: never written
	root        [32]byte                     // hash_tree_root(data)
	signingRoot [32]byte                     // compute_signing_root(data, DOMAIN_BEACON_ATTESTER at target epoch)
	slot        uint64
}

// rootCache caches dataInfo by the data's encoding, so equal data is hashed
// once. It holds at most max entries; when full, roots are computed without
// being cached (the cache is an optimisation, so a full cache never causes a
// verdict). prune drops entries of slots before a bound.
type rootCache struct {
	max     int
	domains *domainCache
	mu      sync.RWMutex
	m       map[dataBytes]*dataInfo
}

func newRootCache(max int, domains *domainCache) *rootCache {
	return &rootCache{max: max, domains: domains, m: make(map[dataBytes]*dataInfo)}
}

func (c *rootCache) get(d *attestation.AttestationData, targetEpoch uint64) (*dataInfo, error) {
	key := encodeData(d)
	c.mu.RLock()
	info := c.m[key]
	c.mu.RUnlock()
	if info != nil {
		return info, nil
	}
	data := d.Copy()
	root, err := data.HashTreeRoot()
	if err != nil {
		return nil, err
	}
	dom, err := c.domains.get(ssz.DomainBeaconAttester, targetEpoch)
	if err != nil {
		return nil, err
	}
	info = &dataInfo{data: data, root: root, signingRoot: ssz.ComputeSigningRootFromRoot(root, dom), slot: d.Slot}
	c.mu.Lock()
	if old := c.m[key]; old != nil {
		info = old
	} else if len(c.m) < c.max {
		c.m[key] = info
	}
	c.mu.Unlock()
	return info, nil
}

func (c *rootCache) prune(minSlot uint64) {
	c.mu.Lock()
	for k, v := range c.m {
		if v.slot < minSlot {
			delete(c.m, k)
		}
	}
	c.mu.Unlock()
}

func (c *rootCache) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

// domainCache caches compute_domain by domain type and fork version; there
// are a handful of each, so it needs no bound.
type domainCache struct {
	forks ForkSchedule
	mu    sync.RWMutex
	m     map[domainKey]ssz.Domain
}

type domainKey struct {
	typ     ssz.DomainType
	version ssz.Version
}

func newDomainCache(forks ForkSchedule) *domainCache {
	return &domainCache{forks: forks, m: make(map[domainKey]ssz.Domain)}
}

// get is get_domain(state, typ, epoch).
func (c *domainCache) get(typ ssz.DomainType, epoch uint64) (ssz.Domain, error) {
	k := domainKey{typ, c.forks.ForkVersion(epoch)}
	c.mu.RLock()
	d, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return d, nil
	}
	d, err := ssz.ComputeDomain(typ, k.version, c.forks.GenesisValidatorsRoot())
	if err != nil {
		return d, err
	}
	c.mu.Lock()
	c.m[k] = d
	c.mu.Unlock()
	return d, nil
}
