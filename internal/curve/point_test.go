package curve_test

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/attpool/attpool/crypto"
	"github.com/attpool/attpool/internal/blspoint"
	"github.com/attpool/attpool/internal/curve"
)

// g2Points returns n distinct points of G2 (multiples of the generator).
func g2Points(n int, seed byte) []curve.G2Affine {
	rng := newRand(seed)
	g := curve.G2Generator()
	out := make([]curve.G2Affine, n)
	step := g.Jacobian()
	step.Mul(randBytes(rng, 8), 64)
	acc := step
	for i := range out {
		out[i] = acc.Affine()
		acc.Add(&step)
	}
	return out
}

func g1Points(n int, seed byte) []curve.G1Affine {
	rng := newRand(seed)
	g := curve.G1Generator()
	step := g.Jacobian()
	step.Mul(randBytes(rng, 8), 64)
	acc := step
	js := make([]curve.G1, n)
	for i := range js {
		js[i] = acc
		acc.Add(&step)
	}
	return curve.BatchAffineG1(js)
}

func ptrs[T any](s []T) []*T {
	out := make([]*T, len(s))
	for i := range s {
		out[i] = &s[i]
	}
	return out
}

func TestGenerators(t *testing.T) {
	g2 := curve.G2Generator()
	if b := g2.Bytes(); hex.EncodeToString(b[:]) != g2GeneratorHex {
		t.Errorf("G2 generator = %x", b)
	}
	checkInG2(t, &g2)
	if !g2.InG2() || g2.IsInfinity() {
		t.Error("G2 generator")
	}
	g1 := curve.G1Generator()
	if g1.IsInfinity() {
		t.Error("G1 generator is infinity")
	}
	one := make([]byte, 32)
	one[31] = 1
	sk, _ := crypto.SecretKeyFromBytes(one)
	pj, gj := blspoint.Key(sk.PublicKey()).Jacobian(), g1.Jacobian()
	if !pj.Equal(&gj) {
		t.Error("1*g1 is not G1Generator")
	}
	i1, i2 := curve.G1Infinity(), curve.G2Infinity()
	if !i1.IsInfinity() || !i2.IsInfinity() {
		t.Error("G1Infinity/G2Infinity")
	}
	if a := i1.Affine(); !a.IsInfinity() {
		t.Error("affine G1 infinity")
	}
	a := i2.Affine()
	if !a.IsInfinity() || !a.InG2() || !bytes.Equal(func() []byte { b := a.Bytes(); return b[:] }(), append([]byte{0xc0}, make([]byte, 95)...)) {
		t.Error("affine G2 infinity")
	}
	if u := a.Uncompressed(); !bytes.Equal(u[:], append([]byte{0x40}, make([]byte, 191)...)) {
		t.Errorf("uncompressed infinity = %x", u)
	}
	if gj.IsInfinity() {
		t.Error("G1 generator Jacobian is infinity")
	}
}

