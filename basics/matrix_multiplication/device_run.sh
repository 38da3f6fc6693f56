#!/usr/bin/env bash
# One device call: build the standalone bench with nvcc (independent of the kit's CMake), record
# the compiler's resource report and the default kernel's instruction mix, then check and time.
# Usage (repo root): basics/matrix_multiplication/device_run.sh [--sweep]   Logs go to $OUT.
set -euo pipefail
here=basics/matrix_multiplication
out=${OUT:-/tmp/matmul_out}
mkdir -p "$out" build/matmul-device
bin=build/matmul-device/standalone_bench

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv \
  | tee "$out/gpu.txt" || true

nvcc -O3 -std=c++17 -arch=sm_90 -I common -Xcompiler -fopenmp -Xptxas -v \
  "$here/standalone_bench.cu" -o "$bin" -lcublas 2>"$out/ptxas.txt"
# One line per kernel: tile shape parameters, vector path (1) or not, registers, spill bytes.
awk '/Compiling entry function .*matmul_kernel/ { match($0, /TileShapeI.*EEELb/); shape = substr($0, RSTART + 10, RLENGTH - 15);
       gsub(/E?Li/, " ", shape); match($0, /EEELb[01]/); vec = substr($0, RSTART + 5, 1) }
     /spill stores/ { spill = $5 + $9 }
     /Used [0-9]+ registers/ && shape != "" { print "shape" shape, "vector=" vec, "regs=" $5, "spill_bytes=" spill; shape = "" }' \
  "$out/ptxas.txt" | tee "$out/resources.txt"

# Instruction mix of the default shape's vector kernel, and its schedule with runs of the same
# kind of instruction collapsed (where the global loads sit relative to the FMAs), when the SASS
# tools are installed.
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass -fun '_ZN6matmul13matmul_kernelINS_9TileShapeILi256ELi128ELi16ELi4ELi2ELi1EEELb1EEEvPKfS4_Pfiii' \
    "$bin" >"$out/default_kernel.sass" || true
  grep -oE '^ +/\*[0-9a-f]{4,5}\*/ +(@!?U?P[0-9T] +)?[A-Z][A-Z0-9_.]*' "$out/default_kernel.sass" \
    | awk '{print $NF}' >"$out/opcodes.txt" || true
  sed 's/\..*//' "$out/opcodes.txt" | sort | uniq -c | sort -rn | head -12 || true
  awk '{ k = $1; sub(/\..*/, "", k); if (k !~ /^(FFMA|LDS|LDG|STS|BAR|BRA|EXIT|STG)$/) k = "x";
         if (k == prev) n++; else { if (prev != "") printf "%s%s ", prev, (n > 1 ? "*" n : ""); prev = k; n = 1 } }
       END { printf "%s%s\n", prev, (n > 1 ? "*" n : "") }' "$out/opcodes.txt" | fold -w 150 || true
fi

OMP_NUM_THREADS=$(nproc) "$bin" "$@" 2>&1 | tee "$out/bench.txt"
