#!/usr/bin/env python3
"""basics/README.md's table of the LeetGPU problems, generated from the one problem list.

  problem_table.py            rewrites the table in basics/README.md
  problem_table.py --check    exits 1 with one line when basics/README.md differs from what
                              this script would write (the test basics_problem_table_test)
  --root DIR                  the kit's folder (default: the folder above this script's)

The table sits between the lines `<!-- problem-table:begin -->` and `<!-- problem-table:end -->`
of basics/README.md; the rest of the file is left alone. One row per line of basics/problems.txt,
in its order, each column from the one place the repository holds it:

  problem    the name in basics/problems.txt, linked to its folder basics/<name>/;
  level      the challenge's tier, from `j.challenge = "challenges/<tier>/<id>_<name>"` in
             basics/<name>/reference.cpp;
  signature  the parameters of `extern "C" void solve(...)` in basics/<name>/solve.h (the header
             the build force-includes into kernel.cu), written `type* name`;
  tolerance  the judge's `j.tolerance = {atol, rtol}` in reference.cpp, one number when both are
             equal; "exact" when both are 0 or when every array solve writes (a pointer without
             const in solve.h) holds integers, which the harness compares exactly
             (basics/harness/compare.cpp), and "(integers exact)" after it when only some do.

Above the table, a line counts the problems by tier. tools/new_problem.py runs this script
after it appends a problem to basics/problems.txt. Exit status: 0 done (or, with --check, the
README matches), 1 the README differs or lacks the markers, 2 a problem's files cannot be read
(one line on stderr naming the file).
"""

import argparse
import os
import re
import sys

BEGIN = "<!-- problem-table:begin -->"
END = "<!-- problem-table:end -->"
TIERS = ("easy", "medium", "hard")
INTEGER_TYPES = {"int", "unsigned int", "unsigned", "unsigned char", "signed char", "int8_t",
                 "std::int8_t", "uint8_t", "std::uint8_t"}

SOLVE = re.compile(r'extern\s+"C"\s+void\s+solve\s*\(([^)]*)\)\s*;')
PARAMETER = re.compile(r"^(const\s+)?([A-Za-z_][\w:]*(?:\s+[A-Za-z_][\w:]*)*?)\s*(\*?)\s*"
                       r"([A-Za-z_]\w*)$")
CHALLENGE = re.compile(r'j\.challenge\s*=\s*"([^"]*)"')
TOLERANCE = re.compile(r"j\.tolerance\s*=\s*\{\s*([^,}]+?)\s*,\s*([^,}]+?)\s*\}")


class TableError(Exception):
    """A problem's files cannot be read (exit 2)."""


class MarkerError(TableError):
    """The README lacks the table's markers (exit 1)."""


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise TableError(f"{path}: {e.strerror}") from None


def problems(root):
    """The names in basics/problems.txt, in order."""
    names = []
    for line in read(os.path.join(root, "basics", "problems.txt")).splitlines():
        if line.strip() and not line.startswith("#"):
            names.append(line.split()[0])
    return names


def signature(root, name):
    """solve's parameters as (text, written arrays' element types)."""
    path = f"basics/{name}/solve.h"
    match = SOLVE.search(read(os.path.join(root, path)))
    if not match:
        raise TableError(f'{path}: no `extern "C" void solve(...);`')
    parts, written = [], []
    for raw in match.group(1).split(","):
        text = " ".join(raw.split())
        param = PARAMETER.match(text)
        if not param:
            raise TableError(f"{path}: cannot read the parameter '{text}'")
        const, type_, star, pname = param.groups()
        parts.append(f"{const or ''}{type_}{star} {pname}")
        if star and not const:
            written.append(type_)
    return ", ".join(parts), written


def number(text, path):
    try:
        return float(text.rstrip("fF"))
    except ValueError:
        raise TableError(f"{path}: the tolerance '{text}' is not a number") from None


def judge_facts(root, name, written):
    """(tier, tolerance text) from reference.cpp."""
    path = f"basics/{name}/reference.cpp"
    source = read(os.path.join(root, path))
    challenge = CHALLENGE.search(source)
    tolerance = TOLERANCE.search(source)
    if not challenge or not tolerance:
        missing = "j.challenge" if not challenge else "j.tolerance"
        raise TableError(f"{path}: no literal `{missing} = ...`")
    tier = challenge.group(1).split("/")
    tier = tier[1] if len(tier) > 2 and tier[0] == "challenges" and tier[1] in TIERS else "-"
    atol_text, rtol_text = tolerance.group(1), tolerance.group(2)
    atol, rtol = number(atol_text, path), number(rtol_text, path)
    integers = [t in INTEGER_TYPES for t in written]
    if (integers and all(integers)) or (atol == 0 and rtol == 0):
        return tier, "exact"
    text = atol_text if atol == rtol else f"{atol_text} abs, {rtol_text} rel"
    if any(integers):
        text += " (integers exact)"
    return tier, text


def table(root):
    """The lines between the markers."""
    rows, tiers = [], {t: 0 for t in TIERS}
    for name in problems(root):
        params, written = signature(root, name)
        tier, tolerance = judge_facts(root, name, written)
        tiers[tier] = tiers.get(tier, 0) + 1
        rows.append(f"| [{name}]({name}/) | {tier} | `{params}` | {tolerance} |")
    counts = ", ".join(f"{tiers[t]} {t}" if t in TIERS else f"{tiers[t]} of no tier"
                       for t in tiers if tiers[t])
    return [
        "<!-- Generated by tools/problem_table.py from basics/problems.txt, each problem's solve.h",
        "     and reference.cpp: edit those and run the script (ctest checks the two agree). -->",
        "",
        f"{len(rows)} problems ({counts}), in the order of `problems.txt`:",
        "",
        "| problem | level | `solve` parameters (device pointers) | judge's tolerance |",
        "|---|---|---|---|",
        *rows,
    ]


def render(root, text):
    """The README's text with the table regenerated."""
    lines = text.split("\n")
    if lines.count(BEGIN) != 1 or lines.count(END) != 1 or lines.index(BEGIN) > lines.index(END):
        raise MarkerError(f"basics/README.md: expected one '{BEGIN}' line and one '{END}' "
                         "line after it")
    begin, end = lines.index(BEGIN), lines.index(END)
    return "\n".join(lines[:begin + 1] + table(root) + lines[end:])


def update(root, check=False):
    """Rewrites (or with check, compares) the table; returns the exit status."""
    readme = os.path.join(root, "basics", "README.md")
    try:
        text = read(readme)
        wanted = render(root, text)
    except TableError as e:
        print(f"problem_table: {e}", file=sys.stderr)
        return 1 if isinstance(e, MarkerError) else 2
    if check:
        if text != wanted:
            print("problem_table: basics/README.md's problem table differs from basics/"
                  "problems.txt and the problems' solve.h and reference.cpp: run "
                  "python3 tools/problem_table.py", file=sys.stderr)
            return 1
        return 0
    if text != wanted:
        with open(readme, "w", encoding="utf-8") as f:
            f.write(wanted)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when basics/README.md differs from what would be written")
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(
        __file__))), help="the kit's folder")
    args = parser.parse_args()
    return update(os.path.abspath(args.root), args.check)


if __name__ == "__main__":
    sys.exit(main())
