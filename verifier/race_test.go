//go:build race

package verifier

// The race detector slows the Go side of each call; the order-13 attack keeps
// enough trials to show 1-in-13 acceptance would be caught (about 30 expected
// false accepts for a sound-less check) within CI's time.
func init() { orderThirteenTrials = 400 }
