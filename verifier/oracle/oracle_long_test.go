package oracle_test

// The differential test of the verifier against the gnark-crypto oracle
// (oracle_test.go). Every set of every call gets three verdicts: the
// Verifier's batch verdict, the blst per-set reference (want) and the
// oracle's; all three must agree.
//
// Sizes: by default oracleRandomSets random and oracleAdversarialSets
// adversarial sets (about 15 s on two cores, about the same with -race: the
// field arithmetic of both libraries is assembly), fewer with -short;
// ATTPOOL_ORACLE_LONG=1 runs the long form (100,000 and 10,000), and
// ATTPOOL_ORACLE_RANDOM / ATTPOOL_ORACLE_ADVERSARIAL set the counts directly.
// The targets are floors: calls are drawn until both are reached, and the
// valid sets of adversarial calls count as random ones. ATTPOOL_ORACLE_SEED replays the generator's choices (the
// crafted points themselves come from crypto/rand). scripts/oracle.sh runs
// the long form.

import (
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
	"github.com/attpool/attpool/internal/par"
	"github.com/attpool/attpool/verifier"
)

// Default sizes of the short form.
var (
	oracleRandomSets      = 3000
	oracleAdversarialSets = 1000
)

const (
	oracleLongRandom      = 100_000
	oracleLongAdversarial = 10_000
)

// oracleSizes returns the target counts and the form's name.
func oracleSizes(t *testing.T) (random, adversarial int, form string) {
	random, adversarial, form = oracleRandomSets, oracleAdversarialSets, "short"
	if testing.Short() {
		random, adversarial, form = 300, 150, "-short"
	}
	if os.Getenv("ATTPOOL_ORACLE_LONG") != "" {
		random, adversarial, form = oracleLongRandom, oracleLongAdversarial, "long"
	}
	for _, e := range []struct {
		name string
		n    *int
	}{{"ATTPOOL_ORACLE_RANDOM", &random}, {"ATTPOOL_ORACLE_ADVERSARIAL", &adversarial}} {
		if s := os.Getenv(e.name); s != "" {
			v, err := strconv.Atoi(s)
			if err != nil || v < 0 {
				t.Fatalf("%s=%q: want a count", e.name, s)
			}
			*e.n = v
			form = "custom"
		}
	}
	return random, adversarial, form
}

// oracleCase is one set with the name of how it was made.
type oracleCase struct {
	set  verifier.Set
	kind string
	adv  bool
}

// oracleSigKey indexes the signature cache: key index and root.
type oracleSigKey struct {
	key  int
	root [32]byte
}

// oracleGen makes the calls.
type oracleGen struct {
	t        testing.TB
	rng      *mrand.Rand
	sks      []*crypto.SecretKey
	pks      []*crypto.PublicKey
	roots    [][32]byte // pool, partly renewed
	sigs     map[oracleSigKey][96]byte
	g2       []curve.G2           // random points of G2
	small    map[int64][]curve.G2 // points of small prime order
	outside  []curve.G2           // random curve points outside G2
	smallOrd []int64
}

func newOracleGen(t testing.TB, seed uint64) *oracleGen {
	sks, pks := testKeys(t)
	g := &oracleGen{
		t: t, rng: mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		sks: sks, pks: pks,
		sigs:     make(map[oracleSigKey][96]byte),
		small:    make(map[int64][]curve.G2),
		smallOrd: []int64{13, 23, 2713, 11953, 262069},
	}
	for range 48 {
		g.roots = append(g.roots, g.freshRoot())
	}
	for range 24 {
		g.g2 = append(g.g2, randomG2(t))
		g.outside = append(g.outside, randomCurvePoint(t))
	}
	for _, ell := range g.smallOrd {
		for range 4 {
			if ell == 13 {
				g.small[ell] = append(g.small[ell], orderThirteen(t))
			} else {
				g.small[ell] = append(g.small[ell], smallOrderPoint(t, ell))
			}
		}
	}
	return g
}

func (g *oracleGen) freshRoot() [32]byte {
	var r [32]byte
	for i := range 4 {
		v := g.rng.Uint64()
		for j := range 8 {
			r[8*i+j] = byte(v >> (8 * j))
		}
	}
	return r
}

