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
	// SecurityBits is the soundness of the batch checks: a batch holding an
	// invalid signature is accepted with probability at most 2^-SecurityBits.
	// 64 (the default) or 128.
	SecurityBits int
	// Workers is the number of goroutines the Verifier owns; 0 means GOMAXPROCS.
	Workers int
	// HashCacheSize bounds the cache of signing roots hashed to G2 (two
	// generations of this many entries). 0 means 1024; negative disables it.
	HashCacheSize int
	// Individual makes Verify check every set alone, in parallel: the
	// per-signature baseline, for benchmarks and comparisons.
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
