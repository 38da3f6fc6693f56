#!/usr/bin/env bash
# phase_times for variants of the on-chip kernel built with the macros that probe_phases.patch
# adds, to price each part by difference. VARIANTS is a list of variants, each a colon-separated
# list of SOFTMAX_<NAME>=<value> macros:
#   PROBE          bits: 1 no exp in pass 1, 2 no grid barrier, 4 no pass 2, 8 no exp in pass 2
#                  (all but 0 compute wrong results: measurements only)
#   PROBE_LOAD     register loads: 0 kit::gpu_load_once (.cs, the default), 1 nc +
#                  L1::no_allocate, 2 plain (before 2026-11-23), 3 nc + L2::256B
#   PROBE_EXP_OLD  1: exp2f instead of kit::gpu_exp2_flush (before 2026-11-23)
#   PROBE_SUM_OLD  1: a double add per float4 in pass-1 groups (before 2026-11-23)
#   PROBE_STORE    1: cache-streaming stores in pass 2
#   PROBE_NO_SLEEP 1: the grid barrier polls without kit::gpu_sleep_hint
# PT_BULK, PT_GROUPS and PT_SHARED_FIRST pass through to phase_times. An experiment, not part of
# any build. The kernel as it was before 2026-11-23: PROBE=0:PROBE_LOAD=2:PROBE_EXP_OLD=1:PROBE_SUM_OLD=1.
# The patch applies to 60399d2 (before the exchange of 2026-11-23's sixth session):
#   git checkout 60399d2 && git apply softmax/experiments/probe_phases.patch &&
#   VARIANTS="PROBE=0 PROBE=7 PROBE=0:PROBE_LOAD=2" softmax/experiments/probe_phases.sh 8e6 1e7
set -u
cd "$(dirname "$0")/../.."
out=${PROBE_OUT:-build/probe-phases}
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
VARIANTS=${VARIANTS:-PROBE=0 PROBE=1 PROBE=2 PROBE=7}
for v in $VARIANTS; do
  defines=$(echo "$v" | tr ':' '\n' | sed 's/^/-DSOFTMAX_/' | tr '\n' ' ')
  # shellcheck disable=SC2086 # defines is a list of words
  nvcc -std=c++17 -O3 -arch=sm_"${GPU_ARCH:-90}" --extended-lambda -DSOFTMAX_PHASE_TIMES $defines \
    -Icommon -Isoftmax -o "$out/probe_${v//[:=]/_}" softmax/experiments/phase_times.cu \
    softmax/kernel_engine.cu > "$out/build_${v//[:=]/_}.log" 2>&1 || echo "build $v failed" &
done
wait
for v in $VARIANTS; do
  echo "== $v"
  "$out/probe_${v//[:=]/_}" "$@" 2>&1 | tail -n +3
done
