#!/usr/bin/env python3
"""Before/after: the same benchmarks from two builds of the kit, run alternately on one GPU.

  compare_builds.py BEFORE_BUILD AFTER_BUILD [--out DIR] [--basics NAME,...] [--contest NAME,...]

For each benchmark (bench_<problem> of the contest problems, bin/basics/<name> --bench of the
LeetGPU problems) it runs the BEFORE build's binary, then the AFTER build's, and pairs the rows of
every Markdown table both print by their leading text cells (the cells before the first timing
column): a row's time is its first column whose header names milliseconds ("ms", "solve (ms)").
It prints one table: benchmark, row, time before and after, after/before, and for the basics rows
the share of the same-run limit (copy or read bandwidth) each build reached, so that a difference
in the GPU's state between the two runs shows in the limit too. Full outputs go to --out.
Exit status 0 when every benchmark ran in both builds, 1 otherwise.
"""

import argparse
import os
import subprocess
import sys

CONTEST = ("prefix_sum", "softmax", "apsp")


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def tables(text):
    """Yields (header, rows) for every Markdown table in text."""
    lines = text.splitlines()
    i = 0
    while i + 1 < len(lines):
        if lines[i].startswith("|") and lines[i + 1].startswith("|---"):
            header = cells(lines[i])
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            yield header, rows
        else:
            i += 1


def timed_rows(text):
    """{key: (ms, share)}: rows of tables with a milliseconds column."""
    out = {}
    for header, rows in tables(text):
        ms_col = next((k for k, h in enumerate(header) if h == "ms" or h.endswith("(ms)")), None)
        if ms_col is None:
            continue
        share_col = next((k for k, h in enumerate(header) if h == "% of limit"), None)
        for row in rows:
            if len(row) <= ms_col:
                continue
            try:
                ms = float(row[ms_col])
            except ValueError:
                continue
            key = " | ".join(c for c in row[:ms_col] if c and c.lower() != "grid")
            share = row[share_col] if share_col is not None and len(row) > share_col else ""
            out.setdefault(key, (ms, share))
    return out


def run(command, log):
    with open(log, "w") as f:
        result = subprocess.run(command, stdout=f, stderr=subprocess.STDOUT, timeout=900)
    with open(log) as f:
        return result.returncode, f.read()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--out", default="compare_builds_logs")
    parser.add_argument("--basics", help="LeetGPU problems (default: every one both builds have)")
    parser.add_argument("--contest", default=",".join(CONTEST), help="contest benchmarks")
    parser.add_argument("--contest-args", default="", help="extra arguments, e.g. --sizes 1e6")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)

    benches = []
    for name in filter(None, args.contest.split(",")):
        benches.append((name, ["bin/bench_" + name] + args.contest_args.split()))
    if args.basics is not None:
        basics = list(filter(None, args.basics.split(",")))
    else:
        have = [set(os.listdir(os.path.join(b, "bin", "basics"))) for b in (args.before, args.after)
                if os.path.isdir(os.path.join(b, "bin", "basics"))]
        basics = sorted(set.intersection(*have)) if len(have) == 2 else []
    for name in basics:
        benches.append((name, ["bin/basics/" + name, "--bench"]))

    ok = True
    print("| benchmark | row | before (ms) | after (ms) | after / before | before: % of limit "
          "| after: % of limit |")
    print("|---|---|---|---|---|---|---|")
    for name, command in benches:
        results = []
        for label, build in (("before", args.before), ("after", args.after)):
            binary = os.path.join(build, command[0])
            if not os.access(binary, os.X_OK):
                print(f"| {name} | {label} build has no {command[0]} | | | | | |")
                ok = False
                results.append(None)
                continue
            rc, text = run([binary] + command[1:], os.path.join(args.out, f"{name}.{label}.log"))
            if rc != 0:
                print(f"| {name} | {label} build: exit {rc} | | | | | |")
                ok = False
            results.append(timed_rows(text))
        if None in results:
            continue
        before, after = results
        for key, (ms, share) in after.items():
            if key not in before:
                continue
            old_ms, old_share = before[key]
            ratio = f"{ms / old_ms:.3f}" if old_ms > 0 else "-"
            print(f"| {name} | {key} | {old_ms:.4f} | {ms:.4f} | {ratio} | {old_share} | {share} |")
        sys.stdout.flush()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
