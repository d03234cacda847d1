package ssz_test

import (
	"encoding/binary"
	"fmt"

	"github.com/attpool/attpool/ssz"
)

// An attestation pool derives once per fork the domain its signatures are
// checked in, then the signing root of each message from the message's hash
// tree root.
func Example() {
	// The chain's fork version at the message's epoch and its genesis
	// validators root (all zero here, for illustration).
	var forkVersion ssz.Version
	var genesisValidatorsRoot ssz.Root

	domain, err := ssz.ComputeDomain(ssz.DomainBeaconAttester, forkVersion, genesisValidatorsRoot)
	if err != nil {
		panic(err)
	}
	fmt.Printf("domain: %x\n", domain)

	// The hash tree root of an AttestationData would come from its
	// HashTreeRoot method; here it is an arbitrary value.
	dataRoot := ssz.Root{0x01}
	fmt.Printf("signing root: %x\n", ssz.ComputeSigningRootFromRoot(dataRoot, domain))

	// An aggregator's selection proof signs the slot.
	selectionDomain, err := ssz.ComputeDomain(ssz.DomainSelectionProof, forkVersion, genesisValidatorsRoot)
	if err != nil {
		panic(err)
	}
	slotRoot := ssz.HashTreeRootUint64(42)
	fmt.Println("slot root holds the slot:", binary.LittleEndian.Uint64(slotRoot[:8]))
	_ = ssz.ComputeSigningRootFromRoot(slotRoot, selectionDomain)
	// Output:
	// domain: 01000000f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a9
	// signing root: 575933ae8235eda2f49ef4574cb270e2e8e114541767343e980a3094e945a2b4
	// slot root holds the slot: 42
}
