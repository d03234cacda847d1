package curve

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unsafe"

	blst "github.com/supranational/blst/bindings/go"
)

// blstModule and blstVersion are the blst this package's declarations were
// copied from.
const (
	blstModule  = "github.com/supranational/blst"
	blstVersion = "v0.3.17"
)

// TestBlstVersion: a binary linked with this package links the blst the
// declarations were copied from, as runtime/debug's build info reports it
// (read by testdata/blstversion, a program importing this package: the
// test binary's own build info lists no dependencies).
func TestBlstVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program: not in -short")
	}
	out, err := exec.Command("go", "run", "./testdata/blstversion").CombinedOutput()
	if errors.Is(err, exec.ErrNotFound) {
		t.Skip("no go command to build the program")
	}
	if err != nil {
		t.Fatalf("go run ./testdata/blstversion: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != blstVersion {
		t.Fatalf("binaries link %s %s, the declarations are copied from %s: compare blst.h and blst_aux.h with cgo.go, buckets.c and straus.c, then update blstVersion", blstModule, got, blstVersion)
	}
}

// TestLinkedSizes: the linked library's own sizes (blst_*_sizeof) are the
// bindings' (the hand-copied structs equal those at compile time).
func TestLinkedSizes(t *testing.T) {
	want := [5]uintptr{unsafe.Sizeof(blst.P1{}), unsafe.Sizeof(blst.P1Affine{}),
		unsafe.Sizeof(blst.P2{}), unsafe.Sizeof(blst.P2Affine{}), unsafe.Sizeof(blst.Fp12{})}
	if got := linkedSizes(); got != want {
		t.Fatalf("linked blst sizes (p1, p1_affine, p2, p2_affine, fp12) %v, the bindings' %v", got, want)
	}
}

// auxSymbols are the blst_aux.h functions this package may declare, each
// with its check (see cgo.go).
var auxSymbols = map[string]string{
	"blst_p1_unchecked_mult": "TestUncheckedMult",
	"blst_p2_unchecked_mult": "TestUncheckedMult",
	"blst_p1_sizeof":         "TestLinkedSizes",
	"blst_p1_affine_sizeof":  "TestLinkedSizes",
	"blst_p2_sizeof":         "TestLinkedSizes",
	"blst_p2_affine_sizeof":  "TestLinkedSizes",
	"blst_fp12_sizeof":       "TestLinkedSizes",
}

var (
	cComment   = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*|(?m)^[ \t]*#[^\n]*`)
	cPrototype = regexp.MustCompile(`^([A-Za-z_][\w ]*?[\w*]) ?\b(blst_\w+) ?\(([^()]*)\)$`)
	cSpace     = regexp.MustCompile(`\s+`)
	cPunct     = regexp.MustCompile(` ?([*\[\],]) ?`)
	cParamName = regexp.MustCompile(`^(.*\S)\s*\b[A-Za-z_]\w*\s*((?:\[[^\]]*\])*)$`)
)

// paramTypes returns a parameter list without the parameters' names.
func paramTypes(params string) string {
	ps := strings.Split(params, ",")
	for i, p := range ps {
		p = strings.TrimSpace(p)
		if m := cParamName.FindStringSubmatch(p); m != nil && !strings.HasSuffix(m[1], "struct") {
			p = m[1] + m[2]
		}
		ps[i] = cPunct.ReplaceAllString(p, "$1")
	}
	return strings.Join(ps, ",")
}

// prototypes returns the blst_ function declarations in C text, by name,
// normalised: comments, spacing and parameter names dropped, BLST_ERROR (an
// enum) as int, preprocessor lines ignored. A declaration starts a line
// (calls inside function bodies are indented).
func prototypes(text string) map[string]string {
	out := make(map[string]string)
	for _, stmt := range strings.FieldsFunc(cComment.ReplaceAllString(text, ""), func(r rune) bool { return r == ';' || r == '{' || r == '}' }) {
		lead := stmt[:len(stmt)-len(strings.TrimLeft(stmt, " \t\n"))]
		if indent := lead[strings.LastIndex(lead, "\n")+1:]; indent != "" {
			continue
		}
		m := cPrototype.FindStringSubmatch(cSpace.ReplaceAllString(strings.TrimSpace(stmt), " "))
		if m == nil {
			continue
		}
		ret := strings.ReplaceAll(m[1], "BLST_ERROR", "int")
		out[m[2]] = cPunct.ReplaceAllString(ret, "$1") + "(" + paramTypes(m[3]) + ")"
	}
	return out
}

