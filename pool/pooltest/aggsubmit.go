package pooltest

import (
	"context"
	"time"

	"github.com/attpool/attpool/pool"
)

// SubmitAggregates sends msgs to p through ValidateAggregate (Async) from
// goroutines goroutines (the messages that are not late spread round-robin)
// and waits for every verdict; then it sends the late messages the same way
// and waits for theirs. wall runs from the first submission to the last
// verdict of the messages that are not late.
func SubmitAggregates(p *pool.Pool, msgs []AggregateMsg, goroutines int) (results []pool.Result, wall time.Duration) {
	results = make([]pool.Result, len(msgs))
	var early, late []int
	for i := range msgs {
		if msgs[i].Late {
			late = append(late, i)
		} else {
			early = append(early, i)
		}
	}
	wall = submitAggregates(p, msgs, early, results, goroutines)
	submitAggregates(p, msgs, late, results, goroutines)
	return results, wall
}

// submitAggregates submits msgs[idx] and returns the time from the first
// submission to the last verdict.
func submitAggregates(p *pool.Pool, msgs []AggregateMsg, idx []int, results []pool.Result, goroutines int) time.Duration {
	if len(idx) == 0 {
		return 0
	}
	return spread(len(idx), goroutines,
		func(k int) <-chan pool.Result {
			return Async(func() pool.Result {
				return p.ValidateAggregate(context.Background(), pool.NoPeer, msgs[idx[k]].Msg)
			})
		},
		func(k int, r pool.Result) { results[idx[k]] = r })
}

// CheckAggregates tallies results against msgs: FaultsInjected counts the
// faulty messages, FaultsFound those that got their expected verdict, and
// Wrong lists every message whose verdict is not the expected one.
func CheckAggregates(msgs []AggregateMsg, results []pool.Result) Tally {
	return tally(results, func(i int) bool { return msgs[i].Fault != AggregateValid },
		func(i int, r pool.Result) bool { return msgs[i].Matches(r) })
}
