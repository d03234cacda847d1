#!/usr/bin/env bash
# Runs every go test -fuzz target of the workspace for a set time each and
# prints, per target, the time spent and whether it found a failure.
#
#   scripts/fuzz.sh [seconds per target, default 60] [package pattern, default work: every module of go.work]
#
# A failure leaves its input under the package's testdata/fuzz/<Target>/,
# where the ordinary `go test` run replays it from then on.
set -uo pipefail
cd "$(dirname "$0")/.."
secs="${1:-60}"
pattern="${2:-work}"
failed=0
for pkg in $(go list "$pattern"); do
  targets=$(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true)
  for t in $targets; do
    start=$(date +%s)
    if out=$(go test -run '^$' -fuzz "^${t}\$" -fuzztime "${secs}s" "$pkg" 2>&1); then
      status=ok
    else
      status=FAILED
      failed=$((failed + 1))
    fi
    execs=$(printf '%s\n' "$out" | grep -o 'execs: [0-9]*' | tail -n 1)
    printf '%-60s %-40s %4ss %-8s %s\n' "$pkg" "$t" "$(( $(date +%s) - start ))" "$status" "$execs"
    [ "$status" = FAILED ] && printf '%s\n' "$out" | tail -n 20
  done
done
echo "fuzz targets failed: $failed"
[ "$failed" -eq 0 ]