// root draws a root: mostly from the pool (so the hash cache hits across
// calls), sometimes a fresh one that replaces a pool entry.
func (g *oracleGen) root() [32]byte {
	if g.rng.IntN(10) < 3 {
		r := g.freshRoot()
		g.roots[g.rng.IntN(len(g.roots))] = r
		return r
	}
	return g.roots[g.rng.IntN(len(g.roots))]
}

// signAll fills the signature cache for the pairs, in parallel.
func (g *oracleGen) signAll(pairs []oracleSigKey) {
	var todo []oracleSigKey
	seen := map[oracleSigKey]bool{}
	for _, p := range pairs {
		if _, ok := g.sigs[p]; !ok && !seen[p] {
			seen[p] = true
			todo = append(todo, p)
		}
	}
	out := make([][96]byte, len(todo))
	par.For(len(todo), 1, func(i int) {
		out[i] = crypto.Sign(g.sks[todo[i].key], todo[i].root[:]).Bytes()
	})
	for i, p := range todo {
		g.sigs[p] = out[i]
	}
}

func (g *oracleGen) sign(key int, root [32]byte) [96]byte {
	p := oracleSigKey{key, root}
	g.signAll([]oracleSigKey{p})
	return g.sigs[p]
}

// oracleCall is one Verify call's worth of cases.
type oracleCall struct {
	cases  []oracleCase
	nroots int
	mode   string
}

// size draws a call size: small, medium or up to 300 sets.
func (g *oracleGen) size() int {
	switch x := g.rng.IntN(100); {
	case x < 25:
		return 1 + g.rng.IntN(8)
	case x < 60:
		return 9 + g.rng.IntN(56)
	default:
		return 65 + g.rng.IntN(236)
	}
}

// base makes n valid sets over nroots roots (1..20, often 1 or 2).
func (g *oracleGen) base(n int) ([]oracleCase, [][32]byte) {
	var nroots int
	switch x := g.rng.IntN(100); {
	case x < 35:
		nroots = 1
	case x < 55:
		nroots = 2 + g.rng.IntN(2)
	default:
		nroots = 1 + g.rng.IntN(20)
	}
	nroots = min(nroots, n)
	seen := map[[32]byte]bool{}
	var roots [][32]byte
	for len(roots) < nroots {
		r := g.root()
		if !seen[r] {
			seen[r] = true
			roots = append(roots, r)
		}
	}
	cases := make([]oracleCase, n)
	pairs := make([]oracleSigKey, n)
	for i := range cases {
		pairs[i] = oracleSigKey{g.rng.IntN(len(g.sks)), roots[g.rng.IntN(nroots)]}
	}
	g.signAll(pairs)
	for i, p := range pairs {
		cases[i] = oracleCase{set: verifier.Set{Root: p.root, PublicKey: g.pks[p.key], Signature: g.sigs[p]}, kind: "valid"}
	}
	return cases, roots
}

// keyOf returns the index of a set's key among the test keys (-1 for an
// aggregate or nil key).
func (g *oracleGen) keyOf(s *verifier.Set) int {
	for i, pk := range g.pks {
		if pk == s.PublicKey {
			return i
		}
	}
	return -1
}

// randomCall: valid sets with a call-wide rate of plain invalid ones (wrong
// root, wrong key, a changed root), duplicates and aggregate keys.
func (g *oracleGen) randomCall() oracleCall {
	n := g.size()
	cases, roots := g.base(n)
	rate := []float64{0, 0, 0.02, 0.1, 0.5, 0.9}[g.rng.IntN(6)]
	for i := range cases {
		c := &cases[i]
		if g.rng.Float64() >= rate {
			if g.rng.IntN(40) == 0 {
				g.aggregate(c)
			}
			continue
		}
		k := g.keyOf(&c.set)
		switch g.rng.IntN(5) {
		case 0: // the key's signature of another root
			other := roots[g.rng.IntN(len(roots))]
			if other == c.set.Root {
				other = g.root()
			}
			c.set.Signature, c.kind = g.sign(k, other), "wrong-root"
		case 1: // another key's signature of the root
			c.set.Signature, c.kind = g.sign((k+1+g.rng.IntN(len(g.sks)-1))%len(g.sks), c.set.Root), "wrong-key"
		case 2: // the root changed after signing
			c.set.Root[g.rng.IntN(32)] ^= byte(1 << g.rng.IntN(8))
			c.kind = "root-bitflip"
		case 3: // a copy of another set of the call
			*c = cases[g.rng.IntN(n)]
			c.kind = "duplicate"
		case 4:
			g.aggregate(c)
		}
	}
	return oracleCall{cases: cases, nroots: len(roots), mode: "random"}
}

