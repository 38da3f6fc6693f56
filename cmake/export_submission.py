#!/usr/bin/env python3
"""Exports the kit's GPU solutions as self-contained submissions.

  <out>/hip_programming_contest/<problem>/  main.cpp, main.h, kernel.hip, Makefile
      for every contest problem whose program declares GPU sources (its kernel exists);
      `make` builds ./<problem> with plain hipcc, like the contest's own skeleton.
  <out>/leetgpu/<name>.cu
      for every <leetgpu-dir>/<name>/kernel.cu: one file holding the judge's `solve`.

Nothing here is a hand-maintained copy. What a program is made of (main, host, kernel and
library sources, include directories, compile definitions) comes from the manifest CMake writes
at configure time (<build>/kit_programs.json, see cmake/KitExport.cmake); the files are generated
by inlining every project header they include (quoted includes, and angle includes that resolve
inside a project include directory), each under an include guard so that #pragma once semantics
survive concatenation.

Usage: export_submission.py --manifest <build>/kit_programs.json [--out DIR] [--leetgpu-dir DIR]
Exit status 0 on success, 2 on any error (one line on stderr naming the file and the problem).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

CONTEST_FOLDER = "hip_programming_contest"
LEETGPU_FOLDER = "leetgpu"
# The file that marks a directory as an export target, so that clearing stale output can never
# delete a folder the exporter did not create (e.g. a real contest folder passed by mistake).
MARKER = ".kit-export"
SOLVE_HEADER = "solve.h"  # a contest problem's entry-point header, exported as main.h
HOST_EXTENSIONS = (".cpp", ".cc", ".cxx", ".c")
KERNEL_EXTENSIONS = (".cu", ".hip")

DIRECTIVE = re.compile(r"^\s*#\s*(\w+)\s*(.*)$")
INCLUDE_TARGET = re.compile(r'^(?:"([^"]+)"|<([^>]+)>)')


class ExportError(Exception):
    pass


def strip_comments_state(line, in_block):
    """Returns (code, in_block): the line without comments, and whether a block comment is still
    open at its end. String and character literals are honoured so that "/*" in a string does not
    open a comment."""
    code = []
    i, n = 0, len(line)
    while i < n:
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(code), True
            i = end + 2
            in_block = False
            code.append(" ")
            continue
        c = line[i]
        if c in "\"'":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            code.append(line[i : j + 1])
            i = j + 1
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            in_block = True
            i += 2
        else:
            code.append(c)
            i += 1
    return "".join(code), in_block


class Inliner:
    """Expands project includes recursively into one text.

    A header is inlined under a generated guard. Once it has been inlined outside any #if, its
    guard is certainly defined, so later includes of it are dropped from the text; inside an #if
    the guard might not be, so a later include inlines it again (the guard keeps that correct).
    `substitutions` maps a header to the include line that replaces it (a contest problem's
    solve.h becomes `#include "main.h"`), with the headers that line brings in."""

    def __init__(self, root, include_dirs, substitutions=None):
        self.root = root
        self.include_dirs = [d for d in include_dirs if os.path.isdir(d)]
        self.substitutions = substitutions or {}
        self.defined = set()  # headers whose guard is certainly defined at this point
        self.active = []  # headers being expanded (include cycles)
        self.used = []  # every project file inlined, in order

    def rel(self, path):
        return os.path.relpath(path, self.root)

    def guard(self, path):
        return "KIT_INLINED_" + re.sub(r"[^A-Za-z0-9]", "_", self.rel(path)).upper()

    def resolve(self, name, quoted, including_file):
        dirs = ([os.path.dirname(including_file)] if quoted else []) + self.include_dirs
        for d in dirs:
            candidate = os.path.realpath(os.path.join(d, name))
            if os.path.isfile(candidate):
                return candidate
        return None

    def source(self, path):
        """The text of a top-level source file (a .cpp or .cu) with its project includes
        inlined."""
        path = os.path.realpath(path)
        self.used.append(path)
        lines = [f"// ======== {self.rel(path)} ========"]
        lines += self._expand(path, conditional=False, is_header=False)
        return "\n".join(lines) + "\n"

    def header(self, path):
        """A header's text, guarded, with its includes inlined (used for main.h)."""
        return "\n".join(self._inline_header(os.path.realpath(path), conditional=False)) + "\n"

    def _inline_header(self, path, conditional):
        self.used.append(path)
        guard = self.guard(path)
        if not conditional:
            self.defined.add(path)
        self.active.append(path)
        body = self._expand(path, conditional, is_header=True)
        self.active.pop()
        return (
            [f"// ---- begin {self.rel(path)} (inlined) ----"]
            + [f"#ifndef {guard}", f"#define {guard}"]
            + body
            + [f"#endif // {guard}", f"// ---- end {self.rel(path)} ----"]
        )

    def _expand(self, path, conditional, is_header):
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise ExportError(f"{path}: cannot read: {e.strerror}")
        out = []
        depth = 0  # #if nesting inside this file
        in_block = False
        for number, line in enumerate(text.splitlines(), start=1):
            started_in_block = in_block
            code, in_block = strip_comments_state(line, in_block)
            match = None if started_in_block else DIRECTIVE.match(code)
            if not match:
                out.append(line)
                continue
            keyword, rest = match.group(1), match.group(2).strip()
            if keyword in ("if", "ifdef", "ifndef"):
                depth += 1
            elif keyword == "endif":
                depth -= 1
            elif keyword == "pragma" and rest == "once" and is_header:
                continue  # replaced by the generated guard
            elif keyword == "include":
                out.extend(self._include(path, number, line, rest, conditional or depth > 0))
                continue
            out.append(line)
        return out

    def _include(self, path, number, line, rest, conditional):
        target = INCLUDE_TARGET.match(rest)
        if not target:
            raise ExportError(f"{path}:{number}: cannot parse include directive: {line.strip()}")
        quoted = target.group(1) is not None
        name = target.group(1) or target.group(2)
        resolved = self.resolve(name, quoted, path)
        if resolved is None:
            if quoted:
                raise ExportError(
                    f'{path}:{number}: "{name}" not found next to the file or in the include '
                    f"directories {self.include_dirs}: an exported file must be self-contained"
                )
            return [line]  # a system header
        if resolved in self.substitutions:
            replacement, covered = self.substitutions[resolved]
            if resolved in self.defined:
                return []
            if not conditional:
                self.defined.update(covered)
                self.defined.add(resolved)
            return [replacement]
        if resolved in self.active or resolved in self.defined:
            return [f"// {name}: inlined above"]
        return self._inline_header(resolved, conditional)


