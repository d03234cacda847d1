package attestation

import "errors"

// ErrNotMinimal reports a PayloadAttestation with a bit set past the
// minimal preset's PTC_SIZE, which its container cannot hold.
var ErrNotMinimal = errors.New("attpool/attestation: payload attestation has bits past the minimal PTC")

// ToMinimalPayloadAttestation converts a payload attestation of a minimal
// preset chain, held in the mainnet container (as the pool returns it), to
// the minimal preset's container. It shares a's Data. It returns an error
// wrapping ErrNotMinimal if a bit at position MinimalPTCSize or above is set.
func ToMinimalPayloadAttestation(a *PayloadAttestation) (*MinimalPayloadAttestation, error) {
	if a == nil || len(a.AggregationBits) != PTCSize/8 {
		return nil, ErrInvalidAggregationBits
	}
	for _, b := range a.AggregationBits[MinimalPTCSize/8:] {
		if b != 0 {
			return nil, ErrNotMinimal
		}
	}
	return &MinimalPayloadAttestation{
		AggregationBits: [MinimalPTCSize / 8]byte(a.AggregationBits[:MinimalPTCSize/8]),
		Data:            a.Data,
		Signature:       a.Signature,
	}, nil
}