func TestG2Arithmetic(t *testing.T) {
	rng := newRand(5)
	pts := g2Points(3, 1)
	outside := randomCurvePoint(t, rng)
	T := order13Point(t, rng)
	TA := T.Affine()
	inf := curve.G2Infinity()
	infA := inf.Affine()
	for name, pa := range map[string]*curve.G2Affine{"in G2": &pts[0], "outside G2": outside, "order 13": &TA, "infinity": &infA} {
		t.Run(name, func(t *testing.T) {
			p := pa.Jacobian()
			q := pts[1].Jacobian()
			// Affine/Jacobian round trip.
			if back := p.Affine(); !back.Equal(pa) {
				t.Error("Affine(Jacobian(p)) != p")
			}
			checkSubNeg(t, p, q)
			r := p
			r.Add(&q).Sub(&q)
			if !r.Equal(&p) {
				t.Error("(p + q) - q != p")
			}
			n := p
			n.Neg()
			if nn := n; !nn.Neg().Equal(&p) {
				t.Error("-(-p) != p")
			}
			// Double = Add to itself (add_or_double).
			d, s := p, p
			d.Double()
			s.Add(&p)
			if !d.Equal(&s) {
				t.Error("2p != p + p")
			}
			// AddAffine = Add.
			a1, a2 := p, p
			a1.AddAffine(&pts[1])
			a2.Add(&q)
			if !a1.Equal(&a2) {
				t.Error("AddAffine != Add")
			}
			a1 = p
			a1.AddAffine(pa)
			if !a1.Equal(&d) {
				t.Error("p.AddAffine(p) != 2p")
			}
			// Commutativity.
			c1, c2 := p, q
			c1.Add(&q)
			c2.Add(&p)
			if !c1.Equal(&c2) {
				t.Error("p + q != q + p")
			}
			// Identity.
			r = p
			if !r.Add(&inf).Equal(&p) {
				t.Error("p + inf != p")
			}
			r = inf
			if !r.Add(&p).Equal(&p) {
				t.Error("inf + p != p")
			}
			// Mul by small scalars agrees with repeated addition.
			acc := curve.G2Infinity()
			for k := range 20 {
				m := p
				m.Mul([]byte{byte(k)}, 8)
				if !m.Equal(&acc) {
					t.Errorf("%d*p != p+...+p", k)
				}
				acc.Add(&p)
			}
			// Mul by zero bits or an empty scalar is infinity.
			m := p
			if !m.Mul(nil, 0).IsInfinity() {
				t.Error("0-bit Mul")
			}
			m = p
			if !m.Mul([]byte{}, 8).IsInfinity() {
				t.Error("empty-scalar Mul")
			}
			// Jacobian InG2 agrees with affine InG2.
			if p.InG2() != pa.InG2() {
				t.Error("G2.InG2 != G2Affine.InG2")
			}
		})
	}
	if pa := pts[0].Jacobian(); !pa.InG2() {
		t.Error("G2.InG2 false in G2")
	}
	if oj := outside.Jacobian(); oj.InG2() {
		t.Error("G2.InG2 true outside G2")
	}
	if T.InG2() {
		t.Error("G2.InG2 true for a point of order 13")
	}
}

// checkSubNeg checks (p - q) + q = p, p - p = infinity and p + (-p) =
// infinity.
func checkSubNeg[J any, PJ interface {
	*J
	Add(*J) *J
	Sub(*J) *J
	Neg() *J
	Equal(*J) bool
	IsInfinity() bool
}](t *testing.T, p, q J) {
	t.Helper()
	r := p
	if !PJ(PJ(PJ(&r).Sub(&q)).Add(&q)).Equal(&p) {
		t.Error("(p - q) + q != p")
	}
	r = p
	if !PJ(PJ(&r).Sub(&p)).IsInfinity() {
		t.Error("p - p != infinity")
	}
	n, r := p, p
	PJ(&n).Neg()
	if !PJ(PJ(&r).Add(&n)).IsInfinity() {
		t.Error("p + (-p) != infinity")
	}
}

func TestG1Arithmetic(t *testing.T) {
	pts := g1Points(3, 2)
	inf := curve.G1Infinity()
	for _, pa := range []curve.G1Affine{pts[0], inf.Affine()} {
		p, q := pa.Jacobian(), pts[1].Jacobian()
		if back, pj := p.Affine(), p; !func() bool { b := back.Jacobian(); return b.Equal(&pj) }() {
			t.Error("G1 Affine round trip")
		}
		checkSubNeg(t, p, q)
		a1, a2 := p, p
		a1.AddAffine(&pts[1])
		a2.Add(&q)
		if !a1.Equal(&a2) {
			t.Error("AddAffine != Add")
		}
		a1, a2 = p, p
		a1.Add(&p)
		a2.Mul([]byte{2}, 2)
		if !a1.Equal(&a2) {
			t.Error("p + p != 2*p")
		}
		acc := curve.G1Infinity()
		for k := range 20 {
			m := p
			if !m.Mul([]byte{byte(k)}, 8).Equal(&acc) {
				t.Errorf("%d*p != p+...+p", k)
			}
			acc.Add(&p)
		}
		m := p
		if !m.Mul(nil, 0).IsInfinity() {
			t.Error("0-bit Mul")
		}
	}
	// r*g1 = infinity, (r+1)*g1 = g1.
	g := curve.G1Generator()
	k, n := leScalar(groupR)
	gj := g.Jacobian()
	if !gj.Mul(k, n).IsInfinity() {
		t.Error("r*g1 != infinity")
	}
	k, n = leScalar(new(big.Int).Add(groupR, big.NewInt(1)))
	gj, g0 := g.Jacobian(), g.Jacobian()
	if !gj.Mul(k, n).Equal(&g0) {
		t.Error("(r+1)*g1 != g1")
	}
}

