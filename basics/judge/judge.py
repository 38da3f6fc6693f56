#!/usr/bin/env python3
"""The local LeetGPU judge: checks YOUR solution file of a basics problem as the judge would.

    judge PROBLEM SOLUTION.cu [--timeout S] [--seed S] [--no-bench] [--keep DIR]

(`judge` is build/<preset>/bin/judge, written by CMake for a GPU build; it runs this script with
the build's compiler and paths.) Steps:
  1. compiles SOLUTION.cu the way the judge does (nvcc, C++17; on a HIP build hipcc, with the
     kit's vendor header mapping the CUDA names), the problem's signature force-included from
     basics/PROBLEM/solve.h, so a signature that differs from the judge's is a compile error, into
     a shared library with basics/judge/solution_entry.cu;
  2. runs the official challenge's example, functional and performance cases as the kit records
     them (basics/PROBLEM/reference.cpp), each in its own process with a time limit: inputs fresh,
     outputs filled with poison and then with plausible garbage before two calls, inputs and guard
     bands checked unchanged, every output compared with the CPU reference within the challenge's
     tolerance. A crash, a GPU fault or a hang fails that case with the runtime's message;
  3. times the performance case (events around one solve call from an idle GPU, as the judge does,
     and the GPU time alone), beside the kit's own solution and a copy of the same bytes (or the
     problem's compute limit) in the same run.
Exit status: 0 when every case passes, 1 when one fails, 2 on bad usage or a compile error, 77
when there is no usable GPU.
"""
import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP_EXIT = 77  # no usable GPU, as the GPU tests report it


def fail_usage(message):
    print(f"judge: {message}", file=sys.stderr)
    sys.exit(2)


def load_config(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail_usage(f"cannot read the build's judge configuration {path}: {e}")


def expected_signature(solve_h):
    with open(solve_h) as f:
        text = f.read()
    match = re.search(r'extern "C" void solve\(([^)]*)\);', text)
    return f"extern \"C\" void solve({match.group(1)})" if match else "(see " + solve_h + ")"


def compile_command(config, problem_dir, solution, library):
    root = config["root"]
    solve_h = os.path.join(problem_dir, "solve.h")
    common = ["-std=c++17", "-O3", "-include", solve_h,
              "-I" + os.path.join(root, "common"), "-I" + os.path.join(root, "basics")]
    entry = os.path.join(HERE, "solution_entry.cu")
    if config["backend"] == "HIP":
        archs = [f"--offload-arch={a}" for a in config["architectures"].split(";") if a]
        return ([config["compiler"], "-x", "hip", "-shared", "-fPIC"] + archs +
                ["-I" + os.path.join(HERE, "cuda_on_hip"),
                 "-include", os.path.join(root, "common", "gpu", "vendor.h")] + common +
                [solution, entry, "-o", library])
    archs = []
    for a in config["architectures"].split(";"):
        a = a.strip().split("-")[0]
        if a:
            archs += ["-gencode", f"arch=compute_{a},code=sm_{a}"]
    return ([config["compiler"], "-shared", "-Xcompiler", "-fPIC"] + archs + common +
            [solution, entry, "-o", library])


def build(config, problem, solution, work):
    problem_dir = os.path.join(config["root"], "basics", problem)
    library = os.path.join(work, "solution.so")
    command = compile_command(config, problem_dir, solution, library)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stdout + result.stderr, file=sys.stderr, end="")
        signature = expected_signature(os.path.join(problem_dir, "solve.h"))
        if "solve" in result.stderr and ("conflicting" in result.stderr or
                                         "incompatible" in result.stderr or
                                         "redecl" in result.stderr or
                                         "more than one" in result.stderr):
            print(f"judge: {solution}: solve's signature differs from the judge's; expected\n"
                  f"    {signature}", file=sys.stderr)
        else:
            print(f"judge: {solution} does not compile ({os.path.basename(command[0])}); the "
                  f"judge's signature is\n    {signature}", file=sys.stderr)
        sys.exit(2)
    return library


def last_lines(text, count=3):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return " | ".join(lines[-count:]) if lines else "(no output)"


def run_case(config, problem, library, label, seed, timeout):
    """('passed' | 'FAILED', detail) for one judge case in its own process."""
    command = [config["judge_host"], problem, library, "--case", label, "--seed", str(seed)]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "FAILED", f"did not finish within {timeout:g} s (a hang in solve?)"
    if result.returncode == SKIP_EXIT:
        print(f"judge: {last_lines(result.stdout + result.stderr, 1)}")
        sys.exit(SKIP_EXIT)
    lines = result.stdout.strip().splitlines()
    verdict = next((l for l in reversed(lines) if l.startswith(("PASS ", "FAIL ", "SKIP "))), "")
    if result.returncode == 0 and verdict.startswith("PASS"):
        timing = re.search(r"\(([0-9.]+ s)\)$", verdict)
        return "passed", timing.group(1) if timing else ""
    if verdict.startswith("FAIL"):
        detail = verdict.split(": ", 1)[1] if ": " in verdict else verdict
        return "FAILED", detail
    if result.returncode < 0:
        return "FAILED", f"the process died with signal {-result.returncode}: " + \
            last_lines(result.stderr)
    return "FAILED", f"exit status {result.returncode}: " + last_lines(result.stderr + result.stdout)


