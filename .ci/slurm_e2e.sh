#!/usr/bin/env bash
# End-to-end test of self_test_and_submit.sbatch under a real SLURM cluster of one node, started
# here from scratch (Debian's slurm-wlm and munge, installed when missing), on the CPU backend:
#   1. `sbatch --wait` of the script as the contest would run it (its own #SBATCH header, the log
#      in output_<job>.log) must build, pass every committed case, export, and exit 0;
#   2. the same with one expected output deliberately broken must report that case as FAIL, still
#      run every case after it, not claim success, skip the export, and exit non-zero.
# On the CPU backend the log must say, before its verdict, that the GPU kernels were not tested.
# Bad options (SCALE=huge, ...) must stop the script at once with exit 2.
# The cluster lives in a temporary folder (its own munge key and socket, state, spool, logs, ports)
# and never touches /etc; every wait is bounded, and the daemons are stopped even on failure.
# Usage (root): bash .ci/slurm_e2e.sh     Takes about 1-2 minutes on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
JOB_TIMEOUT_S=${JOB_TIMEOUT_S:-240}
# The CI machine has 2 cores and less than the header's 32G: the command line overrides both.
JOB_RESOURCES=(--cpus-per-task="$(nproc)" --mem=2G)
BUILD_DIR=$ROOT/build/sbatch-e2e
CASES=${E2E_TESTCASES:-$ROOT/testcases} # the committed cases, or another set with the same layout

fail() {
  echo "slurm_e2e: FAIL: $*"
  exit 1
}

[ "$(id -u)" -eq 0 ] || fail "must run as root (it starts munged, slurmctld and slurmd)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
  ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  echo "installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 apt-get update -qq &&
    timeout 600 apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null ||
    fail "cannot install slurm-wlm and munge"
fi
command -v python3 >/dev/null || fail "python3 is needed (free ports, the exporter)"

# Bad options stop the script before it builds anything: exit 2, the reason, no verdict claimed.
for bad in SCALE=huge KIT_SMALL_INPUT=x GPU_BACKEND=METAL; do
  out=$(env "$bad" BUILD_DIR="$BUILD_DIR" bash "$ROOT/self_test_and_submit.sbatch" 2>&1)
  status=$?
  [ "$status" -eq 2 ] || fail "$bad: exit $status, expected 2: $out"
  grep -q "^ERROR: ${bad%%=*}=${bad#*=}: expected" <<<"$out" || fail "$bad: no clear error: $out"
  grep -q "^FINAL RESULT: NOT RUN" <<<"$out" || fail "$bad: no NOT RUN verdict: $out"
done
echo "slurm_e2e: bad options rejected with exit 2"

CLUSTER=$(mktemp -d /tmp/kit-slurm-e2e.XXXXXX) || fail "mktemp"
chmod 711 "$CLUSTER" # munged wants its socket's folder searchable by all
DAEMON_PIDS=()