// TestMulLargeScalars checks G1.Mul and G2.Mul in G1 and G2 against
// double-and-add (G2) and scalar arithmetic mod r (both), for scalar sizes on
// both sides of blst's algorithm switches.
func TestMulLargeScalars(t *testing.T) {
	rng := newRand(6)
	g2 := curve.G2Generator()
	g1 := curve.G1Generator()
	for _, bits := range []int{1, 8, 63, 64, 65, 128, 143, 144, 175, 176, 200, 255, 256, 257, 300, 512} {
		kb := randBytes(rng, (bits+7)/8)
		k := new(big.Int).SetBytes(reverse(kb))
		k.SetBit(k, bits-1, 1)
		k.Mod(k, new(big.Int).Lsh(big.NewInt(1), uint(bits)))
		kb, _ = leScalar(k)
		kb = append(kb, make([]byte, (bits+7)/8-len(kb))...)
		kr := new(big.Int).Mod(k, groupR)
		krb, krn := leScalar(kr)

		p := g2.Jacobian()
		got := p
		got.Mul(kb, bits)
		if want := mulRefG2(p, k); !got.Equal(&want) {
			t.Errorf("G2, %d bits: Mul != double-and-add", bits)
		}
		if want := p; krn > 0 && !want.Mul(krb, krn).Equal(&got) {
			t.Errorf("G2, %d bits: k*g2 != (k mod r)*g2", bits)
		}
		q := g1.Jacobian()
		got1 := q
		got1.Mul(kb, bits)
		if want := q; krn > 0 && !want.Mul(krb, krn).Equal(&got1) {
			t.Errorf("G1, %d bits: k*g1 != (k mod r)*g1", bits)
		}
	}
}

func reverse(b []byte) []byte {
	c := bytes.Clone(b)
	for i, j := 0, len(c)-1; i < j; i, j = i+1, j-1 {
		c[i], c[j] = c[j], c[i]
	}
	return c
}

// TestG2MulOutsideG2: G2.Mul is plain scalar multiplication for points
// outside G2 (the verifier multiplies unchecked signatures) when the scalar
// has fewer than 144 or more than 256 bits; for 144 to 256 bits below r
// blst's GLS shortcut is documented to be right only in G2, and padding
// nbits past 256 is the documented way around it.
func TestG2MulOutsideG2(t *testing.T) {
	rng := newRand(7)
	p := randomCurvePoint(t, rng).Jacobian()
	for _, bits := range []int{1, 4, 8, 64, 128, 143, 144, 200, 255, 256, 257, 300, 900} {
		k := new(big.Int).SetBytes(randBytes(rng, (bits+7)/8))
		if bits == 255 || bits == 256 {
			k.Mod(k, groupR) // a reduced scalar passed as 255 or 256 bits
		} else {
			k.Mod(k, new(big.Int).Lsh(big.NewInt(1), uint(bits-1)))
			k.SetBit(k, bits-1, 1)
		}
		kb, _ := leScalar(k)
		kb = append(kb, make([]byte, (bits+7)/8-len(kb))...)
		want := mulRefG2(p, k)
		nbits := bits
		if bits >= 144 && bits <= 256 {
			// The documented workaround: zero-pad past 256 bits.
			nbits = 257
			kb = append(kb, make([]byte, (nbits+7)/8-len(kb))...)
		}
		got := p
		got.Mul(kb, nbits)
		if !got.Equal(&want) {
			t.Errorf("%d-bit scalar as %d bits: Mul of a point outside G2 != double-and-add", bits, nbits)
		}
	}
}

// TestMultiExpG2OutsideG264 documents what the fused verifier's blinding
// would rely on if it ran MultiExpG2 before its subgroup rounds: with 64-bit
// scalars it is the plain sum of products, also outside G2.
func TestMultiExpG2OutsideG264(t *testing.T) {
	rng := newRand(8)
	var pts []*curve.G2Affine
	for range 3 {
		pts = append(pts, randomCurvePoint(t, rng))
	}
	sc := randBytes(rng, len(pts)*8)
	for n := 1; n <= len(pts); n++ {
		want := curve.G2Infinity()
		for i := range n {
			k := new(big.Int).SetBytes(reverse(sc[i*8 : (i+1)*8]))
			m := mulRefG2(pts[i].Jacobian(), k)
			want.Add(&m)
		}
		if got := curve.MultiExpG2(pts[:n], sc, 64); !got.Equal(&want) {
			t.Errorf("%d points outside G2, 64-bit scalars: MultiExpG2 != sum of products", n)
		}
	}
}