def git_revision(root, files):
    """Short commit of the source tree, with '+local changes' when any exported file differs
    from it; empty when git is unavailable."""
    try:
        head = subprocess.run(
            ["git", "-C", root, "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=20, check=True,
        ).stdout.strip()
        rel = [os.path.relpath(f, root) for f in files]
        status = subprocess.run(
            ["git", "-C", root, "status", "--porcelain", "--"] + rel,
            capture_output=True, text=True, timeout=20, check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return head + (" + local changes" if status else "")


def definitions_block(definitions):
    """#define lines for the program's compile definitions, as the CMake build passes them,
    with the backend pinned to HIP (the contest's) and without a testing persona."""
    lines = ["#define KIT_BACKEND_HIP 1"]
    for d in definitions:
        name, _, value = d.partition("=")
        if name.startswith(("KIT_BACKEND_", "KIT_PERSONA_")) or "$<" in d:
            continue
        lines.append(f"#define {name} {value if value else 1}")
    return lines


def banner(title, sources, revision, root):
    """The generated file's opening comment, wrapped to the kit's 100 columns."""
    text = (
        "Generated by cmake/export_submission.py from the kit's sources"
        + (f" (git {revision})" if revision else "")
        + ". Do not edit here: change the kit and export again. Sources: "
        + ", ".join(os.path.relpath(s, root) for s in sources)
        + "."
    )
    return [f"// {title}"] + [
        "// " + line for line in textwrap.wrap(text, width=97, break_on_hyphens=False)
    ]


def is_contest_program(program, root):
    """A contest problem lives in <root>/<name>/ next to its solve.h and has a GPU kernel."""
    source_dir = os.path.realpath(program["source_dir"])
    return (
        source_dir == os.path.join(os.path.realpath(root), program["name"])
        and os.path.isfile(os.path.join(source_dir, SOLVE_HEADER))
        and any(s.endswith(KERNEL_EXTENSIONS) for s in program["gpu_sources"])
    )


def makefile(name, main_units, kernel_units, link_libraries):
    libs = " ".join(["-pthread"] + [f"-l{lib}" for lib in link_libraries])
    objects = " ".join(
        [f"main_{k}.o" for k in range(1, main_units + 1)]
        + [f"kernel_{k}.o" for k in range(1, kernel_units + 1)]
    )
    return f"""\
# {name}: generated by the kit's exporter (cmake/export_submission.py). The grader runs
# `make clean; make` here and then ./{name} <input_file>.
#   make                        hipcc targets the GPU it detects, like the official Makefile
#   make OFFLOAD_ARCH=gfx908    cross-compile for a given GPU (adds --offload-arch)
#   make HIPFLAGS="..."         extra hipcc flags, e.g. for Debian's packaged ROCm:
#       --rocm-path=/usr --hip-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
# main.cpp holds {main_units} translation unit(s) and kernel.hip {kernel_units}, one per kit source
# file, as the kit builds them (each keeps its own internal names); -DKIT_UNIT=<n> selects one.
HIPCC ?= hipcc
OFFLOAD_ARCH ?=
HIPFLAGS ?=
FLAGS := -O3 -DNDEBUG -std=c++17 $(if $(OFFLOAD_ARCH),--offload-arch=$(OFFLOAD_ARCH))
OBJECTS := {objects}

{name}: $(OBJECTS)
\t$(HIPCC) $(FLAGS) $(HIPFLAGS) $(OBJECTS) -o $@ {libs}

main_%.o: main.cpp main.h
\t$(HIPCC) $(FLAGS) $(HIPFLAGS) -DKIT_UNIT=$* -c main.cpp -o $@

kernel_%.o: kernel.hip main.h
\t$(HIPCC) $(FLAGS) $(HIPFLAGS) -DKIT_UNIT=$* -c kernel.hip -o $@

.PHONY: clean
clean:
\trm -f {name} main_*.o kernel_*.o
"""


def unit_file(units, filename):
    """One file holding several translation units, each compiled alone with -DKIT_UNIT=<n>.
    Concatenating the kit's sources into one unit would clash as soon as two of them have an
    internal name in common (each .cu's anonymous-namespace kThreads, say)."""
    if len(units) == 1:
        return units[0]
    count = len(units)
    parts = [
        f"#if !defined(KIT_UNIT) || KIT_UNIT < 1 || KIT_UNIT > {count}",
        f'#error "{filename} holds {count} translation units: compile it with -DKIT_UNIT=1..{count}'
        ' (see the Makefile)"',
        "#endif",
    ]
    for k, text in enumerate(units, start=1):
        parts += [f"#if KIT_UNIT == {k}", text.rstrip("\n"), f"#endif // KIT_UNIT == {k}"]
    return "\n".join(parts) + "\n"


def export_contest_program(program, root, out_dir):
    name = program["name"]
    source_dir = os.path.realpath(program["source_dir"])
    include_dirs = [source_dir] + program["include_dirs"]
    solve_header = os.path.join(source_dir, SOLVE_HEADER)

    header_inliner = Inliner(root, include_dirs)
    main_h = header_inliner.header(solve_header)
    covered = set(header_inliner.used)
    substitutions = {solve_header: ('#include "main.h"', covered)}

    libraries = program["library_sources"]
    host_sources = program["host_sources"] + [s for s in libraries if s.endswith(HOST_EXTENSIONS)]
    kernel_sources = program["gpu_sources"] + [
        s for s in libraries if s.endswith(KERNEL_EXTENSIONS)
    ]
    for s in host_sources + kernel_sources:
        if not os.path.isfile(s):
            raise ExportError(f"{s}: listed for {name} in the manifest but missing")

    files = {}
    used = set(covered)
    for filename, sources in (("main.cpp", host_sources), ("kernel.hip", kernel_sources)):
        units = []
        for source in sources:
            inliner = Inliner(root, include_dirs, substitutions)
            units.append(inliner.source(source))
            used.update(inliner.used)
        files[filename] = (sources, unit_file(units, filename))
    revision = git_revision(root, sorted(used))

    definitions = definitions_block(program["compile_definitions"])
    folder = os.path.join(out_dir, CONTEST_FOLDER, name)
    os.makedirs(folder, exist_ok=True)
    for filename, (sources, body) in files.items():
        title = f"{name}/{filename} for the HIP programming contest"
        text = "\n".join(banner(title, sources, revision, root) + definitions) + "\n\n" + body
        write(os.path.join(folder, filename), text)
    main_h_title = f"{name}/main.h: the entry point of {name}"
    write(
        os.path.join(folder, "main.h"),
        "\n".join(banner(main_h_title, [solve_header], revision, root)) + "\n" + main_h,
    )
    text = makefile(name, len(host_sources), len(kernel_sources), program["link_libraries"])
    write(os.path.join(folder, "Makefile"), text)
    return folder


def export_leetgpu(kernel, name, root, include_dirs, out_dir):
    inliner = Inliner(root, include_dirs)
    body = inliner.source(kernel)
    if not re.search(r'extern\s+"C"\s+void\s+solve\s*\(', body):
        raise ExportError(f'{kernel}: no extern "C" void solve(...): not a LeetGPU solution')
    revision = git_revision(root, inliner.used)
    title = f"{name} for LeetGPU: paste this whole file (solve takes DEVICE pointers)"
    path = os.path.join(out_dir, LEETGPU_FOLDER, f"{name}.cu")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    write(path, "\n".join(banner(title, [kernel], revision, root)) + "\n\n" + body)
    return path


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def prepare_output(out_dir):
    """Clears the generated folders of a previous export, but only in a directory the exporter
    created (it holds MARKER) or an empty/new one."""
    if os.path.isdir(out_dir) and os.listdir(out_dir):
        if not os.path.isfile(os.path.join(out_dir, MARKER)):
            raise ExportError(
                f"{out_dir}: exists, is not empty and was not created by the exporter "
                f"(no {MARKER}); choose another --out"
            )
    os.makedirs(out_dir, exist_ok=True)
    write(os.path.join(out_dir, MARKER), "Written by cmake/export_submission.py; safe to delete.\n")
    for sub in (CONTEST_FOLDER, LEETGPU_FOLDER):
        shutil.rmtree(os.path.join(out_dir, sub), ignore_errors=True)


def load_manifest(path):
    try:
        with open(path, encoding="utf-8") as f:
            manifest = json.load(f)
    except OSError as e:
        raise ExportError(
            f"{path}: cannot read the manifest: {e.strerror} (configure with CMake first)"
        )
    except json.JSONDecodeError as e:
        raise ExportError(f"{path}: line {e.lineno}: invalid JSON: {e.msg}")
    if manifest.get("version") != 1 or "programs" not in manifest:
        raise ExportError(f"{path}: not a kit program manifest (version 1 expected)")
    return manifest


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--manifest", required=True, help="<build>/kit_programs.json")
    parser.add_argument("--out", help="output directory (default: <source root>/submission)")
    parser.add_argument(
        "--leetgpu-dir",
        help="folder whose <name>/kernel.cu are LeetGPU solutions (default: <source root>/basics)",
    )
    args = parser.parse_args(argv)
    try:
        manifest = load_manifest(args.manifest)
        root = os.path.realpath(manifest["source_root"])
        out_dir = os.path.realpath(args.out or os.path.join(root, "submission"))
        leetgpu_dir = args.leetgpu_dir or os.path.join(root, "basics")
        prepare_output(out_dir)

        exported = 0
        for program in manifest["programs"]:
            if is_contest_program(program, root):
                folder = export_contest_program(program, root, out_dir)
                print(f"contest: {program['name']} -> {folder}")
                exported += 1
            elif os.path.realpath(program["source_dir"]) == os.path.join(root, program["name"]):
                print(f"contest: {program['name']} skipped (no GPU kernel in its CMake sources)")
        if os.path.isdir(leetgpu_dir):
            include_dirs = manifest["common_include_dirs"]
            for name in sorted(os.listdir(leetgpu_dir)):
                kernel = os.path.join(leetgpu_dir, name, "kernel.cu")
                if os.path.isfile(kernel):
                    path = export_leetgpu(kernel, name, root, include_dirs, out_dir)
                    print(f"leetgpu: {name} -> {path}")
                    exported += 1
        print(f"exported {exported} solution(s) to {out_dir}")
    except ExportError as e:
        print(f"export_submission: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
