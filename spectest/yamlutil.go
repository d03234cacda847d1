package spectest

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// readYAML parses the YAML file at path and returns its top node (the
// document's content, not the document node).
func readYAML(path string) (*yaml.Node, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("parsing %s: %w", path, err)
	}
	n := resolve(&doc)
	if n == nil {
		return nil, fmt.Errorf("parsing %s: empty document", path)
	}
	return n, nil
}

// resolve follows document wrappers and aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil {
		switch n.Kind {
		case yaml.DocumentNode:
			if len(n.Content) == 0 {
				return nil
			}
			n = n.Content[0]
		case yaml.AliasNode:
			n = n.Alias
		default:
			return n
		}
	}
	return nil
}

// lookup returns the value of key in mapping m, or nil when m has no such key.
func lookup(m *yaml.Node, key string) (*yaml.Node, error) {
	m = resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("looking up %q: not a mapping", key)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := resolve(m.Content[i]); k != nil && k.Value == key {
			return resolve(m.Content[i+1]), nil
		}
	}
	return nil, nil
}

// field returns the value of key in mapping m; a missing key is an error.
func field(m *yaml.Node, key string) (*yaml.Node, error) {
	n, err := lookup(m, key)
	if err != nil {
		return nil, err
	}
	if n == nil {
		return nil, fmt.Errorf("missing key %q", key)
	}
	return n, nil
}

func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// scalar returns the text of a scalar node, as written (so that hex such as
// 0123 or a big integer keeps its exact form).
func scalar(n *yaml.Node) (string, error) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", errors.New("expected a scalar")
	}
	if n.Tag == "!!null" {
		return "", errors.New("expected a value, got null")
	}
	return n.Value, nil
}

func boolOf(n *yaml.Node) (bool, error) {
	s, err := scalar(n)
	if err != nil {
		return false, err
	}
	switch s {
	case "true", "True", "TRUE":
		return true, nil
	case "false", "False", "FALSE":
		return false, nil
	}
	return false, fmt.Errorf("expected a boolean, got %q", s)
}

// decodeHex decodes hex with or without a 0x prefix.
func decodeHex(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("bad hex %q: %w", abbrev(s), err)
	}
	return b, nil
}

func hexOf(n *yaml.Node) ([]byte, error) {
	s, err := scalar(n)
	if err != nil {
		return nil, err
	}
	return decodeHex(s)
}

// fieldAs converts the value of m's key with conv, naming the key in
// conv's error.
func fieldAs[T any](m *yaml.Node, key string, conv func(*yaml.Node) (T, error)) (T, error) {
	var zero T
	n, err := field(m, key)
	if err != nil {
		return zero, err
	}
	v, err := conv(n)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", key, err)
	}
	return v, nil
}

func hexField(m *yaml.Node, key string) ([]byte, error) { return fieldAs(m, key, hexOf) }

// fieldsAs converts the values of m's keys with conv, in order.
func fieldsAs[T any](m *yaml.Node, conv func(*yaml.Node) (T, error), keys ...string) ([]T, error) {
	out := make([]T, len(keys))
	for i, k := range keys {
		v, err := fieldAs(m, k, conv)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// hexList decodes a sequence of hex strings.
func hexList(n *yaml.Node) ([][]byte, error) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil, errors.New("expected a list")
	}
	return items(n, hexOf)
}

// items converts each item of the sequence n with conv, naming the item
// that fails.
func items[T any](n *yaml.Node, conv func(*yaml.Node) (T, error)) ([]T, error) {
	out := make([]T, len(n.Content))
	for i, e := range n.Content {
		v, err := conv(e)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

func hexListField(m *yaml.Node, key string) ([][]byte, error) { return fieldAs(m, key, hexList) }

// generic converts a YAML node to the generic shape used to compare
// value.yaml with a decoded container: map[string]any, []any, uint64 for
// integers, bool, nil, and string for everything else.
func generic(n *yaml.Node) (any, error) {
	n = resolve(n)
	if n == nil {
		return nil, nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, err := scalar(n.Content[i])
			if err != nil {
				return nil, fmt.Errorf("mapping key: %w", err)
			}
			if _, dup := m[k]; dup {
				return nil, fmt.Errorf("duplicate key %q", k)
			}
			v, err := generic(n.Content[i+1])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			m[k] = v
		}
		return m, nil
	case yaml.SequenceNode:
		l, err := items(n, generic)
		if err != nil {
			return nil, err
		}
		return l, nil
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil, nil
		case "!!bool":
			return boolOf(n)
		case "!!int":
			v, err := strconv.ParseUint(strings.ReplaceAll(n.Value, "_", ""), 10, 64)
			if err != nil {
				// Not a decimal uint64 (an unquoted 0x... resolves as
				// !!int): keep the text, so hex still compares as hex.
				return n.Value, nil
			}
			return v, nil
		default:
			return n.Value, nil
		}
	}
	return nil, fmt.Errorf("unsupported YAML node kind %v", n.Kind)
}

func abbrev(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return s
}