// TestMulShortScalar: Mul must not read past the end of k when nbits asks
// for more bytes than k has (the result must depend only on k's bytes).
func TestMulShortScalar(t *testing.T) {
	g2, g1 := curve.G2Generator(), curve.G1Generator()
	lo := []byte{5, 0, 0, 0, 0, 0, 0, 0}
	hi := []byte{5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	a, b := g2.Jacobian(), g2.Jacobian()
	a.Mul(lo[:1], 64)
	b.Mul(hi[:1], 64)
	if !a.Equal(&b) {
		t.Error("G2.Mul(k[:1], 64) reads bytes beyond len(k)")
	}
	c, d := g1.Jacobian(), g1.Jacobian()
	c.Mul(lo[:1], 64)
	d.Mul(hi[:1], 64)
	if !c.Equal(&d) {
		t.Error("G1.Mul(k[:1], 64) reads bytes beyond len(k)")
	}
}

// TestOrder13Construction builds the point of order 13 used by the
// out-of-subgroup tests and documents why h2*r/169 is needed.
func TestOrder13Construction(t *testing.T) {
	rng := newRand(9)
	n := new(big.Int).Mul(cofactorG2, groupR) // the order of the curve group
	nb, nn := leScalar(n)
	n13 := new(big.Int).Quo(n, big.NewInt(13))
	n13b, n13n := leScalar(n13)
	for range 8 {
		p := randomCurvePoint(t, rng)
		checkNotInG2(t, p)
		q := p.Jacobian()
		if !q.Mul(nb, nn).IsInfinity() {
			t.Fatal("h2*r*P != infinity: h2 is wrong")
		}
		// If the 13-part of the group were cyclic (Z/169), h2*r/13 would
		// give a point of order 13 for 12 points in 13. It kills every
		// point: the 13-part is Z/13 x Z/13.
		q = p.Jacobian()
		if !q.Mul(n13b, n13n).IsInfinity() {
			t.Fatal("h2*r/13 * P != infinity: the 13-part is cyclic after all; use h2*r/13")
		}
	}
	T := order13Point(t, rng)
	if T.IsInfinity() || T.InG2() {
		t.Fatal("T is infinity or in G2")
	}
	T13 := T
	if !T13.Mul([]byte{13}, 4).IsInfinity() {
		t.Fatal("13*T != infinity")
	}
	for k := 1; k < 13; k++ {
		m := T
		if m.Mul([]byte{byte(k)}, 4).IsInfinity() {
			t.Fatalf("%d*T == infinity", k)
		}
	}
	// Mul13Add kills T: 13*T + h = h.
	h := g2Points(1, 3)[0].Jacobian()
	if m := T; !m.Mul13Add(&h).Equal(&h) {
		t.Error("13*T + h != h")
	}
}

func TestMul13Add(t *testing.T) {
	rng := newRand(10)
	pts := g2Points(4, 4)
	outside := randomCurvePoint(t, rng).Jacobian()
	inf := curve.G2Infinity()
	p0, p1 := pts[0].Jacobian(), pts[1].Jacobian()
	checkMul13Add(t, "G2", append(mul13Cases(p0, p1), []mul13Case[curve.G2]{
		{"outside G2", outside, p1},
		{"h outside G2", p0, outside},
		{"both infinity", inf, inf},
		{"h = -p", p0, func() curve.G2 { n := p0; return *n.Neg() }()},
	}...))
	// Horner: ((d2*13 + d1)*13 + d0) over points = sum 13^j H_j.
	acc := curve.G2Infinity()
	hs := []curve.G2{pts[0].Jacobian(), pts[1].Jacobian(), pts[2].Jacobian(), pts[3].Jacobian()}
	for j := len(hs) - 1; j >= 0; j-- {
		acc.Mul13Add(&hs[j])
	}
	want := curve.G2Infinity()
	for j := range hs {
		k := new(big.Int).Exp(big.NewInt(13), big.NewInt(int64(j)), nil)
		kb, kn := leScalar(k)
		m := hs[j]
		want.Add(m.Mul(kb, kn))
	}
	if !acc.Equal(&want) {
		t.Error("Horner with Mul13Add != sum 13^j H_j")
	}

	// G1.
	g1 := g1Points(2, 5)
	q0, q1 := g1[0].Jacobian(), g1[1].Jacobian()
	checkMul13Add(t, "G1", mul13Cases(q0, q1))
}

// mul13Cases are the Mul13Add cases of both groups for points p, q (and the
// identity, the zero value): generic, either term infinity, h = 13p (a
// doubling in the last addition), h = -13p (the sum at infinity), h = p.
func mul13Cases[J any, PJ interface {
	*J
	Mul([]byte, int) *J
	Neg() *J
}](p, q J) []mul13Case[J] {
	var inf J
	p13 := p
	PJ(&p13).Mul([]byte{13}, 4)
	n13 := p13
	PJ(&n13).Neg()
	return []mul13Case[J]{
		{"generic", p, q}, {"p infinity", inf, q}, {"h infinity", p, inf},
		{"h = 13p", p, p13}, {"h = -13p", p, n13}, {"h = p", p, p},
	}
}

// mul13Case is a Mul13Add case: 13p + h.
type mul13Case[J any] struct {
	name string
	p, h J
}

// checkMul13Add compares Mul13Add with 13p + h by Mul and Add, and checks
// that it returns its receiver.
func checkMul13Add[J any, PJ interface {
	*J
	Mul13Add(*J) *J
	Mul([]byte, int) *J
	Add(*J) *J
	Equal(*J) bool
}](t *testing.T, group string, cases []mul13Case[J]) {
	t.Helper()
	for _, c := range cases {
		got := c.p
		if ret := PJ(&got).Mul13Add(&c.h); ret != &got {
			t.Errorf("%s %s: Mul13Add does not return its receiver", group, c.name)
		}
		want := c.p
		PJ(PJ(&want).Mul([]byte{13}, 4)).Add(&c.h)
		if !PJ(&got).Equal(&want) {
			t.Errorf("%s %s: Mul13Add != 13p + h by Mul", group, c.name)
		}
	}
}

func TestSumG2(t *testing.T) {
	pts := g2Points(40, 11)
	inf := curve.G2Infinity()
	infA := inf.Affine()
	neg := pts[3].Jacobian()
	negA := neg.Neg().Affine()
	outside := randomCurvePoint(t, newRand(11))
	mixed := append(ptrs(pts), &pts[0], &pts[0], &infA, &negA, outside, &infA)
	for _, n := range []int{0, 1, 2, 3, 17, 40, len(mixed)} {
		in := mixed[:n]
		got := curve.SumG2(in)
		want := curve.G2Infinity()
		for _, p := range in {
			want.AddAffine(p)
		}
		if !got.Equal(&want) {
			t.Errorf("SumG2 of %d points != sequential adds", n)
		}
	}
	if s := curve.SumG2(nil); !s.IsInfinity() {
		t.Error("SumG2() != infinity")
	}
	if s := curve.SumG2([]*curve.G2Affine{&pts[5], &negA, &pts[3]}); !func() bool { w := pts[5].Jacobian(); return s.Equal(&w) }() {
		t.Error("SumG2 with a cancelling pair")
	}
	if s := curve.SumG2([]*curve.G2Affine{&pts[3], &negA}); !s.IsInfinity() {
		t.Error("SumG2(p, -p) != infinity")
	}
	// The input points are not modified.
	before := pts[7]
	curve.SumG2(ptrs(pts))
	if !before.Equal(&pts[7]) {
		t.Error("SumG2 modified its input")
	}
}

func TestSumG1(t *testing.T) {
	pts := g1Points(33, 12)
	inf := curve.G1Infinity()
	infA := inf.Affine()
	in := append(ptrs(pts), &pts[0], &infA)
	for _, n := range []int{0, 1, 2, 33, len(in)} {
		got := curve.SumG1(in[:n])
		want := curve.G1Infinity()
		for _, p := range in[:n] {
			want.AddAffine(p)
		}
		if !got.Equal(&want) {
			t.Errorf("SumG1 of %d points != sequential adds", n)
		}
	}
}

func scalars64(rng interface{ Uint64() uint64 }, n int) []byte {
	b := make([]byte, 8*n)
	for i := range n {
		binary.LittleEndian.PutUint64(b[8*i:], rng.Uint64())
	}
	return b
}

func TestMultiExpG1(t *testing.T) {
	pts := ptrs(g1Points(70, 13))
	inf := curve.G1Infinity()
	infA := inf.Affine()
	pts[5] = &infA
	checkMultiExp(t, "MultiExpG1", newRand(13), pts, []int{8, 64, 130, 255}, []int{1, 2, 5, 31, 32, 33, 70}, curve.MultiExpG1)
}

func TestMultiExpG2(t *testing.T) {
	pts := ptrs(g2Points(40, 14))
	inf := curve.G2Infinity()
	infA := inf.Affine()
	pts[3] = &infA
	checkMultiExp(t, "MultiExpG2", newRand(14), pts, []int{64, 255}, []int{1, 2, 7, 33, 40}, curve.MultiExpG2)
}

// checkMultiExp compares multiExp over the first n points, for each n and
// scalar size, with the sum of Mul; the first scalar is zero, and no points
// give the identity.
func checkMultiExp[A interface{ Jacobian() J }, J any, PJ interface {
	*J
	Add(*J) *J
	Mul([]byte, int) *J
	Equal(*J) bool
	IsInfinity() bool
}](t *testing.T, name string, rng *rand.Rand, pts []A, bitSizes, ns []int, multiExp func([]A, []byte, int) J) {
	t.Helper()
	for _, bits := range bitSizes {
		nb := (bits + 7) / 8
		for _, n := range ns {
			sc := randBytes(rng, n*nb)
			if bits%8 != 0 {
				for i := range n {
					sc[(i+1)*nb-1] &= byte(1)<<(bits%8) - 1
				}
			}
			copy(sc[0:nb], make([]byte, nb)) // a zero scalar
			got := multiExp(pts[:n], sc, bits)
			var want J
			for i := range n {
				m := pts[i].Jacobian()
				PJ(&want).Add(PJ(&m).Mul(sc[i*nb:(i+1)*nb], bits))
			}
			if !PJ(&got).Equal(&want) {
				t.Errorf("%d points, %d bits: %s != sum of Mul", n, bits, name)
			}
		}
	}
	if m := multiExp(nil, nil, 64); !PJ(&m).IsInfinity() {
		t.Errorf("%s of no points != infinity", name)
	}
}

func TestBatchAffineG1(t *testing.T) {
	aff := g1Points(20, 15)
	js := make([]curve.G1, len(aff)+2)
	for i := range aff {
		js[i] = aff[i].Jacobian()
		js[i].Add(&js[i]) // non-trivial Z
	}
	js[len(aff)] = curve.G1Infinity()
	js[len(aff)+1] = js[0]
	out := curve.BatchAffineG1(js)
	if len(out) != len(js) {
		t.Fatalf("%d outputs for %d inputs", len(out), len(js))
	}
	for i := range js {
		single := js[i].Affine()
		a, b := out[i].Jacobian(), single.Jacobian()
		if !a.Equal(&b) || !a.Equal(&js[i]) || out[i].IsInfinity() != js[i].IsInfinity() {
			t.Errorf("BatchAffineG1[%d] != Affine()", i)
		}
	}
	if len(curve.BatchAffineG1(nil)) != 0 {
		t.Error("BatchAffineG1(nil) not empty")
	}
}

func TestMillerLoop(t *testing.T) {
	msg := []byte("pairing")
	sk := interopKey(t, 3)
	pk := sk.PublicKey()
	sig := crypto.Sign(sk, msg)
	g := curve.G1Generator()
	ng := g.Jacobian()
	negG := ng.Neg().Affine()
	h := *blspoint.Message(crypto.HashMessage(msg))

	// e(pk, H(m)) * e(-g1, sig) == 1
	f := curve.MillerLoop([]curve.G1Affine{*blspoint.Key(pk), negG}, []curve.G2Affine{h, *blspoint.Signature(sig)})
	if !f.FinalExpIsOne() {
		t.Fatal("e(pk,H(m)) e(-g1,sig) != 1")
	}
	// The same from two separate loops multiplied with GT.Mul.
	a := curve.MillerLoop([]curve.G1Affine{*blspoint.Key(pk)}, []curve.G2Affine{h})
	b := curve.MillerLoop([]curve.G1Affine{negG}, []curve.G2Affine{*blspoint.Signature(sig)})
	if ret := a.Mul(&b); ret != &a || !a.FinalExpIsOne() {
		t.Error("product of separate Miller loops != 1")
	}
	// A wrong message, key or signature fails.
	wrong := *blspoint.Message(crypto.HashMessage([]byte("pairinh")))
	for name, pair := range map[string]struct {
		ps []curve.G1Affine
		qs []curve.G2Affine
	}{
		"wrong message": {[]curve.G1Affine{*blspoint.Key(pk), negG}, []curve.G2Affine{wrong, *blspoint.Signature(sig)}},
		"wrong key":     {[]curve.G1Affine{*blspoint.Key(interopKey(t, 4).PublicKey()), negG}, []curve.G2Affine{h, *blspoint.Signature(sig)}},
		"not negated":   {[]curve.G1Affine{*blspoint.Key(pk), g}, []curve.G2Affine{h, *blspoint.Signature(sig)}},
		"one pair":      {[]curve.G1Affine{*blspoint.Key(pk)}, []curve.G2Affine{h}},
	} {
		f := curve.MillerLoop(pair.ps, pair.qs)
		if f.FinalExpIsOne() {
			t.Errorf("%s: pairing check passed", name)
		}
	}
	// Bilinearity: e(3*g1, g2) == e(g1, 3*g2).
	g2 := curve.G2Generator()
	g3 := g.Jacobian()
	g3.Mul([]byte{3}, 2)
	h3 := g2.Jacobian()
	h3.Mul([]byte{3}, 2)
	h3.Neg()
	f = curve.MillerLoop([]curve.G1Affine{g3.Affine(), g}, []curve.G2Affine{g2, h3.Affine()})
	if !f.FinalExpIsOne() {
		t.Error("e(3g1, g2) e(g1, -3g2) != 1")
	}
	// No pairs is one; infinity in a pair contributes one.
	one := curve.MillerLoop(nil, nil)
	if !one.FinalExpIsOne() {
		t.Error("MillerLoop() is not one")
	}
	inf1, inf2 := curve.G1Infinity(), curve.G2Infinity()
	f = curve.MillerLoop([]curve.G1Affine{inf1.Affine(), *blspoint.Key(pk), negG}, []curve.G2Affine{h, h, *blspoint.Signature(sig)})
	if !f.FinalExpIsOne() {
		t.Error("e(inf, H) e(pk,H(m)) e(-g1,sig) != 1")
	}
	f = curve.MillerLoop([]curve.G1Affine{g}, []curve.G2Affine{inf2.Affine()})
	if !f.FinalExpIsOne() {
		t.Error("e(g1, inf) != 1")
	}
	// GTOne is one; GT's zero value is not (fails closed).
	o := curve.GTOne()
	if !o.FinalExpIsOne() {
		t.Error("GTOne is not one")
	}
	var z curve.GT
	if z.FinalExpIsOne() {
		t.Error("zero GT passes FinalExpIsOne")
	}
	// one * x = x.
	x := curve.MillerLoop([]curve.G1Affine{*blspoint.Key(pk)}, []curve.G2Affine{h})
	o = curve.GTOne()
	o.Mul(&x).Mul(&b)
	if !o.FinalExpIsOne() {
		t.Error("1 * e(pk,H) * e(-g1,sig) != 1")
	}
}

// TestGTExp: e(P, Q)^k equals e(kP, Q) for scalars of several sizes, and
// small edge cases (k = 0, 1, nbits 0).
func TestGTExp(t *testing.T) {
	g1, g2 := curve.G1Generator(), curve.G2Generator()
	ml := curve.MillerLoop([]curve.G1Affine{g1}, []curve.G2Affine{g2})
	e := ml.FinalExp()
	for _, k := range [][]byte{{0}, {1}, {2}, {13}, {0xff, 0x7f}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}} {
		nbits := 8 * len(k)
		p := g1.Jacobian()
		p.Mul(k, nbits)
		var want curve.GT
		if p.IsInfinity() {
			want = curve.GTOne()
		} else {
			pa := p.Affine()
			m := curve.MillerLoop([]curve.G1Affine{pa}, []curve.G2Affine{g2})
			want = m.FinalExp()
		}
		if got := e.Exp(k, nbits); !got.Equal(&want) {
			t.Errorf("e(g1, g2)^%x differs from e(k*g1, g2)", k)
		}
	}
	if got := e.Exp([]byte{5}, 0); !got.IsOne() {
		t.Error("nbits 0 did not give one")
	}
}

