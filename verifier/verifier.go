package verifier

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/attpool/attpool/crypto"
)

// Set is one signature to verify: Signature must be PublicKey's signature of
// the signing root Root.
type Set struct {
	Root      [32]byte          // signing root
	PublicKey *crypto.PublicKey // validated, cached by the caller; may be an aggregate key
	Signature [96]byte          // compressed G2 point, exactly as received

	// Decoded, when not nil, is Signature already decoded by the caller with
	// crypto's SetBytesNoSubgroupCheck (a caller that keeps the point, to
	// aggregate it, need not pay for a second decompression). The verifier
	// uses it instead of decoding Signature and still checks its subgroup;
	// it must be the decoding of Signature, or the verdict is about Decoded.
	Decoded *crypto.Signature
}

// Config configures a Verifier. The zero Config means the defaults.
type Config struct {
	// SecurityBits is the soundness of a call: a call that holds an invalid
	// signature accepts it with probability at most 2^-SecurityBits (the
	// bound covers all the checks the call makes; see the package doc). 64
	// (the default) or 128. 64 is the default because it is the level the
	// clients' batch verifiers use (64-bit blinding scalars) and an attacker
	// gets one try per signature sent, not an offline search; 128 costs
	// about twice the subgroup rounds.
	SecurityBits int
	// Workers is the number of goroutines the Verifier owns; 0 (the default)
	// means GOMAXPROCS, because the work is all CPU: more goroutines than
	// cores only add switching, and fewer leave cores idle.
	Workers int
	// HashCacheSize bounds the cache of signing roots hashed to G2 (two
	// generations of this many entries); negative disables it. 0 means 1024:
	// a slot's attestations share a few signing roots (most attesters vote
	// for the same head), so 1024 keeps every recent root of the attestation
	// topics over many slots while bounding the memory (an entry is 192
	// bytes; a hash costs about 170 µs). Roots seen once (aggregates' own
	// messages) pass through without crowding the common ones out for long.
	HashCacheSize int
	// Individual makes Verify check every set alone, in parallel: the
	// per-signature baseline, for benchmarks and comparisons. Off by
	// default.
	Individual bool
}

// DefaultConfig is the configuration the zero Config stands for.
var DefaultConfig = Config{SecurityBits: 64}

// ErrConfig reports an invalid Config.
var ErrConfig = errors.New("attpool/verifier: invalid config")

func (c Config) sanitize() (Config, error) {
	if c.SecurityBits == 0 {
		c.SecurityBits = DefaultConfig.SecurityBits
	}
	if c.SecurityBits != 64 && c.SecurityBits != 128 {
		return c, fmt.Errorf("%w: SecurityBits %d (want 64 or 128)", ErrConfig, c.SecurityBits)
	}
	if c.Workers < 0 {
		return c, fmt.Errorf("%w: Workers %d", ErrConfig, c.Workers)
	}
	if c.HashCacheSize == 0 {
		c.HashCacheSize = 1024
	}
	if c.HashCacheSize < 0 {
		c.HashCacheSize = 0
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	return c, nil
}
