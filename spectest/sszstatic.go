package spectest

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/golang/snappy"

	"github.com/attpool/attpool/attestation"
	"github.com/attpool/attpool/ssz"
)

// Object is what an ssz_static case needs of a container: the fastssz
// methods that attpool's types have.
type Object interface {
	MarshalSSZ() ([]byte, error)
	UnmarshalSSZ(buf []byte) error
	SizeSSZ() int
	HashTreeRoot() ([32]byte, error)
}

// TypeKey names a container of the specs as its ssz_static cases do: the
// fork and preset folders and the type's name in the specs.
type TypeKey struct {
	Fork   string // "phase0", "electra", ...
	Preset string // "mainnet" or "minimal"
	Name   string // the spec's name, e.g. "Attestation"
}

// sszTypes maps each spec container to a constructor of the attpool type that
// encodes it.
var sszTypes = sszRegistry()

// The attpool types of each group of spec containers. A type's spec name is
// its Go name without the preset and fork prefixes (Minimal, Phase0, Gloas).
var (
	// Containers of every fork and preset.
	commonTypes = []Object{new(attestation.Checkpoint), new(attestation.AttestationData), new(attestation.Fork),
		new(ssz.ForkData), new(ssz.SigningData)}
	// Attestation containers from phase0 to deneb (MAX_VALIDATORS_PER_COMMITTEE
	// is 2048 in both presets).
	phase0Types = []Object{new(attestation.Phase0Attestation), new(attestation.Phase0IndexedAttestation),
		new(attestation.Phase0AggregateAndProof), new(attestation.Phase0SignedAggregateAndProof)}
	// Electra (EIP-7549) containers, unchanged in fulu, by preset.
	electraTypes = map[string][]Object{
		"mainnet": {new(attestation.Attestation), new(attestation.SingleAttestation), new(attestation.IndexedAttestation),
			new(attestation.AggregateAndProof), new(attestation.SignedAggregateAndProof)},
		"minimal": {new(attestation.MinimalAttestation), new(attestation.SingleAttestation),
			new(attestation.MinimalIndexedAttestation), new(attestation.MinimalAggregateAndProof),
			new(attestation.MinimalSignedAggregateAndProof)},
	}
	// Gloas: the attestation containers of EIP-7688 (progressive; the
	// IndexedAttestation and SingleAttestation of both presets) and those
	// of the payload timeliness committee (EIP-7732; PTC_SIZE differs), by
	// preset.
	gloasTypes = map[string][]Object{
		"mainnet": {new(attestation.GloasAttestation), new(attestation.SingleAttestation),
			new(attestation.GloasIndexedAttestation), new(attestation.GloasAggregateAndProof),
			new(attestation.GloasSignedAggregateAndProof), new(attestation.PayloadAttestationData),
			new(attestation.PayloadAttestationMessage), new(attestation.PayloadAttestation)},
		"minimal": {new(attestation.MinimalGloasAttestation), new(attestation.SingleAttestation),
			new(attestation.GloasIndexedAttestation), new(attestation.MinimalGloasAggregateAndProof),
			new(attestation.MinimalGloasSignedAggregateAndProof), new(attestation.PayloadAttestationData),
			new(attestation.PayloadAttestationMessage), new(attestation.MinimalPayloadAttestation)},
	}
)

func sszRegistry() map[TypeKey]func() Object {
	reg := map[TypeKey]func() Object{}
	add := func(fork, preset string, objs []Object) {
		for _, o := range objs {
			t := reflect.TypeOf(o).Elem()
			name := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(t.Name(), "Minimal"), "Phase0"), "Gloas")
			reg[TypeKey{fork, preset, name}] = func() Object { return reflect.New(t).Interface().(Object) }
		}
	}
	for _, preset := range []string{"mainnet", "minimal"} {
		for _, fork := range []string{"phase0", "altair", "bellatrix", "capella", "deneb", "electra", "fulu", "gloas"} {
			add(fork, preset, commonTypes)
			switch fork {
			case "gloas":
				add(fork, preset, gloasTypes[preset])
			case "electra", "fulu":
				add(fork, preset, electraTypes[preset])
			default:
				add(fork, preset, phase0Types)
			}
		}
	}
	return reg
}

// SSZType returns a constructor of the attpool type that encodes the spec
// container name of fork and preset, and whether there is one.
func SSZType(fork, preset, name string) (func() Object, bool) {
	f, ok := sszTypes[TypeKey{Fork: fork, Preset: preset, Name: name}]
	return f, ok
}

// SSZTypes lists the registered containers, sorted by fork, preset and name.
func SSZTypes() []TypeKey {
	keys := make([]TypeKey, 0, len(sszTypes))
	for k := range sszTypes {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b TypeKey) int {
		return cmp.Or(cmp.Compare(a.Fork, b.Fork), cmp.Compare(a.Preset, b.Preset), cmp.Compare(a.Name, b.Name))
	})
	return keys
}

func sszStaticHandler(c Case) (caseFunc, error) {
	newObj, ok := SSZType(c.Fork, c.Preset, c.Handler)
	if !ok {
		return nil, notCoveredf("no SSZ type registered for %s/%s/%s", c.Preset, c.Fork, c.Handler)
	}
	return func(c Case) error { return runSSZStatic(c.Dir, newObj) }, nil
}