// TestMillerLoopLines: a Miller loop given some of its G2 points' lines is
// exactly MillerLoop of the same pairs, before the final exponentiation,
// whichever pairs have lines: none, one, all, more than a loop's 16, several
// without (the first shares the loop, the others go through MillerLoop),
// and pairs with a point at infinity in G1 or G2. It is the differential
// test of blst_precompute_lines, blst_fp12_sqr, blst_fp12_mul_by_xy00z0 and
// blst_fp_cneg, which only that loop uses.
func TestMillerLoopLines(t *testing.T) {
	const n = 37
	ps := make([]curve.G1Affine, n)
	qs := make([]curve.G2Affine, n)
	all := make([]*curve.Lines, n)
	for i := range n {
		ps[i] = *blspoint.Key(interopKey(t, i%8).PublicKey())
		qs[i] = *blspoint.Message(crypto.HashMessage([]byte{byte(i)}))
		all[i] = curve.NewLines(&qs[i])
	}
	ps[5] = curve.G1Affine{}              // infinity in G1, with lines
	qs[9], all[9] = curve.G2Affine{}, nil // infinity in G2
	if curve.NewLines(&qs[9]) != nil {
		t.Error("NewLines(infinity) is not nil")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range []int{1, 2, 3, 16, 17, 33, n} {
		for _, pick := range []string{"none", "all", "first", "last", "random"} {
			lines := make([]*curve.Lines, k)
			for i := range k {
				switch pick {
				case "all":
					lines[i] = all[i]
				case "first":
					if i == 0 {
						lines[i] = all[i]
					}
				case "last":
					if i == k-1 {
						lines[i] = all[i]
					}
				case "random":
					if rng.IntN(2) == 0 {
						lines[i] = all[i]
					}
				}
			}
			want := curve.MillerLoop(ps[:k], qs[:k])
			if got := curve.MillerLoopLines(ps[:k], qs[:k], lines); !got.Equal(&want) {
				t.Errorf("%d pairs, lines %s: differs from MillerLoop", k, pick)
			}
		}
	}

	// A signature's check with its message's lines.
	msg := []byte("pairing")
	sk := interopKey(t, 3)
	sig := crypto.Sign(sk, msg)
	g := curve.G1Generator()
	ng := g.Jacobian()
	negG := ng.Neg().Affine()
	h := *blspoint.Message(crypto.HashMessage(msg))
	hl := []*curve.Lines{curve.NewLines(&h), nil}
	pair := []curve.G2Affine{h, *blspoint.Signature(sig)}
	if f := curve.MillerLoopLines([]curve.G1Affine{*blspoint.Key(sk.PublicKey()), negG}, pair, hl); !f.FinalExpIsOne() {
		t.Error("a valid signature's check with lines failed")
	}
	if f := curve.MillerLoopLines([]curve.G1Affine{*blspoint.Key(interopKey(t, 4).PublicKey()), negG}, pair, hl); f.FinalExpIsOne() {
		t.Error("a wrong key's check with lines passed")
	}
	if f := curve.MillerLoopLines(ps[:2], qs[:2], all[:1]); f.FinalExpIsOne() || f.IsOne() {
		t.Error("lines of another length than the pairs did not give the zero GT")
	}
}

// TestMillerLoopMany: the multi-Miller loop of many pairs (more than one
// chunk of blst_miller_loop_n's 16, with an infinity key and a repeated pair)
// is exactly the product of their single Miller loops, before the final
// exponentiation.
func TestMillerLoopMany(t *testing.T) {
	const n = 37
	ps := make([]curve.G1Affine, n)
	qs := make([]curve.G2Affine, n)
	for i := range n {
		ps[i] = *blspoint.Key(interopKey(t, i%8).PublicKey())
		qs[i] = *blspoint.Message(crypto.HashMessage([]byte{byte(i)}))
	}
	ps[5] = curve.G1Affine{} // infinity
	ps[20], qs[20] = ps[3], qs[3]
	want := curve.GTOne()
	for i := range n {
		f := curve.MillerLoop(ps[i:i+1], qs[i:i+1])
		want.Mul(&f)
	}
	if got := curve.MillerLoop(ps, qs); !got.Equal(&want) {
		t.Error("multi-Miller loop != product of single loops")
	}
	for _, k := range []int{1, 16, 17, 32, 33} {
		want := curve.MillerLoop(ps[:k-1], qs[:k-1])
		last := curve.MillerLoop(ps[k-1:k], qs[k-1:k])
		want.Mul(&last)
		if got := curve.MillerLoop(ps[:k], qs[:k]); !got.Equal(&want) {
			t.Errorf("%d pairs: multi-Miller loop != product", k)
		}
	}
}
