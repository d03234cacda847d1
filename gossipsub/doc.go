// Package gossipsub puts an attpool pool behind go-libp2p-pubsub: topic
// validators (pubsub.ValidatorEx) for the Electra beacon_attestation_{subnet_id}
// and beacon_aggregate_and_proof topics that decode the ssz_snappy payload,
// hand the message and its forwarding peer to the pool, and map the pool's
// verdict to the router's; the consensus specs' topic names and message-id
// function; and the router options a beacon node sets (validation queue,
// throttles and workers, StrictNoSign, message size, gossipsub parameters,
// peer scoring).
//
//	ps, err := pubsub.NewGossipSub(ctx, host, gossipsub.RouterOptions(gossipsub.RouterConfig{
//		Score: gossipsub.PeerScore(digest, subnets, 12*time.Second),
//	})...)
//	v, err := gossipsub.NewValidators(p, gossipsub.Config{Digest: digest, Self: host.ID()})
//	err = v.Register(ps, subnets...)
//
// The pool's Verdict is ordered Reject, Ignore, Accept; pubsub's
// ValidationResult is ordered Accept, Reject, Ignore: a cast between them
// would swap outcomes, so ValidationOf maps them by name.
package gossipsub
