#!/usr/bin/env bash
# On an NVIDIA machine: times the default scan with other spin-loop back-offs. gpu_sleep_hint()
# is __nanosleep(100) on CUDA; each value here is a copy of the tracked tree with that argument
# ("none": no sleep at all), built with nvcc and run twice, the values interleaved, so that the
# spread between the two rounds shows what is noise. Not part of any build or test.
#
#   prefix_sum/experiments/sleep_sweep.sh [N ...]        (default N: 1e6 2e6 3e6 1e7 1e8)
#   SLEEPS="none 0 100" prefix_sum/experiments/sleep_sweep.sh ...
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1e6 2e6 3e6 1e7 1e8)
read -r -a sleeps <<<"${SLEEPS:-none 0 20 50 100 200 400}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

grep -q '__nanosleep(100);' common/gpu.h || {
  echo "sleep_sweep.sh: common/gpu.h no longer has __nanosleep(100); update this script" >&2
  exit 1
}
for ns in "${sleeps[@]}"; do
  (
    tree="$work/$ns"
    mkdir -p "$tree"
    git ls-files -z | xargs -0 cp --parents -t "$tree"
    cd "$tree"
    if [ "$ns" = none ]; then
      sed -i 's/__nanosleep(100);/;/' common/gpu.h
    else
      sed -i "s/__nanosleep(100);/__nanosleep($ns);/" common/gpu.h
    fi
    nvcc -std=c++17 -O3 -arch=sm_"${GPU_ARCH:-90}" --extended-lambda -Icommon -Iprefix_sum \
      -o bench prefix_sum/bench.cu prefix_sum/kernel.cu prefix_sum/reference.cpp \
      common/threads.cpp
  ) >"$work/build_$ns.log" 2>&1 &
done
wait
for ns in "${sleeps[@]}"; do
  [ -x "$work/$ns/bench" ] || { cat "$work/build_$ns.log" >&2; exit 1; }
done

nvidia-smi --query-gpu=name --format=csv,noheader
echo "default scan, ms (median of events, queued launches), N: ${sizes[*]}"
for round in 1 2; do
  for ns in "${sleeps[@]}"; do
    printf 'round %s  sleep %-5s' "$round" "$ns"
    "$work/$ns/bench" --skip-solve "${sizes[@]}" | grep '(default)' |
      awk -F'|' '{ printf "  %s", $4 + 0 }'
    echo
  done
done
