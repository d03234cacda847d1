#!/usr/bin/env bash
# The long form of the differential test of the batch verifier against an
# independent BLS oracle (gnark-crypto; verifier/oracle/oracle_test.go and
# verifier/oracle/oracle_long_test.go, a module of its own so that
# gnark-crypto stays out of the library's go.mod): at least 100,000 random and 10,000
# adversarial signature sets, each verdict compared with the oracle's and
# with blst's per-set Verify. Prints the counts, the time and any mismatch.
#
# Usage: scripts/oracle.sh [go test flags...]
# Environment:
#   ATTPOOL_ORACLE_RANDOM, ATTPOOL_ORACLE_ADVERSARIAL  other set counts
#   ATTPOOL_ORACLE_SEED                                replay a generator seed
#   CONSENSUS_SPEC_TESTS   consensus-spec-tests folder for the oracle's
#                          self-check (default ../shared/spec-tests/tests)
# The default form (4,000 sets) runs in CI's full `go test work`, a smaller
# one (450) with the README's `go test -short work`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${CONSENSUS_SPEC_TESTS:-}" ] && [ -d ../shared/spec-tests/tests ]; then
  CONSENSUS_SPEC_TESTS="$(cd ../shared/spec-tests/tests && pwd)"
  export CONSENSUS_SPEC_TESTS
fi
export ATTPOOL_ORACLE_LONG=1

log="$(mktemp -t attpool-oracle.XXXXXX)"
start=$(date +%s)
status=0
go test -count=1 -v -run '^TestOracle' -timeout 60m "$@" ./verifier/oracle/ >"$log" 2>&1 || status=$?
end=$(date +%s)

grep -E 'oracle: |consensus BLS vectors|^ *--- (PASS|FAIL)|^(PASS|FAIL|ok)|panic' "$log" || true
# Each mismatch is reported with the set on the four lines that follow.
grep -E -A4 'MISMATCH' "$log" || true
echo "oracle.sh: go test exit status $status, $((end - start)) s wall time; full log: $log"
exit "$status"