cleanup() {
  local status=$?
  if [ -n "${SLURM_CONF:-}" ] && [ ${#DAEMON_PIDS[@]} -gt 0 ]; then
    timeout 20 scancel --quiet --full "--user=$(id -un)" 2>/dev/null
  fi
  local pid i
  for ((i = ${#DAEMON_PIDS[@]} - 1; i >= 0; i--)); do # slurmd, slurmctld, then munged
    pid=${DAEMON_PIDS[$i]}
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  if [ "$status" -ne 0 ]; then
    for log in "$CLUSTER"/slurmctld.log "$CLUSTER"/slurmd.log; do
      [ -f "$log" ] && echo "--- last lines of $log" && tail -n 15 "$log"
    done
  fi
  rm -rf "$CLUSTER"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# ---- the cluster ------------------------------------------------------------------------------
dd if=/dev/urandom of="$CLUSTER/munge.key" bs=1024 count=1 status=none &&
  chmod 400 "$CLUSTER/munge.key"
munged --foreground --force --socket="$CLUSTER/munge.sock" --key-file="$CLUSTER/munge.key" \
  --pid-file="$CLUSTER/munged.pid" --log-file="$CLUSTER/munged.log" \
  --seed-file="$CLUSTER/munged.seed" >"$CLUSTER/munged.out" 2>&1 &
DAEMON_PIDS+=($!)

node=$(hostname -s)
memory_mb=$(awk '/MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)
mkdir -p "$CLUSTER/state" "$CLUSTER/spool"
cat >"$CLUSTER/slurm.conf" <<EOF
ClusterName=kit-e2e
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$CLUSTER/munge.sock
CredType=cred/munge
StateSaveLocation=$CLUSTER/state
SlurmdSpoolDir=$CLUSTER/spool
SlurmctldPidFile=$CLUSTER/slurmctld.pid
SlurmdPidFile=$CLUSTER/slurmd.pid
SlurmctldLogFile=$CLUSTER/slurmctld.log
SlurmdLogFile=$CLUSTER/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
ReturnToService=2
GresTypes=gpu
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory_mb Gres=gpu:1 State=UNKNOWN
PartitionName=e2e Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
# The job asks for --gres=gpu:1 like the contest's; the CPU backend needs no device behind it.
echo "Name=gpu File=/dev/null" >"$CLUSTER/gres.conf"
export SLURM_CONF=$CLUSTER/slurm.conf

for _ in $(seq 50); do [ -S "$CLUSTER/munge.sock" ] && break; sleep 0.2; done
[ -S "$CLUSTER/munge.sock" ] || fail "munged did not start: $(cat "$CLUSTER/munged.out")"
slurmctld -D -f "$SLURM_CONF" >"$CLUSTER/slurmctld.out" 2>&1 &
DAEMON_PIDS+=($!)
slurmd -D -f "$SLURM_CONF" >"$CLUSTER/slurmd.out" 2>&1 &
DAEMON_PIDS+=($!)
state=""
for _ in $(seq 60); do
  state=$(timeout 5 sinfo -h -N -o %T 2>/dev/null | head -n 1)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || fail "the node did not come up (state '${state:-none}')"
echo "slurm_e2e: cluster up (node $node, $(nproc) CPUs, ${memory_mb} MB, gpu:1)"

# submit NAME ENV...: runs the script with sbatch --wait from a folder of its own, so the
# header's `-o output_%j.log` lands there and the script must find the kit through SLURM.
submit() {
  local name=$1
  shift
  local dir="$CLUSTER/$name"
  mkdir -p "$dir"
  local env_list
  env_list=$(IFS=,; echo "ALL,GPU_BACKEND=CPU,BUILD_DIR=$BUILD_DIR,JOBS=$(nproc),$*")
  (cd "$dir" && timeout "$JOB_TIMEOUT_S" sbatch --wait --quiet "${JOB_RESOURCES[@]}" \
    --export="$env_list" "$ROOT/self_test_and_submit.sbatch")
  JOB_STATUS=$?
  JOB_LOG=$(ls "$dir"/output_*.log 2>/dev/null | head -n 1)
  [ "$JOB_STATUS" -ne 124 ] || fail "$name: sbatch --wait timed out after $JOB_TIMEOUT_S s"
  [ -n "$JOB_LOG" ] || fail "$name: no output_<job>.log in $dir (exit $JOB_STATUS)"
  echo "slurm_e2e: $name: job exit $JOB_STATUS, log $(basename "$JOB_LOG")"
}

show_log() {
  echo "--- $JOB_LOG"
  cat "$JOB_LOG"
  echo "---"
}

expect_in_log() { # expect_in_log REGEX WHAT
  grep -Eq -- "$1" "$JOB_LOG" || { show_log; fail "$2"; }
}

# ---- 1. the committed cases: everything must pass -----------------------------------------------
# SUBMIT_UNTESTED: the copy to SUBMIT_DIR normally needs a GPU-backend self-test.
submit green "TEST_DIR=$CASES" "EXPORT_DIR=$CLUSTER/export" "SUBMIT_DIR=$CLUSTER/home/contest" \
  SUBMIT_UNTESTED=1
[ "$JOB_STATUS" -eq 0 ] || { show_log; fail "green run exited $JOB_STATUS"; }
for p in prefix_sum softmax apsp; do
  count=$(find "$CASES/$p" -maxdepth 1 -name '*.in' | wc -l)
  [ "$count" -gt 0 ] || fail "no cases in $CASES/$p"
  expect_in_log "^Found $count test cases in $CASES/$p\$" "$p: case count line missing"
done
runs=$(grep -c '^Running test \[' "$JOB_LOG")
passes=$(grep -Ec '^Running test \[[^]]+\]\.\.\. PASS \([0-9]+\.[0-9]+s cpu\)$' "$JOB_LOG")
[ "$runs" -gt 0 ] && [ "$runs" -eq "$passes" ] ||
  { show_log; fail "green run: $passes of $runs cases passed"; }
# Numeric order: the case names of the first problem, as run, are already sorted as numbers.
order=$(sed -n '/^==== prefix_sum/,/^Passed cases/s/^Running test \[\([^]]*\)\].*/\1/p' "$JOB_LOG")
[ "$order" = "$(sort -V <<<"$order")" ] || fail "cases did not run in numeric order: $(echo $order)"
expect_in_log '^Weighted score \(1\*prefix_sum \+ 1\*softmax \+ 2\.5\*apsp\): [0-9.]+ seconds$' \
  "weighted score line missing"
expect_in_log "^Export: done: $CLUSTER/export \\(CPU reference only: GPU kernels not tested\\)\$" \
  "export did not run after the green self-test, or its line lacks the CPU-only caveat"
expect_in_log "^NOTE: CPU backend: the GPU kernels were neither compiled nor run" \
  "the CPU-backend caveat is missing"
[ -f "$CLUSTER/export/.kit-export" ] || fail "the export folder was not written"
for folder in "$CLUSTER"/export/hip_programming_contest/*/; do
  [ -d "$folder" ] || continue
  p=$(basename "$folder")
  for f in main.cpp main.h kernel.hip Makefile; do
    cmp -s "$folder/$f" "$CLUSTER/home/contest/$p/$f" || fail "SUBMIT_DIR: $p/$f not copied"
  done
done
verdict="FINAL RESULT: ALL TESTS PASSED (CPU reference only: GPU kernels not tested)"
[ "$(tail -n 3 "$JOB_LOG" | head -n 1)" = "$verdict" ] ||
  { show_log; fail "green run does not end with $verdict"; }
! grep -q "ALL TESTS PASSED!" "$JOB_LOG" || { show_log; fail "a CPU-only run claims the GPU verdict"; }
echo "slurm_e2e: green run OK ($passes cases passed)"

# ---- 2. one broken expected output: FAIL, the rest still runs, non-zero exit -------------------
broken="$CLUSTER/broken/prefix_sum"
mkdir -p "$broken" && cp "$CASES"/prefix_sum/*.in "$CASES"/prefix_sum/*.out "$broken"/
mapfile -t names < <(find "$broken" -name '*.in' -printf '%f\n' | sed 's/\.in$//' | sort -V)
[ ${#names[@]} -ge 3 ] || fail "need at least 3 prefix_sum cases to break one in the middle"
victim=${names[1]}
# The first value of the answer, plus one: a wrong number, same layout.
awk 'NR == 1 { $1 = $1 + 1 } { print }' "$broken/$victim.out" >"$broken/$victim.tmp" &&
  mv "$broken/$victim.tmp" "$broken/$victim.out"
submit broken "PROBLEMS=prefix_sum" "TEST_DIR=$CLUSTER/broken" "EXPORT_DIR=$CLUSTER/export-broken"
[ "$JOB_STATUS" -ne 0 ] || { show_log; fail "broken run exited 0"; }
expect_in_log "^Running test \[$victim\]\.\.\. FAIL \(wrong answer, [0-9.]+s cpu\)\$" \
  "case $victim not reported as a wrong answer"
expect_in_log "^    .*line 1" "the first difference is not shown"
runs=$(grep -c '^Running test \[' "$JOB_LOG")
fails=$(grep -c '^Running test \[.*FAIL' "$JOB_LOG")
[ "$runs" -eq ${#names[@]} ] ||
  { show_log; fail "broken run stopped early: $runs of ${#names[@]} cases ran"; }
[ "$fails" -eq 1 ] || { show_log; fail "broken run: $fails failures, expected 1"; }
expect_in_log "^Passed cases: $((${#names[@]} - 1)) / ${#names[@]}\$" "pass count line wrong"
expect_in_log "^Penalty: 1 failed x 60 s = 60 seconds" "penalty line wrong"
expect_in_log "^FINAL RESULT: FAILED \(1 of ${#names[@]} cases failed\)\$" "no FAILED verdict"
expect_in_log "^Export: skipped: tests failed\$" "export not skipped after a failure"
! grep -q "ALL TESTS PASSED" "$JOB_LOG" || { show_log; fail "broken run claims success"; }
[ ! -e "$CLUSTER/export-broken" ] || fail "broken run exported"
echo "slurm_e2e: broken run OK (case $victim FAIL, all ${#names[@]} cases ran, exit $JOB_STATUS)"
# ---- 3. a contestant's own folders (SOLUTION_DIR): built with their Makefile, judged, no export --
# The green run's exported prefix_sum folder stands in for a contestant's: hipcc builds it (no AMD
# GPU here, so it answers on its CPU path) and its cases run under the grader's rules.
if command -v hipcc >/dev/null && command -v make >/dev/null; then
  folders="$CLUSTER/contestant"
  mkdir -p "$folders" && cp -r "$CLUSTER/export/hip_programming_contest/prefix_sum" "$folders/"
  submit solution "PROBLEMS=prefix_sum" "TEST_DIR=$CASES" "SOLUTION_DIR=$folders" \
    "OFFLOAD_ARCH=gfx908" "HIPFLAGS=--rocm-path=/usr"
  [ "$JOB_STATUS" -eq 0 ] || { show_log; fail "SOLUTION_DIR run exited $JOB_STATUS"; }
  expect_in_log "^-- $folders/prefix_sum: make OFFLOAD_ARCH=gfx908" "the folder was not built by make"
  expect_in_log "^==== prefix_sum \\(CPU backend\\): $BUILD_DIR/solution/prefix_sum/prefix_sum\$" \
    "the cases did not run the contestant's program"
  expect_in_log "^Judged: your programs, built from $folders/<problem> with their Makefiles\$" \
    "the summary does not say whose programs were judged"
  expect_in_log "^Export: not run\$" "a SOLUTION_DIR run exported"
  [ "$(tail -n 3 "$JOB_LOG" | head -n 1)" = "FINAL RESULT: ALL TESTS PASSED!" ] ||
    { show_log; fail "SOLUTION_DIR run does not end with its verdict"; }
  echo "slurm_e2e: SOLUTION_DIR run OK"
else
  echo "slurm_e2e: SOLUTION_DIR run not tested: hipcc or make not found"
fi
echo "slurm_e2e: PASS"
