#!/usr/bin/env bash
# The working tree against a base commit on one NVIDIA machine: both built side by side, then run
# alternately (ROUNDS times each, default 2), so that a change is priced within one session.
#   phase  the on-chip kernel's phase marks (phase_times.cu; N ... as for phase_times.sh)
#   bench  the benchmark (bench_softmax; its arguments, e.g. --sizes 8000000,10000000)
# Not part of any build or test.
#
#   softmax/experiments/compare_with.sh BASE_COMMIT phase|bench [ARG ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
base=$1
mode=$2
shift 2
case "$mode" in
phase | bench) ;;
*) echo "compare_with.sh: mode must be phase or bench, not '$mode'" >&2 && exit 2 ;;
esac
out=${COMPARE_OUT:-build/compare-with}
mkdir -p "$out"
rm -rf "$out/base-tree"
git worktree prune
git worktree add --detach "$out/base-tree" "$base" > /dev/null
trap 'git worktree remove --force "$out/base-tree"' EXIT
build() { # tree name
  softmax/experiments/nvcc_build.sh "$mode" "$1" "$out/$2"
}
build "$out/base-tree" base &
base_build=$!
build . work &
work_build=$!
wait "$base_build"
wait "$work_build"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for round in $(seq "${ROUNDS:-2}"); do
  for v in base work; do
    echo "== $v ($([ $v = base ] && git rev-parse --short "$base" || echo working tree)), round $round"
    "$out/$v" "$@" 2>&1 | if [ "$mode" = phase ]; then tail -n +3; else cat; fi
  done
done
