package gossipsub

import (
	"fmt"

	"github.com/attpool/attpool/ssz"
)

// ForkDigest is the 4-byte ForkDigestValue of a topic name.
type ForkDigest [4]byte

// ComputeForkDigest is the phase0-to-Electra compute_fork_digest:
// compute_fork_data_root(current_version, genesis_validators_root)[:4]. From
// Fulu on the specs XOR it with the blob parameters of the epoch; a node past
// Fulu computes its digest itself and passes it in Config.Digest.
func ComputeForkDigest(version ssz.Version, genesisValidatorsRoot ssz.Root) (ForkDigest, error) {
	root, err := ssz.ComputeForkDataRoot(version, genesisValidatorsRoot)
	if err != nil {
		return ForkDigest{}, fmt.Errorf("attpool/gossipsub: fork digest: %w", err)
	}
	return ForkDigest(root[:4]), nil
}

// AttestationTopic is the topic of attestation subnet subnet:
// /eth2/{fork_digest}/beacon_attestation_{subnet_id}/ssz_snappy, the digest
// in lowercase hex without 0x.
func AttestationTopic(digest ForkDigest, subnet uint64) string {
	return fmt.Sprintf("/eth2/%x/beacon_attestation_%d/ssz_snappy", digest[:], subnet)
}

// AggregateTopic is /eth2/{fork_digest}/beacon_aggregate_and_proof/ssz_snappy.
func AggregateTopic(digest ForkDigest) string {
	return fmt.Sprintf("/eth2/%x/beacon_aggregate_and_proof/ssz_snappy", digest[:])
}

// PayloadAttestationTopic is
// /eth2/{fork_digest}/payload_attestation_message/ssz_snappy (Gloas).
func PayloadAttestationTopic(digest ForkDigest) string {
	return fmt.Sprintf("/eth2/%x/payload_attestation_message/ssz_snappy", digest[:])
}
