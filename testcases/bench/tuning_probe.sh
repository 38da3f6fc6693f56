#!/usr/bin/env bash
# The self-test's tuning phase (TUNE=1): times, on the GPU at hand, the cross-overs that the gfx908
# tuning tables could only reason about, and prints the measured numbers with the table entry
# each one informs. On an MI100 its output is the measurement behind the "not measured on
# hardware" entries; on any other GPU it measures the same code paths for that GPU.
#   - softmax/tuning.h: up to which N the single-launch methods (register-resident, on-chip; one
#     cooperative launch) beat the two-pass method (two ordinary launches), device-resident;
#   - prefix_sum/tuning.h, kDirectMaxItems: up to which N solve()'s direct path (one device
#     buffer, pageable copies) beats the staged one (pinned chunks, both copy engines), host
#     pointers in and out as the contest program has them.
# The back-off (gpu/backoff.h) is a compile-time shape and is not probed here.
#
#   testcases/bench/tuning_probe.sh BUILD_DIR      (bench_softmax and bench_prefix_sum built there)
# Sizes: TUNE_SOFTMAX_SIZES (default 1e5,3e5,1e6,3e6,1e7), TUNE_PREFIX_SIZES (default
# 1e6,4e6,1.6e7,3.2e7,6.4e7). Exit status 0 when both benchmarks ran and checked their results.
set -uo pipefail
build=${1:?usage: tuning_probe.sh BUILD_DIR}
softmax_sizes=${TUNE_SOFTMAX_SIZES:-1e5,3e5,1e6,3e6,1e7}
prefix_sizes=${TUNE_PREFIX_SIZES:-1e6,4e6,1.6e7,3.2e7,6.4e7}
logs=$(mktemp -d /tmp/kit-tuning-probe.XXXXXX) || exit 1
trap 'rm -rf "$logs"' EXIT
status=0

for bench in bench_softmax bench_prefix_sum; do
  [ -x "$build/bin/$bench" ] || { echo "tuning_probe: $build/bin/$bench is missing" >&2; exit 2; }
done
"$build/bin/bench_softmax" --sizes "$softmax_sizes" --solve-sizes 1e5 >"$logs/softmax.log" 2>&1 ||
  { echo "tuning_probe: bench_softmax failed:"; tail -n 20 "$logs/softmax.log"; status=1; }
"$build/bin/bench_prefix_sum" --sizes "$prefix_sizes" >"$logs/prefix_sum.log" 2>&1 ||
  { echo "tuning_probe: bench_prefix_sum failed:"; tail -n 20 "$logs/prefix_sum.log"; status=1; }
device=$(sed -n 's/^device: \([^,]*\),.*/\1/p' "$logs/prefix_sum.log" | head -n 1)

echo "Tuning phase on ${device:-the GPU}: measured cross-overs (median times, ms)"
echo
echo "| N | softmax two-pass | fastest single launch | faster |"
echo "|---|---|---|---|"
# Device-resident softmax rows: | N | method | grid | ms | ...; variants (in parentheses) and the
# auto row are not candidates.
awk -F'|' '
  function trim(s) { gsub(/^ +| +$/, "", s); return s }
  NF > 5 && trim($2) ~ /^[0-9]+$/ {
    n = trim($2); method = trim($3); ms = trim($5) + 0
    if (method ~ /\(|^auto/) next
    if (!(n in seen)) { seen[n] = 1; order[++count] = n }
    if (method ~ /^two-pass/) two[n] = ms
    else if (method ~ /^(resident|on-chip)/ && (!(n in one) || ms < one[n])) { one[n] = ms; name[n] = method }
  }
  END {
    best = 0
    for (i = 1; i <= count; ++i) {
      n = order[i]
      if (!(n in one)) { printf "| %s | %.4f | (none fits) | two-pass |\n", n, two[n]; continue }
      single = one[n] < two[n]
      printf "| %s | %.4f | %.4f (%s) | %s |\n", n, two[n], one[n], name[n], single ? "single launch" : "two-pass"
      if (single) best = n
    }
    printf "\nsoftmax/tuning.h: single-launch methods faster up to N = %s of the sizes tried (kAuto\n", best ? best : "none"
    print "chooses between them through the capacities and kAutoResidentDivisor)."
  }' "$logs/softmax.log"

echo
echo "| N | prefix_sum direct | staged | faster |"
echo "|---|---|---|---|"
# solve() rows: | direct | N | chunks | total | ...
awk -F'|' '
  function trim(s) { gsub(/^ +| +$/, "", s); return s }
  NF > 5 && (trim($2) == "direct" || trim($2) == "staged") {
    path = trim($2); n = trim($3); ms = trim($5) + 0
    if (!(n in seen)) { seen[n] = 1; order[++count] = n }
    total[path, n] = ms
  }
  END {
    best = 0
    for (i = 1; i <= count; ++i) {
      n = order[i]
      direct = total["direct", n] < total["staged", n]
      printf "| %s | %.2f | %.2f | %s |\n", n, total["direct", n], total["staged", n], direct ? "direct" : "staged"
      if (direct) best = n
    }
    printf "\nprefix_sum/tuning.h: kDirectMaxItems = %s (the largest size tried where the direct path won)\n", best ? best : "0 (staged everywhere)"
  }' "$logs/prefix_sum.log"
grep -q "WRONG\|FAIL" "$logs/softmax.log" "$logs/prefix_sum.log" && {
  echo "tuning_probe: a benchmark reported a wrong result"
  status=1
}
exit $status
