// Package clientbatch describes how a consensus client gathers gossip
// signature sets into batches: one queue of every set, a batch when enough
// sets are queued or the oldest has waited long enough. The client
// baselines of verifier/baseline carry it, and a pool given one of them as
// its verifier batches that way, so that the benchmarks compare attpool
// with each client's queue as well as its verification method.
package clientbatch

import "time"

// Batching is a client's queue: a batch is taken when Min sets are queued
// or the oldest queued set has waited Wait, and holds at most Size sets.
// Min 1 takes what is queued at once.
type Batching struct {
	Size int
	Min  int
	Wait time.Duration
}

// Client is a signature verifier that models a client, batching included.
type Client interface {
	ClientBatching() Batching
}