// aggregate makes c a valid aggregate: 2..6 keys signing c's root, the sum
// of their keys and the sum of their signatures.
func (g *oracleGen) aggregate(c *oracleCase) {
	m := 2 + g.rng.IntN(5)
	var pks []*crypto.PublicKey
	var sigs []*crypto.Signature
	for range m {
		k := g.rng.IntN(len(g.sks))
		b := g.sign(k, c.set.Root)
		s, err := crypto.SignatureFromBytes(b[:])
		if err != nil {
			g.t.Fatal(err)
		}
		pks = append(pks, g.pks[k])
		sigs = append(sigs, s)
	}
	pk, err1 := crypto.AggregatePublicKeys(pks)
	sig, err2 := crypto.AggregateSignatures(sigs)
	if err1 != nil || err2 != nil {
		// A sum at infinity has negligible probability with distinct keys;
		// a repeated key only doubles its part.
		g.t.Fatalf("aggregating: %v %v", err1, err2)
	}
	c.set.PublicKey, c.set.Signature, c.kind = pk, sig.Bytes(), "valid-aggregate"
}

// The adversarial kinds, how many sets each takes, and their weight in the
// draw: the attacks on the batch sums (pairs and triples whose shifts cancel
// in a root's sum) weigh more than the malformed encodings.
var oracleAdvKinds = []struct {
	name   string
	sets   int
	weight int
}{
	{"swap", 2, 3}, {"g2-shift", 1, 1}, {"g2-pair", 2, 3}, {"g2-pair-xroot", 2, 2}, {"g2-triple", 3, 2},
	{"order13", 1, 1}, {"order13-pair", 2, 4}, {"order13-pair-xroot", 2, 2}, {"order13-g2-pair", 2, 2},
	{"small-order", 1, 1}, {"small-order-pair", 2, 3}, {"mixed-order-pair", 2, 2},
	{"outside-g2", 1, 1}, {"outside-g2-pair", 2, 2}, {"infinity-move", 2, 3},
	{"negated", 1, 1}, {"sig-is-hash", 1, 1}, {"sig-is-g2gen", 1, 1},
	{"off-curve", 1, 1}, {"x-zero", 1, 1}, {"xc1-eq-p", 1, 1}, {"xc0-eq-p", 1, 1}, {"xc1-alias", 1, 1},
	{"xc0-alias", 1, 1}, {"x-all-ones", 1, 1},
	{"infinity", 1, 1}, {"inf-junk", 1, 1}, {"inf-sign", 1, 1}, {"inf-no-comp", 1, 1}, {"inf-flag-on-point", 1, 1},
	{"comp-clear", 1, 1}, {"zero-bytes", 1, 1}, {"random-bytes", 1, 1}, {"random-x", 1, 1},
	{"bit-flip", 1, 1}, {"truncated", 1, 1}, {"shifted-bytes", 1, 1}, {"garbled-tail", 1, 1}, {"nil-key", 1, 1},
}

func (g *oracleGen) advKind() (string, int) {
	total := 0
	for _, k := range oracleAdvKinds {
		total += k.weight
	}
	x := g.rng.IntN(total)
	for _, k := range oracleAdvKinds {
		if x < k.weight {
			return k.name, k.sets
		}
		x -= k.weight
	}
	panic("unreachable")
}

