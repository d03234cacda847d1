#!/usr/bin/env bash
# What a node pays for importing attpool. Fails if the library's go.mod
# requires a module outside the allowed set (blst, fastssz, go-bitfield,
# logrus, the Prometheus client, golang.org/x/sync). Then builds a throwaway consumer module
# that imports github.com/attpool/attpool/pool (a replace to this checkout,
# outside the workspace) and fails if its module graph (`go list -m all`) or
# its build holds a test, benchmark or example dependency of this repository:
# gnark-crypto (the oracle), gonum/plot and its fonts and PDF/SVG writers,
# libp2p, progress bars, go-eth2-client and dynamic-ssz (spectest and the
# interop test), snappy at our spectest's version or yaml.v3 as a direct
# need. Also checks that only crypto and internal/curve import blst,
# and that a build without cgo stops with the message of
# internal/needcgo. Prints the module count.
#
# The yaml modules that remain in the graph come with the allowed
# dependencies (fastssz imports gopkg.in/yaml.v2; prometheus/common
# requires go.yaml.in/yaml; testify, which logrus and fastssz test with,
# requires gopkg.in/yaml.v3): they are listed, not failed.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

forbidden='gnark-crypto|gonum\.org|go-fonts|go-latex|go-pdf|sbinet/gg|ajstarks/svgo|golang/freetype|golang\.org/x/image|libp2p|multiformats|progressbar|cheggaaa|schollz|uiprogress|mpb|go-eth2-client|dynamic-ssz'

# The library's direct requirements: only the dependencies the module
# layout allows (README, "Packages": the library and its nested modules).
allowed='^(github\.com/supranational/blst|github\.com/ferranbt/fastssz|github\.com/prysmaticlabs/go-bitfield|github\.com/sirupsen/logrus|github\.com/prometheus/client_golang|github\.com/prometheus/client_model|golang\.org/x/sync)$'
status=0

# fail_if_any WHAT LINES: the check fails, saying WHAT and listing LINES,
# when LINES holds any (non-empty) line.
fail_if_any() {
  local lines
  lines="$(printf '%s\n' "$2" | grep . || true)"
  if [ -n "$lines" ]; then
    echo "modgraph: FAIL: $1:" >&2
    echo "$lines" >&2
    status=1
  fi
}

direct="$(GOWORK=off go list -m -f '{{if not .Indirect}}{{if not .Main}}{{.Path}}{{end}}{{end}}' all)"
fail_if_any "the library's go.mod requires modules outside the allowed set" "$(echo "$direct" | grep -v -E "$allowed")"
echo "modgraph: the library requires $(echo "$direct" | tr '\n' ' ')"

# Layering: crypto and its core, internal/curve, are the only importers of
# blst (test files included), so cgo stays in two places.
blstusers="$(GOWORK=off go list -test -f '{{.ImportPath}}{{range .Imports}} {{.}}{{end}}' ./... |
  awk '/ github\.com\/supranational\/blst/ {sub(/ .*/, ""); sub(/ \[.*/, ""); print}' | sed 's/\.test$//; s/_test$//' | sort -u)"
fail_if_any "packages other than crypto and internal/curve import blst" \
  "$(echo "$blstusers" | grep -v -x -E 'github\.com/attpool/attpool/(crypto|internal/curve)')"
echo "modgraph: blst is imported by $(echo "$blstusers" | tr '\n' ' ')"

tmp="$(mktemp -d -t attpool-consumer.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
goline="$(sed -n 's/^go //p' go.mod)"
cat >"$tmp/go.mod" <<MOD
module example.com/consumer

go $goline

require github.com/attpool/attpool v0.0.0

replace github.com/attpool/attpool => $repo
MOD
cat >"$tmp/main.go" <<'SRC'
// A node that embeds the pool.
package main

import "github.com/attpool/attpool/pool"

func main() { _ = pool.Config{} }
SRC

cd "$tmp"
export GOWORK=off GOFLAGS=-mod=mod
go mod tidy >/dev/null
mods="$(go list -m all)"
echo "modgraph: a consumer of attpool/pool (go $goline) has $(echo "$mods" | wc -l) modules in go list -m all"
fail_if_any "test/example-only modules in the consumer's graph" "$(echo "$mods" | grep -E "$forbidden")"
built="$(go list -deps -f '{{with .Module}}{{.Path}}{{end}}' . | sort -u)"
fail_if_any "test/example-only modules built into the consumer" "$(echo "$built" | grep -E "$forbidden")"
echo "modgraph: modules built into the consumer: $(echo "$built" | grep -v '^example.com' | tr '\n' ' ')"
echo "modgraph: yaml in the graph, from allowed dependencies: $(echo "$mods" | grep -i yaml | tr '\n' ' ')"
go build -o /dev/null .

if out="$(CGO_ENABLED=0 go build -o /dev/null . 2>&1)"; then
  echo "modgraph: FAIL: the consumer built without cgo" >&2
  status=1
elif ! echo "$out" | grep -q attpool_needs_cgo; then
  echo "modgraph: FAIL: a build without cgo does not say that attpool needs cgo:" >&2
  echo "$out" >&2
  status=1
else
  echo "modgraph: without cgo the build stops with: $(echo "$out" | grep -o 'undefined: attpool_needs_cgo[A-Za-z0-9_]*')"
fi
exit "$status"
