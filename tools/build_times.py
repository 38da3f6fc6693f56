#!/usr/bin/env python3
"""Where a build's compile time went, from Ninja's own log (<build dir>/.ninja_log).

  build_times.py BUILD_DIR [--top N]

Prints the build's wall time (first start to last end), the summed time of its steps, and the N
slowest CMake targets by summed step time (each target's object files, its link, and the share of
the total), then the N slowest single steps. A step's target is read from its output path
(`<dir>/CMakeFiles/<target>.dir/...`); outputs outside a target (links, custom commands) are
listed by their own path. Only the newest entry of each output counts, as Ninja keeps the log
across builds.
"""

import argparse
import os
import re
import signal
import sys

TARGET_DIR = re.compile(r"(?:^|/)CMakeFiles/([^/]+)\.dir/")


def read_log(path):
    """{output: (start_ms, end_ms)}, the newest entry of each output (later lines win); a step
    with several outputs (the same times and command hash) is kept under its first output."""
    steps, seen = {}, {}
    with open(path, encoding="utf-8") as log:
        header = log.readline()
        if not header.startswith("# ninja log v"):
            raise ValueError(f"{path}:1: expected '# ninja log v<N>', found {header.strip()!r}")
        for number, line in enumerate(log, start=2):
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 4:
                raise ValueError(f"{path}:{number}: expected 5 tab-separated fields")
            start, end, output = int(fields[0]), int(fields[1]), fields[3]
            step = (start, end, fields[4] if len(fields) > 4 else output)
            if seen.setdefault(step, output) == output:
                steps[output] = (start, end)
    return steps


def target_of(output):
    match = TARGET_DIR.search(output)
    return match.group(1) if match else output


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output, not in a traceback
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--top", type=int, default=25, help="rows of each table (default 25)")
    args = parser.parse_args()
    path = os.path.join(args.build_dir, ".ninja_log")
    try:
        steps = read_log(path)
    except (OSError, ValueError) as error:
        print(f"build_times: {error}", file=sys.stderr)
        return 2
    if not steps:
        print(f"build_times: {path}: no steps", file=sys.stderr)
        return 2
    wall = (max(e for _, e in steps.values()) - min(s for s, _ in steps.values())) / 1000
    total = sum(e - s for s, e in steps.values()) / 1000
    targets = {}
    for output, (start, end) in steps.items():
        seconds, count = targets.get(target_of(output), (0.0, 0))
        targets[target_of(output)] = (seconds + (end - start) / 1000, count + 1)
    print(f"{args.build_dir}: {len(steps)} steps, {total:.0f} s of steps in {wall:.0f} s of wall "
          f"time ({total / wall:.2f} steps at a time)")
    print(f"\n  {'target':54} {'steps':>5} {'seconds':>8} {'share':>6}")
    for name, (seconds, count) in sorted(targets.items(), key=lambda t: -t[1][0])[:args.top]:
        print(f"  {name[:54]:54} {count:5} {seconds:8.1f} {100 * seconds / total:5.1f}%")
    print(f"\n  {'slowest steps':63} {'seconds':>8}")
    for output, (start, end) in sorted(steps.items(), key=lambda s: s[1][0] - s[1][1])[:args.top]:
        print(f"  {output[-63:]:63} {(end - start) / 1000:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
