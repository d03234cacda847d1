#!/usr/bin/env bash
# Soak test of the attestation pool: ten epochs (by default) of
# mainnet-shaped gossip on a manual clock, printing per epoch the heap in
# use, goroutines, verdicts and pool sizes, and failing (exit 1) if heap or
# goroutines grow after the first two epochs or a verdict is wrong.
#
#   scripts/soak.sh                      # 10 epochs, 512 attesters a slot
#   scripts/soak.sh -epochs 20 -validators-per-slot 1024 -invalid 0.05
#
# Flags are those of examples/soak (go run ./examples/soak -h); -epochs 10
# is passed unless given.
set -euo pipefail
cd "$(dirname "$0")/.."
args=("$@")
case " $* " in
  *" -epochs"*|*" --epochs"*) ;;
  *) args=(-epochs 10 "${args[@]}") ;;
esac
exec go run ./examples/soak "${args[@]}"
