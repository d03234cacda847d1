//go:build race

package gossipsub_test

const raceEnabled = true