// adversarialCall: valid sets of which some are replaced by crafted ones,
// in one of three patterns:
//   - sparse: one or two attacks in a call of valid sets (the batch check
//     must single them out);
//   - same-point: pairs shifted by +m*T and -m*T for multiples of one point
//     T of small order (13 mostly) and nothing else outside G2: every
//     root's sum is unchanged and, in a fused round, all pairs pass or fail
//     together (1 in 13 when the digits agree), so only sound subgroup
//     rounds and blinding reject them;
//   - mixed: a share (5%, a third, all) of the call, kinds drawn at random.
func (g *oracleGen) adversarialCall() oracleCall {
	n := g.size()
	cases, roots := g.base(n)
	free := g.rng.Perm(n) // untouched indices, consumed from the front
	apply := func(name string, sets int) {
		mode := 0
		switch {
		case strings.HasSuffix(name, "-xroot"):
			mode = -1
		case strings.HasSuffix(name, "-pair") || name == "g2-triple" || name == "infinity-move":
			mode = 1
		}
		idx := g.pick(cases, free, sets, mode)
		free = slices.DeleteFunc(free, func(i int) bool { return slices.Contains(idx, i) })
		g.craft(name, cases, idx)
		for _, i := range idx {
			cases[i].kind, cases[i].adv = name, true
		}
	}
	pattern := "mixed"
	switch x := g.rng.IntN(100); {
	case x < 35:
		pattern = "sparse"
		for range 1 + g.rng.IntN(2) {
			if name, sets := g.advKind(); sets <= len(free) {
				apply(name, sets)
			}
		}
	case x < 55 && n >= 2:
		pattern = "same-point"
		ell := int64(13)
		if g.rng.IntN(4) == 0 {
			ell = g.smallOrd[1+g.rng.IntN(len(g.smallOrd)-1)]
		}
		T := g.small[ell][g.rng.IntN(len(g.small[ell]))]
		name := fmt.Sprintf("order%d-multi-pair", ell)
		if ell != 13 {
			name = "small-order-multi-pair"
		}
		pairs := 1 + g.rng.IntN(max(1, n/8))
		for range pairs {
			if len(free) < 2 {
				break
			}
			idx := g.pick(cases, free, 2, []int{1, 1, 1, -1}[g.rng.IntN(4)])
			free = slices.DeleteFunc(free, func(i int) bool { return slices.Contains(idx, i) })
			U := T
			mb, mbits := leBytes(big.NewInt(1 + g.rng.Int64N(ell-1)))
			U.Mul(mb, mbits)
			for k, i := range idx {
				D := U
				if k == 1 {
					D.Neg()
				}
				cases[i].set.Signature = shifted(g.t, cases[i].set.Signature, &D)
				cases[i].kind, cases[i].adv = name, true
			}
		}
	default:
		target := []int{1 + n/20, 1 + n/3, n}[g.rng.IntN(3)]
		for target > 0 && len(free) > 0 {
			name, sets := g.advKind()
			if sets > len(free) {
				continue
			}
			apply(name, sets)
			target -= sets
		}
	}
	return oracleCall{cases: cases, nroots: len(roots), mode: "adversarial/" + pattern}
}

// pick takes m sets untouched so far. With mode 1 it prefers sets sharing
// the first one's root (the sums a batch check sees are per root), with
// mode -1 a second set of another root.
func (g *oracleGen) pick(cases []oracleCase, free []int, m, mode int) []int {
	idx := []int{free[0]}
	root := cases[free[0]].set.Root
	if mode != 0 {
		for _, i := range free[1:] {
			if len(idx) < m && (cases[i].set.Root == root) == (mode == 1) {
				idx = append(idx, i)
				if mode == -1 {
					break
				}
			}
		}
	}
	for _, i := range free[1:] {
		if len(idx) < m && !slices.Contains(idx, i) {
			idx = append(idx, i)
		}
	}
	return idx
}

func (g *oracleGen) randBytes(b []byte) {
	if _, err := crand.Read(b); err != nil {
		g.t.Fatal(err)
	}
}

func (g *oracleGen) smallPoint() (curve.G2, int64) {
	ell := g.smallOrd[g.rng.IntN(len(g.smallOrd))]
	T := g.small[ell][g.rng.IntN(len(g.small[ell]))]
	// A random nonzero multiple of T, another point of order ell.
	m := 1 + g.rng.Int64N(ell-1)
	mb, mbits := leBytes(big.NewInt(m))
	T.Mul(mb, mbits)
	return T, ell
}