def bench_numbers(output):
    """The RESULT fields and the from-idle time of a `--bench` output."""
    numbers = {}
    for line in output.splitlines():
        if line.startswith("RESULT|"):
            f = line.split("|")
            numbers.update(solve_ms=float(f[3]), limit=f[4], limit_ms=float(f[5]), check=f[-1])
        elif line.startswith("FROM_IDLE|"):
            numbers["idle_ms"] = float(line.split("|")[2])
    return numbers


def run_bench(command, timeout):
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"did not finish within {timeout:g} s"
    except OSError as e:
        return None, f"{command[0]} cannot run: {e.strerror}"
    numbers = bench_numbers(result.stdout)
    if "solve_ms" not in numbers:
        return None, f"exit status {result.returncode}: " + last_lines(result.stderr + result.stdout)
    return numbers, ""


def problem_names(root):
    """The basics problems, from their one list (basics/problems.txt)."""
    names = []
    try:
        with open(os.path.join(root, "basics", "problems.txt")) as f:
            for line in f:
                fields = line.split()
                if fields and not fields[0].startswith("#"):
                    names.append(fields[0])
    except OSError:
        pass
    return names


def unknown_problem(name, root):
    """The usage line for a problem name that is not in the list, with the names close to it."""
    names = problem_names(root)
    close = [n for n in names if n.startswith(name) or name.startswith(n)]
    close += [n for n in difflib.get_close_matches(name, names, n=3, cutoff=0.6) if n not in close]
    hint = f"; did you mean {' or '.join(close[:3])}?" if close else ""
    return f"no problem named {name} (basics/problems.txt lists them){hint}"


def kit_program(config, problem):
    """(path, "") of the kit's own program for `problem`, or (None, why it cannot be timed)."""
    path = os.path.join(config["programs"], problem)
    if os.access(path, os.X_OK):
        return path, ""
    return None, (f"the kit's program {path} is not built (cmake --build <build> --target "
                  f"basics_{problem})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", required=True, help=argparse.SUPPRESS)
    parser.add_argument("problem", help="a basics problem (basics/problems.txt)")
    parser.add_argument("solution", help="your .cu file defining the judge's extern \"C\" solve")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per case (120)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generated inputs (1)")
    parser.add_argument("--no-bench", action="store_true", help="skip the timing")
    parser.add_argument("--only", metavar="REGEX", help="run only the cases whose label matches")
    parser.add_argument("--keep", metavar="DIR", help="keep the built library in DIR")
    parser.add_argument("--compile-only", action="store_true",
                        help="only build the library (no GPU needed)")
    args = parser.parse_args()
    config = load_config(args.config)
    if args.problem not in problem_names(config["root"]):
        fail_usage(unknown_problem(args.problem, config["root"]))
    if not os.path.isfile(args.solution):
        fail_usage(f"no such file: {args.solution}")
    solution = os.path.abspath(args.solution)

    work = tempfile.mkdtemp(prefix="kit-judge-")
    try:
        library = build(config, args.problem, solution, work)
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            shutil.copy(library, args.keep)
        if args.compile_only:
            print(f"judge: {args.solution} compiles for {args.problem} ({config['backend']} "
                  f"{config['architectures']})")
            return 0
        listing = subprocess.run([config["judge_host"], args.problem, library, "--list"],
                                 capture_output=True, text=True)
        labels = listing.stdout.strip().splitlines()
        if listing.returncode != 0 or not labels:
            fail_usage(f"cannot list the cases of {args.problem}: " + last_lines(listing.stderr))
        if args.only:
            labels = [l for l in labels if re.search(args.only, l)]
            if not labels:
                fail_usage(f"no case of {args.problem} matches --only {args.only}")
        print(f"judge: {args.problem}, {args.solution} ({config['backend']} "
              f"{config['architectures']}), seed {args.seed}")
        width = max(len(l) for l in labels)
        failed = 0
        for label in labels:
            verdict, detail = run_case(config, args.problem, library, label, args.seed,
                                       args.timeout)
            failed += verdict != "passed"
            print(f"  {label:<{width}}  {verdict}" + (f": {detail}" if verdict != "passed"
                                                     else f" ({detail})" if detail else ""))
        passed = len(labels) - failed
        if not args.no_bench and failed == 0:
            bench_timeout = max(args.timeout, 600)
            mine, why = run_bench([config["judge_host"], args.problem, library, "--bench", "--seed",
                                   str(args.seed)], bench_timeout)
            program, kit_why = kit_program(config, args.problem)
            kit = None
            if program:
                kit, kit_why = run_bench([program, "--bench", "--seed", str(args.seed)],
                                         bench_timeout)
            print("time of the performance case (median; L2 flushed before each call):")
            if not mine:
                print(f"  your solve: not timed: {why}")
            else:
                print(f"  your solve:  {mine['idle_ms']:.4f} ms as the judge times it (one call "
                      f"from an idle GPU, launch included), {mine['solve_ms']:.4f} ms GPU time")
                if kit:
                    print(f"  kit's solve: {kit['idle_ms']:.4f} ms as the judge times it, "
                          f"{kit['solve_ms']:.4f} ms GPU time: yours takes "
                          f"{mine['solve_ms'] / kit['solve_ms']:.2f}x the kit's GPU time")
                else:
                    print(f"  kit's solve: not timed: {kit_why}")
                print(f"  limit: {mine['limit']} {mine['limit_ms']:.4f} ms: yours reaches "
                      f"{100 * mine['limit_ms'] / mine['solve_ms']:.1f}% of it")
        print(f"verdict: {passed} of {len(labels)} cases passed: "
              + ("ACCEPTED" if failed == 0 else "REJECTED"))
        return 0 if failed == 0 else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
