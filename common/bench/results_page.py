#!/usr/bin/env python3
"""Writes one GPU's results page, docs/results/<gpu>.md, from the sections of a device run.

    results_page.py PAGE --title TITLE [--line TEXT ...] [--order KEY,KEY,...]
                    --entry KEY DATE COMMIT BACKEND COMMAND SECTION_FILE [--entry ...]

The page holds one section per key (a suite of common/bench/device_run.sh, or another script's
results), each headed `## KEY`, and a table at the top naming, once per section, the date, commit,
backend and command that produced it. Every --entry replaces its key's row and section (the
section's text is read from SECTION_FILE); the rows and sections of keys not given are kept as
they are, so a run of some suites leaves the others' latest results in place. The title and the
--line bullets (the GPU, its driver) are the latest run's. Keys named by --order come first, in
that order, then the others in the order the old page had them. A `## ` line inside a fenced
block, or naming no key of the table, never starts a section.
"""

import argparse
import os
import sys

TABLE_HEADER = "| section | date | commit | backend | command |"
INTRO = (
    "The latest results on this GPU, one section each. `common/bench/device_run.sh` rewrites\n"
    "this page: it replaces the sections of the suites it runs and keeps the others. The table\n"
    "names the run behind each section; the bullets describe the GPU at the latest run."
)


def table_cell(text):
    return text.replace("|", "\\|").replace("\n", " ").strip()


def parse_page(text):
    """(rows, sections, order): the table's rows by key, the sections' text by key, key order."""
    lines = text.splitlines()
    rows, order = {}, []
    i = 0
    while i < len(lines) and lines[i].strip() != TABLE_HEADER:
        i += 1
    i += 2  # the header and its separator
    while i < len(lines) and lines[i].startswith("|"):
        cells = [c.strip() for c in lines[i].strip().strip("|").split(" | ")]
        if cells and cells[0]:
            rows[cells[0]] = lines[i]
            order.append(cells[0])
        i += 1
    sections, key, body, fenced = {}, None, [], False
    for line in lines[i:]:
        if line.startswith("```"):
            fenced = not fenced
        heading = line[3:].strip() if line.startswith("## ") and not fenced else None
        if heading in rows:
            if key is not None:
                sections[key] = "\n".join(body).strip("\n")
            key, body = heading, []
        elif key is not None:
            body.append(line)
    if key is not None:
        sections[key] = "\n".join(body).strip("\n")
    return rows, sections, order


def render(title, bullets, rows, sections, order):
    out = [f"# {title}", "", INTRO, ""]
    out += [f"- {b}" for b in bullets]
    if bullets:
        out.append("")
    out += [TABLE_HEADER, "|---|---|---|---|---|"]
    out += [rows[k] for k in order]
    for k in order:
        out += ["", f"## {k}", ""]
        if sections.get(k):
            out.append(sections[k])
    return "\n".join(out) + "\n"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("page")
    p.add_argument("--title", required=True)
    p.add_argument("--line", action="append", default=[], help="a bullet under the title")
    p.add_argument("--order", default="", help="comma-separated keys that come first")
    p.add_argument("--entry", nargs=6, action="append", default=[],
                   metavar=("KEY", "DATE", "COMMIT", "BACKEND", "COMMAND", "SECTION_FILE"))
    args = p.parse_args(argv)

    rows, sections, old_order = {}, {}, []
    if os.path.exists(args.page):
        with open(args.page, encoding="utf-8") as f:
            rows, sections, old_order = parse_page(f.read())
    for key, date, commit, backend, command, section_file in args.entry:
        if not key or "|" in key or key != key.strip():
            p.error(f"--entry key {key!r}: non-empty, no '|', no surrounding spaces")
        with open(section_file, encoding="utf-8") as f:
            sections[key] = f.read().strip("\n")
        cells = [key, date, commit, backend, f"`{command}`"]
        rows[key] = "| " + " | ".join(table_cell(c) for c in cells) + " |"
        if key not in old_order:
            old_order.append(key)
    first = [k for k in args.order.split(",") if k in rows]
    order = first + [k for k in old_order if k not in first]

    text = render(args.title, args.line, rows, sections, order)
    tmp = args.page + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, args.page)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