// runSSZStatic checks one ssz_static case folder against a fresh object.
func runSSZStatic(dir string, newObj func() Object) error {
	compressed, err := os.ReadFile(filepath.Join(dir, "serialized.ssz_snappy"))
	if err != nil {
		return err
	}
	data, err := snappy.Decode(nil, compressed)
	if err != nil {
		return fmt.Errorf("serialized.ssz_snappy: snappy block decoding: %w", err)
	}
	obj := newObj()
	if err := obj.UnmarshalSSZ(data); err != nil {
		return fmt.Errorf("UnmarshalSSZ of %d bytes: %w", len(data), err)
	}
	again, err := obj.MarshalSSZ()
	if err != nil {
		return fmt.Errorf("MarshalSSZ after decoding: %w", err)
	}
	if !bytes.Equal(again, data) {
		return fmt.Errorf("re-encoding differs: got %d bytes 0x%s, want %d bytes 0x%s",
			len(again), abbrev(hex.EncodeToString(again)), len(data), abbrev(hex.EncodeToString(data)))
	}
	if n := obj.SizeSSZ(); n != len(data) {
		return fmt.Errorf("SizeSSZ = %d, want %d", n, len(data))
	}

	roots, err := readYAML(filepath.Join(dir, "roots.yaml"))
	if err != nil {
		return err
	}
	wantRoot, err := hexField(roots, "root")
	if err != nil {
		return fmt.Errorf("roots.yaml: %w", err)
	}
	root, err := obj.HashTreeRoot()
	if err != nil {
		return fmt.Errorf("HashTreeRoot: %w", err)
	}
	if !bytes.Equal(root[:], wantRoot) {
		return fmt.Errorf("HashTreeRoot = 0x%x, want 0x%x", root, wantRoot)
	}

	valueNode, err := readYAML(filepath.Join(dir, "value.yaml"))
	if err != nil {
		return err
	}
	want, err := generic(valueNode)
	if err != nil {
		return fmt.Errorf("value.yaml: %w", err)
	}
	got, err := toGeneric(reflect.ValueOf(obj))
	if err != nil {
		return fmt.Errorf("converting decoded %T: %w", obj, err)
	}
	if diffs := compareGeneric("", want, got, nil); len(diffs) > 0 {
		if len(diffs) > 5 {
			diffs = append(diffs[:5], fmt.Sprintf("and %d more", len(diffs)-5))
		}
		return fmt.Errorf("decoded value differs from value.yaml: %s", strings.Join(diffs, "; "))
	}
	return nil
}

// toGeneric converts a decoded container to the generic shape of value.yaml
// (see generic): structs become maps keyed by the snake_case field names,
// unsigned integers uint64, byte arrays and byte slices (bitlists and
// bitvectors included) 0x-hex strings, other lists []any.
func toGeneric(v reflect.Value) (any, error) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil, nil
		}
		return toGeneric(v.Elem())
	case reflect.Struct:
		m := map[string]any{}
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			x, err := toGeneric(v.Field(i))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.Name, err)
			}
			m[snakeCase(f.Name)] = x
		}
		return m, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint(), nil
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Array, reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, v.Len())
			reflect.Copy(reflect.ValueOf(b), v)
			return "0x" + hex.EncodeToString(b), nil
		}
		l := make([]any, v.Len())
		for i := range l {
			x, err := toGeneric(v.Index(i))
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			l[i] = x
		}
		return l, nil
	}
	return nil, fmt.Errorf("unsupported kind %v", v.Kind())
}

// snakeCase turns a Go field name into the specs' name:
// BeaconBlockRoot -> beacon_block_root.
func snakeCase(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) ||
				(i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// compareGeneric appends to diffs a line for each difference between want
// (from value.yaml) and got (from the decoded value). Hex strings compare
// case-insensitively.
func compareGeneric(path string, want, got any, diffs []string) []string {
	at := path
	if at == "" {
		at = "(top)"
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return append(diffs, fmt.Sprintf("%s: value.yaml has a mapping, decoded %T", at, got))
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			sub := k
			if path != "" {
				sub = path + "." + k
			}
			wv, inW := w[k]
			gv, inG := g[k]
			switch {
			case !inW:
				diffs = append(diffs, fmt.Sprintf("%s: decoded field missing from value.yaml", sub))
			case !inG:
				diffs = append(diffs, fmt.Sprintf("%s: in value.yaml but not a field of the decoded type", sub))
			default:
				diffs = compareGeneric(sub, wv, gv, diffs)
			}
		}
		return diffs
	case []any:
		g, ok := got.([]any)
		if !ok {
			return append(diffs, fmt.Sprintf("%s: value.yaml has a list, decoded %v", at, got))
		}
		if len(w) != len(g) {
			return append(diffs, fmt.Sprintf("%s: %d items, value.yaml has %d", at, len(g), len(w)))
		}
		for i := range w {
			diffs = compareGeneric(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], diffs)
		}
		return diffs
	case string:
		if g, ok := got.(string); !ok || !strings.EqualFold(w, g) {
			return append(diffs, fmt.Sprintf("%s = %v, value.yaml has %q", at, got, w))
		}
		return diffs
	default:
		if want != got {
			return append(diffs, fmt.Sprintf("%s = %v (%T), value.yaml has %v (%T)", at, got, got, want, want))
		}
		return diffs
	}
}