// craft applies the adversarial kind to the sets idx (all valid so far).
func (g *oracleGen) craft(kind string, cases []oracleCase, idx []int) {
	t := g.t
	sig := func(k int) *[96]byte { return &cases[idx[k]].set.Signature }
	pair := func(D curve.G2) {
		*sig(0) = shifted(t, *sig(0), &D)
		*sig(1) = shifted(t, *sig(1), neg(D))
	}
	randomD := func() curve.G2 { return g.g2[g.rng.IntN(len(g.g2))] }
	T13 := func() curve.G2 { return g.small[13][g.rng.IntN(len(g.small[13]))] }
	switch kind {
	case "swap":
		*sig(0), *sig(1) = *sig(1), *sig(0)
	case "g2-shift":
		D := randomD()
		*sig(0) = shifted(t, *sig(0), &D)
	case "g2-pair":
		pair(randomD())
	case "g2-pair-xroot":
		pair(randomD())
	case "g2-triple":
		D1, D2 := randomD(), randomD()
		D3 := D1
		D3.Add(&D2)
		*sig(0) = shifted(t, *sig(0), &D1)
		*sig(1) = shifted(t, *sig(1), &D2)
		*sig(2) = shifted(t, *sig(2), neg(D3))
	case "order13":
		T := T13()
		*sig(0) = shifted(t, *sig(0), &T)
	case "order13-pair":
		pair(T13())
	case "order13-pair-xroot":
		pair(T13())
	case "order13-g2-pair":
		T := T13()
		D := randomD()
		T.Add(&D)
		pair(T)
	case "small-order":
		T, _ := g.smallPoint()
		*sig(0) = shifted(t, *sig(0), &T)
	case "small-order-pair":
		T, _ := g.smallPoint()
		pair(T)
	case "mixed-order-pair": // order 13*23
		T := T13()
		U := g.small[23][g.rng.IntN(len(g.small[23]))]
		T.Add(&U)
		pair(T)
	case "outside-g2":
		Q := g.outside[g.rng.IntN(len(g.outside))]
		*sig(0) = shifted(t, *sig(0), &Q)
	case "outside-g2-pair":
		pair(g.outside[g.rng.IntN(len(g.outside))])
	case "infinity-move": // s0 -> O, s1 -> s1 + s0: the root's sum is unchanged
		var s0 crypto.Signature
		if _, err := s0.SetBytes(sig(0)[:]); err != nil {
			t.Fatal(err)
		}
		P := blspoint.Signature(&s0).Jacobian()
		*sig(1) = shifted(t, *sig(1), &P)
		*sig(0) = [96]byte{0xc0}
	case "negated":
		sig(0)[0] ^= 0x20
	case "sig-is-hash":
		h := *blspoint.Message(crypto.HashMessage(cases[idx[0]].set.Root[:]))
		*sig(0) = h.Bytes()
	case "sig-is-g2gen":
		g2 := curve.G2Generator()
		*sig(0) = g2.Bytes()
	case "off-curve":
		*sig(0) = oracleOffCurve(t)
		if g.rng.IntN(2) == 0 {
			sig(0)[0] |= 0x20
		}
	case "x-zero":
		*sig(0) = [96]byte{0x80 | byte(g.rng.IntN(2))<<5}
	case "xc1-eq-p":
		*sig(0), _ = oracleSetX1(*sig(0), oracleP)
	case "xc0-eq-p":
		*sig(0) = oracleSetX0(*sig(0), oracleP)
	case "xc1-alias": // x1 + p when it fits the 381 bits, else x0 + p
		s, ok := oracleSetX1(*sig(0), new(big.Int).Add(oracleX1(*sig(0)), oracleP))
		if !ok {
			s = oracleSetX0(*sig(0), new(big.Int).Add(oracleX0(*sig(0)), oracleP))
		}
		*sig(0) = s
	case "xc0-alias":
		*sig(0) = oracleSetX0(*sig(0), new(big.Int).Add(oracleX0(*sig(0)), oracleP))
	case "x-all-ones":
		for i := range sig(0) {
			sig(0)[i] = 0xff
		}
		sig(0)[0] = 0x80 | byte(g.rng.IntN(2))<<5 | 0x1f
	case "infinity":
		*sig(0) = [96]byte{0xc0}
	case "inf-junk":
		*sig(0) = [96]byte{0xc0}
		for sig(0)[0] == 0xc0 && oracleZero(sig(0)[1:]) {
			if g.rng.IntN(2) == 0 {
				sig(0)[1+g.rng.IntN(95)] = byte(1 + g.rng.IntN(255))
			} else {
				sig(0)[0] |= byte(g.rng.IntN(32))
			}
		}
	case "inf-sign":
		*sig(0) = [96]byte{0xe0}
	case "inf-no-comp":
		*sig(0) = [96]byte{0x40}
	case "inf-flag-on-point":
		sig(0)[0] |= 0x40
	case "comp-clear":
		sig(0)[0] &^= 0x80
	case "zero-bytes":
		*sig(0) = [96]byte{}
	case "random-bytes":
		g.randBytes(sig(0)[:])
	case "random-x": // well-formed flags and x < p: on the curve half the time
		g.randBytes(sig(0)[:])
		sig(0)[0] = 0x80 | (sig(0)[0] & 0x20) | (sig(0)[0] % 0x1a)
	case "bit-flip":
		b := g.rng.IntN(96 * 8)
		sig(0)[b/8] ^= 1 << (b % 8)
	case "truncated": // cut at a random length, zero-padded back to 96
		cut := 1 + g.rng.IntN(95)
		clear(sig(0)[cut:])
	case "shifted-bytes": // a byte lost at the front or a junk byte inserted
		s := *sig(0)
		if g.rng.IntN(2) == 0 {
			copy(sig(0)[:], s[1:])
			sig(0)[95] = 0
		} else {
			copy(sig(0)[1:], s[:95])
			sig(0)[0] = s[0]
		}
	case "garbled-tail":
		k := 1 + g.rng.IntN(48)
		g.randBytes(sig(0)[96-k:])
	case "nil-key":
		cases[idx[0]].set.PublicKey = nil
	default:
		t.Fatalf("unknown kind %s", kind)
	}
}