// cgoPreamble returns the C preamble of a cgo Go file: the comment before
// import "C".
func cgoPreamble(t *testing.T, file string) string {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	end := strings.Index(s, "*/\nimport \"C\"")
	start := strings.LastIndex(s[:max(end, 0)], "/*")
	if end < 0 || start < 0 {
		t.Fatalf("%s: no cgo preamble", file)
	}
	return s[start+2 : end]
}

// TestDeclarationsMatchHeaders: every blst prototype copied into blst_copy.h
// (or declared in cgo.go's preamble, buckets.h, buckets.c, straus.h or straus.c) is, token for token, the one in blst.h or blst_aux.h of the
// blst module this build uses, and the blst_aux.h ones (which blst does not
// promise to keep) are only those listed with their checks.
func TestDeclarationsMatchHeaders(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", blstModule).Output()
	if err != nil {
		t.Skipf("go list -m %s: %v (no go command or module cache: the headers cannot be read)", blstModule, err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "bindings")
	headers := make(map[string]map[string]string)
	for _, h := range []string{"blst.h", "blst_aux.h"} {
		b, err := os.ReadFile(filepath.Join(dir, h))
		if err != nil {
			t.Fatal(err)
		}
		headers[h] = prototypes(string(b))
	}
	ours := map[string]map[string]string{"cgo.go": prototypes(cgoPreamble(t, "cgo.go"))}
	for _, file := range []string{"blst_copy.h", "buckets.h", "buckets.c", "straus.h", "straus.c"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		ours[file] = prototypes(string(b))
	}
	n := 0
	for file, decls := range ours {
		for name, decl := range decls {
			n++
			switch {
			case headers["blst.h"][name] == decl:
			case headers["blst_aux.h"][name] == decl:
				if auxSymbols[name] == "" {
					t.Errorf("%s declares %s from blst_aux.h without a check in auxSymbols", file, name)
				}
			case headers["blst.h"][name] != "" || headers["blst_aux.h"][name] != "":
				t.Errorf("%s declares %s as\n\t%s\nblst %s's header has\n\t%s%s", file, name, decl, blstVersion, headers["blst.h"][name], headers["blst_aux.h"][name])
			default:
				t.Errorf("%s declares %s, which blst %s's headers do not", file, name, blstVersion)
			}
		}
	}
	if n != 48 {
		t.Fatalf("read %d declarations, want the 48 of blst_copy.h (update the count with it)", n)
	}
}

// diffPoints returns n random points of G1 and G2 (the generators times
// random 64-bit scalars, through the bindings).
func diffPoints(n int, rng *rand.Rand) ([]blst.P1, []blst.P2) {
	p1, p2 := make([]blst.P1, n), make([]blst.P2, n)
	for i := range n {
		var k blst.Scalar
		k.FromLEndian(leUint64(rng.Uint64() | 1))
		p1[i] = *blst.P1Generator().Mult(&k)
		p2[i] = *blst.P2Generator().Mult(&k)
	}
	return p1, p2
}

func leUint64(x uint64) []byte {
	b := make([]byte, 32)
	for i := range 8 {
		b[i] = byte(x >> (8 * i))
	}
	return b
}

// TestDeclaredPointFunctions compares each declared point function with the
// bindings' result: decoding, doubling, negation, addition, the infinity
// and subgroup tests.
func TestDeclaredPointFunctions(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	p1s, p2s := diffPoints(8, rng)
	for i := range p1s {
		p1, p2 := p1s[i], p2s[i]
		q1, q2 := p1s[(i+1)%len(p1s)], p2s[(i+1)%len(p2s)]
		a1, a2 := p1.ToAffine(), p2.ToAffine()

		var u1 blst.P1Affine
		var u2 blst.P2Affine
		c1, c2 := [48]byte(a1.Compress()), [96]byte(a2.Compress())
		if r := uncompressG1(&u1, &c1); r != int(Decoded) || !u1.Equals(new(blst.P1Affine).Uncompress(c1[:])) {
			t.Errorf("blst_p1_uncompress: %d", r)
		}
		if r := uncompressG2(&u2, &c2); r != int(Decoded) || !u2.Equals(new(blst.P2Affine).Uncompress(c2[:])) {
			t.Errorf("blst_p2_uncompress: %d", r)
		}
		bad := c2
		bad[0] &^= 0x80 // uncompressed flag on a 96-byte input
		if r := uncompressG2(&u2, &bad); r == int(Decoded) || new(blst.P2Affine).Uncompress(bad[:]) != nil {
			t.Errorf("blst_p2_uncompress of a bad encoding: %d", r)
		}

		d1, d2 := p1, p2
		p1Double(&d1)
		p2Double(&d2)
		if !d1.Equals(p1.Add(&p1)) || !d2.Equals(p2.Add(&p2)) {
			t.Error("blst_p1_double or blst_p2_double differs from the bindings' P + P")
		}
		n1, n2 := p1, p2
		p1Neg(&n1)
		p2Neg(&n2)
		if !n1.Equals(new(blst.P1).Sub(&p1)) || !n2.Equals(new(blst.P2).Sub(&p2)) {
			t.Error("blst_p1_cneg or blst_p2_cneg differs from the bindings' 0 - P")
		}
		var s1 blst.P1
		var s2 blst.P2
		p1Add(&s1, &p1, &q1)
		p2Add(&s2, &p2, &q2)
		if !s1.Equals(p1.Add(&q1)) || !s2.Equals(p2.Add(&q2)) {
			t.Error("blst_p1_add_or_double or blst_p2_add_or_double differs from the bindings' Add")
		}
		p1Add(&s1, &p1, &p1)
		if !s1.Equals(&d1) {
			t.Error("blst_p1_add_or_double(P, P) is not the doubling")
		}
		if p1IsInf(&p1) || p2IsInf(&p2) || p1AffIsInf(a1) || p2AffIsInf(a2) {
			t.Error("a finite point reported at infinity")
		}
		p1Add(&s1, &p1, &n1)
		p2Add(&s2, &p2, &n2)
		if !p1IsInf(&s1) || !p2IsInf(&s2) || !s1.Equals(new(blst.P1)) || !s2.Equals(new(blst.P2)) {
			t.Error("P + (-P) is not at infinity")
		}
		if !p2InG2(&p2) || p2InG2(&p2) != a2.InG2() {
			t.Error("blst_p2_in_g2 differs from the bindings' InG2")
		}
	}
	if !p1AffIsInf(&blst.P1Affine{}) || !p2AffIsInf(&blst.P2Affine{}) {
		t.Error("the zero affine points are not at infinity")
	}
	// A curve point outside G2: both subgroup tests reject it.
	out := outsideG2(t)
	if p2InG2(&out) || out.ToAffine().InG2() {
		t.Error("a point outside G2 passes a subgroup test")
	}
}

// outsideG2 returns a point of the G2 curve outside G2: the first valid
// x-coordinate after a fixed one (the cofactor makes G2 a tiny part of the
// curve).
func outsideG2(t *testing.T) blst.P2 {
	for i := range 256 {
		var c [96]byte
		c[0] = 0x80
		c[95] = byte(i)
		var a blst.P2Affine
		if uncompressG2(&a, &c) == int(Decoded) && !a.InG2() {
			var p blst.P2
			p.FromAffine(&a)
			return p
		}
	}
	t.Fatal("no curve point outside G2 found")
	return blst.P2{}
}

// TestUncheckedMult checks the two blst_aux.h multiplications: against the
// bindings' Mult in the subgroup (255-bit and 64-bit scalars), and outside
// G2 against a double-and-add of the bindings' additions.
func TestUncheckedMult(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	p1s, p2s := diffPoints(4, rng)
	for i := range p1s {
		for _, nbits := range []int{64, 255} {
			k := make([]byte, 32)
			for j := range k[:(nbits+7)/8] {
				k[j] = byte(rng.Uint32())
			}
			k[(nbits-1)/8] &= byte(1<<((nbits-1)%8+1) - 1)
			var s blst.Scalar
			s.FromLEndian(k)
			var m1 blst.P1
			var m2 blst.P2
			p1Mult(&m1, &p1s[i], k, nbits)
			p2Mult(&m2, &p2s[i], k, nbits)
			if !m1.Equals(p1s[i].Mult(&s, nbits)) || !m2.Equals(p2s[i].Mult(&s, nbits)) {
				t.Errorf("unchecked mult, %d bits: differs from the bindings' Mult", nbits)
			}
		}
	}
	out := outsideG2(t)
	k := big.NewInt(0).SetUint64(0xfedcba9876543211)
	le := leUint64(k.Uint64())[:8]
	var got blst.P2
	p2Mult(&got, &out, le, 64)
	var want blst.P2 // double-and-add from the top bit, the bindings' Add
	for i := k.BitLen() - 1; i >= 0; i-- {
		want = *want.Add(&want)
		if k.Bit(i) == 1 {
			want = *want.Add(&out)
		}
	}
	if !got.Equals(&want) {
		t.Error("blst_p2_unchecked_mult outside G2 differs from double-and-add")
	}
}

// TestDeclaredPairingFunctions compares the declared Fp12 and pairing
// functions with the bindings: the multi-Miller loop with Fp12MillerLoopN,
// multiplication, the final exponentiation, the one and equality tests, the
// conjugate (the inverse in GT), cyclotomic squaring (through GT.Exp) and
// signing a hashed message.
func TestDeclaredPairingFunctions(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	p1s, p2s := diffPoints(3, rng)
	ps := make([]blst.P1Affine, len(p1s))
	qs := make([]blst.P2Affine, len(p2s))
	for i := range ps {
		ps[i], qs[i] = *p1s[i].ToAffine(), *p2s[i].ToAffine()
	}
	var f blst.Fp12
	millerLoopN(&f, qs, ps)
	want := blst.Fp12MillerLoopN(qs, ps)
	fe, we := f, *want
	finalExp(&fe, &f)
	we.FinalExp()
	if !fe.Equals(&we) {
		t.Fatal("attpool_miller_loop_n (blst_miller_loop_n) and final exp differ from the bindings'")
	}
	if !fp12Equal(&fe, &we) || fp12Equal(&fe, &f) {
		t.Error("blst_fp12_is_equal differs from the bindings' Equals")
	}
	var prod, wantProd blst.Fp12
	fp12Mul(&prod, &f, want)
	wantProd = f
	wantProd.MulAssign(want)
	if !prod.Equals(&wantProd) {
		t.Error("blst_fp12_mul differs from the bindings' MulAssign")
	}
	one := blst.Fp12One()
	var e0 blst.Fp12
	gtExp(&e0, &fe, []byte{0}, 1) // blst_fp12_one squared once
	if !fp12IsOne(&one) || fp12IsOne(&fe) || !e0.Equals(&one) {
		t.Error("blst_fp12_is_one or blst_fp12_one differs from the bindings' Fp12One")
	}
	inv := fe
	fp12Conjugate(&inv)
	inv.MulAssign(&fe)
	if !inv.Equals(&one) || !finalExpIsOne(&one) || finalExpIsOne(&f) {
		t.Error("the conjugate of a GT value is not its inverse, or finalExpIsOne is wrong")
	}
	var cube blst.Fp12
	gtExp(&cube, &fe, []byte{3}, 2)
	wantCube := fe
	wantCube.MulAssign(&fe)
	wantCube.MulAssign(&fe)
	if !cube.Equals(&wantCube) {
		t.Error("GT exponentiation (blst_fp12_cyclotomic_sqr) differs from repeated MulAssign")
	}

	var sk blst.SecretKey
	sk.FromLEndian(leUint64(rng.Uint64() | 1))
	dst := []byte("BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_")
	h := HashToG2([]byte("m"), dst)
	got := h.MulSecret(&sk)
	if !got.p.Equals(new(blst.P2Affine).Sign(&sk, []byte("m"), dst)) {
		t.Error("blst_sign_pk_in_g1 differs from the bindings' Sign")
	}
}

// TestPairRoundAgainstBindings: the digit rounds, whose C code declares
// blst's field arithmetic (fp and fp2 add, sub, mul, sqr, mul_by_3,
// eucl_inverse) and mixed addition, give the sums the bindings compute with
// their own multiplication and addition.
func TestPairRoundAgainstBindings(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	p1s, p2s := diffPoints(200, rng)
	pts1, pts2 := make([]*G1Affine, len(p1s)), make([]*G2Affine, len(p2s))
	d1, d2 := make([]uint8, len(p1s)), make([]uint8, len(p1s))
	var w11, w12 blst.P1
	var w21, w22 blst.P2
	for i := range p1s {
		pts1[i] = &G1Affine{p: *p1s[i].ToAffine()}
		pts2[i] = &G2Affine{p: *p2s[i].ToAffine()}
		d1[i], d2[i] = uint8(rng.IntN(13)), uint8(rng.IntN(13))
		for _, c := range []struct {
			w1 *blst.P1
			w2 *blst.P2
			d  uint8
		}{{&w11, &w21, d1[i]}, {&w12, &w22, d2[i]}} {
			var s blst.Scalar
			s.FromLEndian(leUint64(uint64(c.d)))
			*c.w1 = *c.w1.Add(p1s[i].Mult(&s, 4))
			*c.w2 = *c.w2.Add(p2s[i].Mult(&s, 4))
		}
	}
	h1, h2, err := PairRoundG1(nil, pts1, d1, d2)
	if err != nil || !h1.p.Equals(&w11) || !h2.p.Equals(&w12) {
		t.Errorf("PairRoundG1 differs from the bindings (err %v)", err)
	}
	g1, g2, err := PairRoundG2(nil, pts2, d1, d2)
	if err != nil || !g1.p.Equals(&w21) || !g2.p.Equals(&w22) {
		t.Errorf("PairRoundG2 differs from the bindings (err %v)", err)
	}
}
