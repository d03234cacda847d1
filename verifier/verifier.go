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

// Config configures a Verifier. A zero field means its default
// ([DefaultConfig] gives them, each with its reason).
type Config struct {
	// SecurityBits bounds a call's error: a call holding an invalid
	// signature accepts it with probability at most 2^-SecurityBits, over
	// all its checks. It is 64 or 128.
	SecurityBits int
	// Workers is the number of goroutines the Verifier owns (0 means the
	// default); the caller of Verify runs beside them.
	Workers int
	// HashCacheSize bounds the cache of signing roots hashed to G2: two
	// generations of this many entries, and the lines of at most 64 of them.
	// 0 means the default; negative disables the cache.
	HashCacheSize int
}

// DefaultConfig returns the configuration the zero Config stands for. A
// function, so no caller can change the defaults of another.
func DefaultConfig() Config {
	return Config{
		// The clients' batch verifiers use 64-bit blinding; an
		// attacker gets one try per signature sent. 128 bits doubles
		// the subgroup rounds: 36 against 18.
		SecurityBits: 64,
		// One per core: the work is all CPU, so more goroutines than cores
		// only add switching and fewer leave cores idle.
		Workers: runtime.GOMAXPROCS(0),
		// A slot's attestations share a few roots, so 1024 keeps every
		// recent root under 1 MiB. Each hit spares a hash to G2; roots
		// seen once pass through without crowding the others.
		HashCacheSize: 1024,
	}
}

// ErrConfig reports an invalid Config.
var ErrConfig = errors.New("attpool/verifier: invalid config")

// sanitize gives the zero fields their default and checks the others.
func (c Config) sanitize() (Config, error) {
	d := DefaultConfig()
	if c.SecurityBits == 0 {
		c.SecurityBits = d.SecurityBits
	}
	if c.SecurityBits != 64 && c.SecurityBits != 128 {
		return c, fmt.Errorf("%w: SecurityBits %d (want 64 or 128)", ErrConfig, c.SecurityBits)
	}
	if c.Workers < 0 {
		return c, fmt.Errorf("%w: Workers %d", ErrConfig, c.Workers)
	}
	if c.Workers == 0 {
		c.Workers = d.Workers
	}
	if c.HashCacheSize == 0 {
		c.HashCacheSize = d.HashCacheSize
	}
	c.HashCacheSize = max(c.HashCacheSize, 0) // negative: no cache
	return c, nil
}