// oracleConfigs are the verifier configurations the calls are spread over.
var oracleConfigs = []struct {
	name string
	cfg  verifier.Config
}{
	{"64", verifier.Config{SecurityBits: 64}},
	{"128", verifier.Config{SecurityBits: 128}},
	{"64/1-worker/cache-2", verifier.Config{SecurityBits: 64, Workers: 1, HashCacheSize: 2}},
	{"128/no-cache", verifier.Config{SecurityBits: 128, HashCacheSize: -1}},
}

// oracleSetString prints a set for a failure report.
func oracleSetString(c *oracleCase) string {
	pk := "nil"
	if c.set.PublicKey != nil {
		b := c.set.PublicKey.Bytes()
		pk = hex.EncodeToString(b[:])
	}
	return fmt.Sprintf("kind %s\n  root %x\n  pk   %s\n  sig  %x", c.kind, c.set.Root, pk, c.set.Signature)
}

// oraclePKBytes is the key the oracle gets: a nil key (which the Verifier
// refuses) becomes 48 zero bytes, an encoding KeyValidate refuses
// (compression flag clear).
func oraclePKBytes(pk *crypto.PublicKey) [48]byte {
	if pk == nil {
		return [48]byte{}
	}
	return pk.Bytes()
}

func TestOracleDifferential(t *testing.T) {
	wantRandom, wantAdv, form := oracleSizes(t)
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("ATTPOOL_ORACLE_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("ATTPOOL_ORACLE_SEED=%q", s)
		}
		seed = v
	}
	t.Logf("oracle: %s form, targets %d random and %d adversarial sets, seed %d (ATTPOOL_ORACLE_SEED)",
		form, wantRandom, wantAdv, seed)
	start := time.Now()
	g := newOracleGen(t, seed)

	verifiers := make([]*verifier.Verifier, len(oracleConfigs))
	for i, c := range oracleConfigs {
		v, err := verifier.New(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		verifiers[i] = v
	}

	var (
		nRandom, nAdv, calls, accepted, mismatches, gnarkDisagree int
		kinds                                                     = map[string]int{}
		perConfig                                                 = make([]int, len(oracleConfigs))
		sizes                                                     = map[string]int{}
		tGen, tVerify, tWant, tOracle                             time.Duration
	)
	const maxReports = 20
	for nRandom < wantRandom || nAdv < wantAdv {
		t0 := time.Now()
		var call oracleCall
		switch {
		case nAdv >= wantAdv:
			call = g.randomCall()
		case nRandom >= wantRandom:
			call = g.adversarialCall()
		case g.rng.IntN(2) == 0:
			call = g.randomCall()
		default:
			call = g.adversarialCall()
		}
		n := len(call.cases)
		sets := make([]verifier.Set, n)
		for i := range sets {
			sets[i] = call.cases[i].set
		}
		// A configuration per call.
		ci := g.rng.IntN(len(oracleConfigs))
		perConfig[ci]++
		t1 := time.Now()
		got := verifiers[ci].Verify(sets)
		t2 := time.Now()
		ref := make([]bool, n)
		const chunk = 8
		par.For((n+chunk-1)/chunk, 1, func(k int) {
			lo, hi := k*chunk, min(n, (k+1)*chunk)
			copy(ref[lo:hi], want(sets[lo:hi]))
		})
		t3 := time.Now()
		orc := make([]bool, n)
		agree := make([]error, n)
		par.For(n, 1, func(i int) {
			s := &sets[i]
			orc[i] = oracleVerify(oraclePKBytes(s.PublicKey), s.Root, s.Signature)
			agree[i] = oracleGnarkAgrees(s.Signature[:])
		})
		t4 := time.Now()
		tGen, tVerify, tWant, tOracle = tGen+t1.Sub(t0), tVerify+t2.Sub(t1), tWant+t3.Sub(t2), tOracle+t4.Sub(t3)

		if len(got) != n {
			t.Fatalf("call %d: %d verdicts for %d sets", calls, len(got), n)
		}
		for i := range call.cases {
			c := &call.cases[i]
			if c.adv {
				nAdv++
			} else {
				nRandom++
			}
			kinds[c.kind]++
			if orc[i] {
				accepted++
			}
			if agree[i] != nil {
				gnarkDisagree++
				if gnarkDisagree <= maxReports {
					t.Errorf("DECODING MISMATCH call %d set %d: the oracle's decoding and gnark's SetBytes disagree: %v\n  %s",
						calls, i, agree[i], oracleSetString(c))
				}
			}
			if got[i] != orc[i] || ref[i] != orc[i] {
				mismatches++
				if mismatches <= maxReports {
					t.Errorf("MISMATCH call %d (%s, config %s, %d sets, %d roots) set %d: verifier %v, blst per-set %v, oracle %v\n  %s",
						calls, call.mode, oracleConfigs[ci].name, n, call.nroots, i, got[i], ref[i], orc[i], oracleSetString(c))
				}
			}
		}
		switch {
		case n <= 8:
			sizes["1-8"]++
		case n <= 64:
			sizes["9-64"]++
		default:
			sizes["65-300"]++
		}
		calls++
		if calls%100 == 0 && testing.Verbose() {
			t.Logf("oracle: %d calls, %d random and %d adversarial sets, %d mismatches, %v",
				calls, nRandom, nAdv, mismatches, time.Since(start).Round(time.Second))
		}
	}

	var st verifier.Stats
	for _, v := range verifiers {
		s := v.Stats()
		st.Checks += s.Checks
		st.Bisections += s.Bisections
		st.Individual += s.Individual
		st.SubgroupFallbacks += s.SubgroupFallbacks
		st.HashCacheHits += s.HashCacheHits
	}
	cfgs := map[string]int{}
	for i, c := range oracleConfigs {
		cfgs[c.name] = perConfig[i]
	}
	total := nRandom + nAdv
	t.Logf("oracle: kinds: %s", oracleCounts(kinds))
	t.Logf("oracle: calls by size: %s; by config: %s", oracleCounts(sizes), oracleCounts(cfgs))
	t.Logf("oracle: verifier paths: %d batch checks, %d bisections, %d individual checks, %d subgroup fallbacks, %d hash cache hits",
		st.Checks, st.Bisections, st.Individual, st.SubgroupFallbacks, st.HashCacheHits)
	t.Logf("oracle: time: generate %v, verifier %v, blst per-set %v, oracle %v",
		tGen.Round(time.Millisecond), tVerify.Round(time.Millisecond), tWant.Round(time.Millisecond), tOracle.Round(time.Millisecond))
	t.Logf("oracle: checked %d sets against the gnark oracle (random %d, adversarial %d; %d valid, %d invalid) in %d calls, %v; mismatches %d, oracle/gnark decoding disagreements %d",
		total, nRandom, nAdv, accepted, total-accepted, calls, time.Since(start).Round(time.Millisecond), mismatches, gnarkDisagree)
	// The oracle must have seen both verdicts and the attacks must have been
	// made, or the comparison proved little.
	if total >= 1000 && (accepted == 0 || accepted == total) {
		t.Errorf("oracle verdicts all %v", accepted != 0)
	}
	if wantAdv >= 1000 && (kinds["order13-pair"] == 0 || kinds["g2-pair"] == 0) {
		t.Errorf("no order-13 or G2 pair made in %d adversarial sets", nAdv)
	}
}
