package pool

import (
	"github.com/prysmaticlabs/go-bitfield"

	"github.com/attpool/attpool/crypto"
)

// participantsKey is the sum of the public keys of the committee members
// whose bits are set: the key an aggregate's signature is checked against.
// It returns nil and the verdict when the key cannot be had.
func (p *Pool) participantsKey(committee []uint64, bits bitfield.Bitlist) (*crypto.PublicKey, Result) {
	participants := make([]*crypto.PublicKey, 0, bits.Count())
	for i, v := range committee {
		if bits.BitAt(uint64(i)) {
			pk := p.node.Keys.PublicKey(v)
			if pk == nil {
				return nil, ignoref(ErrUnknownValidator, "validator %d", v)
			}
			participants = append(participants, pk)
		}
	}
	key, err := crypto.AggregatePublicKeys(participants)
	if err != nil {
		// [REJECT] The signature of aggregate is valid (the key of its
		// participants is not valid, so no signature is).
		return nil, rejectf(ErrInvalidAggregateSignature, "%w", err)
	}
	return key, Result{}
}
