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

The kit's headers serve every backend (CUDA, HIP, and the MI100 persona, a CUDA testing mode); an
export serves one compiler. A backend pass (BackendPass, with unifdef) then resolves every branch
that depends on the backend, as that compiler sees it: LeetGPU files for nvcc (no HIP, no
persona), contest folders for hipcc (no CUDA, no persona). What only served removed branches goes
with them (the backend's own #defines, comments about the removed branches, include guards of
headers inlined once); conditions on anything else (__CUDA_ARCH__, ...) stay. A LeetGPU file then
loses the declarations of its inlined headers that nothing in it uses (export_prune.py) and is
laid out as one source (export_layout.py).

Usage: export_submission.py --manifest <build>/kit_programs.json [--out DIR] [--leetgpu-dir DIR]
                            [--backend-pass auto|on|off]
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_prune import prune_unused  # noqa: E402 (the exporter's own module, beside it)
from export_layout import include_wrappers, lay_out  # noqa: E402

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
CONDITIONALS = ("if", "ifdef", "ifndef", "elif", "else", "endif")
BLANK_PLACEHOLDER = "// kit-export: blank line"
# The exporter's own comment lines (file and header boundaries), never treated as prose.
GENERATED_COMMENT = re.compile(
    r"^\s*// (?:======== .* ========|---- (?:begin|end) .* ----|\S+: inlined above)$"
)


class ExportError(Exception):
    pass


def strip_comments_state(line, in_block):
    """Returns (code, in_block): the line without comments, and whether a block comment is still
    open at its end. String and character literals are honoured so that "/*" in a string does not
    open a comment."""
    if not in_block and not any(c in line for c in "\"'/"):
        return line, False  # most lines: nothing to strip
    if in_block and "*/" not in line:
        return "", True
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


class Backend:
    """The compiler an export is for: the macros whose value that compiler fixes (`defined` with
    their values, `undefined`), and the words of the branches it never takes (`removed_talk`), by
    which comments about those branches are recognised."""

    def __init__(self, name, defined, undefined, removed_talk):
        self.name = name
        self.defined = dict(defined)
        self.undefined = tuple(undefined)
        self.removed_talk = re.compile(removed_talk, re.IGNORECASE)


# A LeetGPU file is compiled by nvcc alone: the kit's CUDA branch, no HIP compiler macro, no MI100
# persona (a CUDA build option for testing the wave64 paths), no kit::instances library (the file
# instantiates every template it calls). `hip` as the start of a word, so that
# HIP, hipcc and __HIPCC__ count and "chip" or "ship" do not.
CUDA_BACKEND = Backend(
    "CUDA",
    # KIT_DPP: the vendor layer's AMD lane moves, which no CUDA compile has (gpu/dpp_lane_moves.h).
    # __CUDACC__: nvcc compiles the whole .cu file, host and device passes alike.
    defined={"KIT_CUDA": "1", "KIT_DPP": "0", "__CUDACC__": "1"},
    undefined=("KIT_HIP", "KIT_BACKEND_HIP", "__HIPCC__", "__HIP__", "__HIP_PLATFORM_AMD__",
               "KIT_PERSONA_GFX908", "KIT_SHARED_INSTANCES"),
    removed_talk=r"(?<![a-z])hip|persona",
)
# A contest folder is compiled by hipcc with KIT_BACKEND_HIP defined at the top of every unit
# (definitions_block): the kit's HIP branch, never another backend's or the persona's, and no
# kit::instances library. The code is
# written in CUDA spelling on both backends, so CUDA is no removed branch's word here.
HIP_BACKEND = Backend(
    "HIP",
    defined={"KIT_HIP": "1", "KIT_BACKEND_HIP": "1"},
    undefined=("KIT_CUDA", "KIT_BACKEND_CUDA", "KIT_BACKEND_CPU", "KIT_PERSONA_GFX908",
               "KIT_SHARED_INSTANCES"),
    removed_talk=r"persona",
)


def code_and_comment(line):
    """Splits a line that does not start inside a block comment at its `//` comment (outside
    string and character literals): (code, comment), comment "" when there is none."""
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c in "\"'":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            i = j + 1
        elif line.startswith("//", i):
            return line[:i], line[i:]
        elif line.startswith("/*", i):
            end = line.find("*/", i + 2)
            if end < 0:
                return line, ""
            i = end + 2
        else:
            i += 1
    return line, ""


def outer_parenthesised(expr):
    """The inside of `(...)` when the parentheses enclose the whole expression, else None."""
    if not (expr.startswith("(") and expr.endswith(")")):
        return None
    depth = 0
    for i, c in enumerate(expr):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0 and i < len(expr) - 1:
            return None
    return expr[1:-1].strip()


def top_level_operands(expr):
    """(operator, operands) of an #if expression at its lowest precedence: split at every `||`
    outside parentheses when there is one (&& binds tighter), else at every `&&`; (None, [expr])
    when it is neither (or holds a conditional operator)."""
    for op in ("||", "&&"):
        parts, depth, start, i = [], 0, 0, 0
        while i < len(expr):
            c = expr[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif depth == 0 and c == "?":
                return None, [expr]
            elif depth == 0 and expr.startswith(op, i):
                parts.append(expr[start:i].strip())
                start = i + 2
                i += 1
            i += 1
        if parts:
            return op, parts + [expr[start:].strip()]
    return None, [expr]


class BackendPass:
    """Resolves, in an exported text, every preprocessor branch that depends on the backend, with
    unifdef (the macros of `backend` defined or undefined as its compiler sees them), so that the
    file holds only the code that compiler compiles. Conditions on anything else (__CUDA_ARCH__,
    __CUDACC__, a problem's own macros) stay as they are.

    unifdef decides a condition when the given macros settle it (`KIT_HIP || defined(X)` with both
    undefined) and passes it through unchanged otherwise: `KIT_CUDA && __CUDA_ARCH__ >= 800` would
    keep KIT_CUDA, so such a condition is first reduced to its undecided operands, each operand's
    value again asked of unifdef. Then:
      - the #define/#undef lines of the resolved macros go (nothing tests them any more);
      - a comment paragraph directly above a conditional that disappeared entirely goes with it;
      - a comment paragraph (or trailing comment) that speaks of a removed branch goes;
      - runs of blank lines become one.
    A resolved macro still used in code afterwards is an error (its definition is gone)."""

    def __init__(self, backend, unifdef):
        self.backend = backend
        self.unifdef = unifdef
        self.symbols = set(backend.defined) | set(backend.undefined)
        self._values = {}

    def _run_unifdef(self, text, where, extra_undefined=(), blank=False):
        flags = [f"-D{name}={value}" for name, value in self.backend.defined.items()]
        flags += [f"-U{name}" for name in (*self.backend.undefined, *extra_undefined)]
        command = [self.unifdef, "-x2"] + (["-b"] if blank else []) + flags
        try:
            result = subprocess.run(command, input=text, capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as e:
            raise ExportError(f"{where}: running unifdef failed: {e}")
        if result.returncode != 0:
            message = " ".join(result.stderr.split())
            raise ExportError(f"{where}: unifdef failed: {message}")
        return result.stdout

    def value(self, expr, where):
        """True or False when unifdef decides `#if expr` for this backend, None when it depends on
        other macros."""
        if expr not in self._values:
            probe = f"#if {expr}\nTRUE\n#else\nFALSE\n#endif\n"
            answer = self._run_unifdef(probe, where).strip()
            self._values[expr] = {"TRUE": True, "FALSE": False}.get(answer)
        return self._values[expr]

    def mentions(self, text):
        """Whether `text` names one of the backend's macros."""
        return not self.symbols.isdisjoint(re.findall(r"\b\w+\b", text))

    def _reduce(self, expr, where):
        """(value, text): the expression's value when unifdef decides it, else (None, the
        expression without the operands that the backend decides and that do not decide it)."""
        expr = expr.strip()
        if not self.mentions(expr):
            return None, expr
        value = self.value(expr, where)
        if value is not None:
            return value, expr
        inner = outer_parenthesised(expr)
        if inner is not None:
            value, text = self._reduce(inner, where)
            return (None, f"({text})") if value is None else (value, expr)
        op, operands = top_level_operands(expr)
        if op is None:
            raise ExportError(
                f"{where}: cannot resolve `#if {expr}` for {self.backend.name}: the backend's "
                "macros are neither settled by unifdef nor operands of && or ||"
            )
        kept = []
        for operand in operands:
            value, text = self._reduce(operand, where)
            if value is None:
                kept.append(text)
            elif value == (op == "||"):
                return value, expr  # an absorbing operand decides the whole
        if not kept:
            return op == "&&", expr
        return None, f" {op} ".join(kept)

    def _prepare(self, lines, where):
        """Conditional directives on one line each (unifdef leaves a continued one alone), and
        conditions that mention the backend's macros without being settled by them reduced."""
        out = []
        in_block = False
        origin = InlinedOrigin(where)
        i = 0
        while i < len(lines):
            line = lines[i]
            origin.see(line)
            started_in_block = in_block
            code, in_block = strip_comments_state(line, in_block)
            match = None if started_in_block else DIRECTIVE.match(code)
            if not match or match.group(1) not in CONDITIONALS:
                out.append(line)
                i += 1
                continue
            codes = [code]
            continued = False
            while codes[-1].rstrip().endswith("\\") and i + 1 < len(lines):
                continued = True
                i += 1
                code, in_block = strip_comments_state(lines[i], in_block)
                codes.append(code)
            joined = " ".join(c.rstrip().rstrip("\\").strip() for c in codes)
            keyword, expr = DIRECTIVE.match(joined).groups()
            expr = expr.strip()
            if keyword in ("if", "elif") and self.mentions(expr):
                value, reduced = self._reduce(expr, origin.name())
                if value is None:
                    if self.mentions(reduced):
                        raise ExportError(
                            f"{origin.name()}: cannot resolve `#{keyword} {expr}` for "
                            f"{self.backend.name}"
                        )
                    out.append(f"#{keyword} {reduced}")
                    i += 1
                    continue
            out.append(f"#{keyword} {expr}".rstrip() if continued else line)
            i += 1
        return out

    def run(self, text, where, extra_undefined=()):
        """The text with the backend's branches resolved (see the class). `extra_undefined`:
        further macros known to be undefined where they are tested (include guards of headers
        inlined once), resolved and removed the same way."""
        lines = self._prepare(text.rstrip("\n").split("\n"), where)
        # unifdef -b blanks what it removes, so that lines keep corresponding; blank lines are
        # given a placeholder first, so that a blank output line is always a removed one.
        marked = [line if line.strip() else BLANK_PLACEHOLDER for line in lines]
        resolved = self._run_unifdef("\n".join(marked) + "\n", where, extra_undefined, blank=True)
        out = resolved.rstrip("\n").split("\n")
        if len(out) != len(lines):
            raise ExportError(f"{where}: unifdef -b changed the number of lines")
        out = [None if not line.strip() else "" if line == BLANK_PLACEHOLDER else line
               for line in out]
        self._drop_comments_above_removed_conditionals(lines, out)
        symbols = self.symbols | set(extra_undefined)
        self._drop_definitions(out, symbols)
        out = self._drop_removed_talk(out)
        out = tidy(out)
        self._check_no_resolved_macro(out, where, symbols)
        return "\n".join(out) + "\n"

    @staticmethod
    def _drop_comments_above_removed_conditionals(lines, out):
        """Marks (None in `out`) the comment paragraph directly above each conditional of
        `lines` that was removed as a whole."""
        stack = []
        in_block = False
        for i, line in enumerate(lines):
            started_in_block = in_block
            code, in_block = strip_comments_state(line, in_block)
            match = None if started_in_block else DIRECTIVE.match(code)
            if not match:
                continue
            keyword = match.group(1)
            if keyword in ("if", "ifdef", "ifndef"):
                stack.append(i)
            elif keyword == "endif" and stack:
                start = stack.pop()
                if all(out[k] is None for k in range(start, i + 1)):
                    k = start - 1
                    while k >= 0 and out[k] and is_prose_comment(out[k]) and out[k].strip() != "//":
                        out[k] = None
                        k -= 1

    @staticmethod
    def _drop_definitions(lines, symbols):
        """Marks (None) the #define and #undef lines of `symbols`, continuation lines included.
        Lines already None are removed ones and are skipped."""
        in_block = False
        dropping = False
        for i, line in enumerate(lines):
            if line is None:
                continue
            if dropping:
                dropping = line.rstrip().endswith("\\")
                lines[i] = None
                continue
            started_in_block = in_block
            code, in_block = strip_comments_state(line, in_block)
            match = None if started_in_block else DIRECTIVE.match(code)
            if match and match.group(1) in ("define", "undef"):
                name = re.match(r"\w+", match.group(2))
                if name and name.group(0) in symbols:
                    dropping = line.rstrip().endswith("\\")
                    lines[i] = None

    def _drop_removed_talk(self, lines):
        """The lines without the comment paragraphs and trailing comments that speak of a
        removed branch. A removed line (None) ends a comment block: comments that were apart
        before the pass are judged apart."""
        talk = self.backend.removed_talk
        out = []
        i = 0
        while i < len(lines):
            line = lines[i]
            if line is None or not is_prose_comment(line):
                if line is not None:
                    code, comment = code_and_comment(line)
                    out.append(code.rstrip() if comment and code.strip() and talk.search(comment)
                               else line)
                i += 1
                continue
            end = i
            while end < len(lines) and lines[end] is not None and is_prose_comment(lines[end]):
                end += 1
            out.extend(drop_paragraphs(lines[i:end], talk))
            i = end
        return out

    def _check_no_resolved_macro(self, lines, where, symbols):
        in_block = False
        origin = InlinedOrigin(where)
        for line in lines:
            origin.see(line)
            code, in_block = strip_comments_state(line, in_block)
            used = sorted(set(re.findall(r"\b\w+\b", code)) & symbols)
            if used:
                raise ExportError(
                    f"{origin.name()}: {', '.join(used)} still used once the backend is resolved "
                    f"for {self.backend.name} (its definition is removed): {line.strip()}"
                )


class InlinedOrigin:
    """Follows the begin/end lines of an inlined text to name the header a line comes from."""

    def __init__(self, source):
        self.source = source
        self.headers = []

    def see(self, line):
        begin = re.match(r"^// ---- begin (.*) \(inlined\) ----$", line)
        if begin:
            self.headers.append(begin.group(1))
        elif re.match(r"^// ---- end .* ----$", line) and self.headers:
            self.headers.pop()

    def name(self):
        return f"{self.source} (in {self.headers[-1]})" if self.headers else self.source


def is_prose_comment(line):
    """A line that is only a // comment, other than the exporter's own boundary lines."""
    return line.lstrip().startswith("//") and not GENERATED_COMMENT.match(line)


def drop_paragraphs(block, talk):
    """A block of // comment lines without the paragraphs (separated by bare // lines) in which
    `talk` occurs, and without the separators left at its edges."""
    paragraphs, current = [], []
    for line in block:
        if line.strip() == "//":
            paragraphs.append(current)
            current = []
        else:
            current.append(line)
    paragraphs.append(current)
    kept = [p for p in paragraphs if p and not talk.search(" ".join(p))]
    separator = [l for l in block if l.strip() == "//"][:1]
    out = []
    for paragraph in kept:
        if out:
            out.extend(separator)
        out.extend(paragraph)
    return out


def tidy(lines):
    """Turns runs of blank lines into one, drops blank lines just inside a header's begin/end
    lines and the begin/end lines of a header left empty."""
    begin = re.compile(r"^// ---- begin (.*) \(inlined\) ----$")
    out = []
    for line in lines:
        line = line.rstrip()
        if not line and (not out or not out[-1] or begin.match(out[-1])):
            continue
        end = re.match(r"^// ---- end (.*) ----$", line)
        if end:
            while out and not out[-1]:
                out.pop()
            opened = begin.match(out[-1]) if out else None
            if opened and opened.group(1) == end.group(1):
                out.pop()
                continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return out


def single_copy_guards(text):
    """Include guards of the headers inlined once in a text: undefined wherever they are tested,
    so that the backend pass removes them with the rest."""
    guards = re.findall(r"^#ifndef (KIT_INLINED_\w+)$", text, flags=re.MULTILINE)
    return sorted(g for g in set(guards) if guards.count(g) == 1)


def find_unifdef(mode):
    """The unifdef executable for `--backend-pass` mode (auto: when installed), or None. In auto
    mode without it, main() says so once the export is written (a failed export says only why
    it failed, in one line)."""
    if mode == "off":
        return None
    path = shutil.which("unifdef")
    if path is None and mode == "on":
        raise ExportError("unifdef not found (Debian: apt-get install unifdef); "
                          "--backend-pass off exports every backend branch")
    return path


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
    with the backend pinned to HIP (the contest's), without a testing persona and without the
    shared instantiations (a folder links no kit::instances)."""
    lines = ["#define KIT_BACKEND_HIP 1"]
    for d in definitions:
        name, _, value = d.partition("=")
        if name.startswith(("KIT_BACKEND_", "KIT_PERSONA_", "KIT_SHARED_INSTANCES")) or "$<" in d:
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


def export_contest_program(program, root, out_dir, resolver=None):
    name = program["name"]
    source_dir = os.path.realpath(program["source_dir"])
    include_dirs = [source_dir] + program["include_dirs"]
    solve_header = os.path.join(source_dir, SOLVE_HEADER)

    header_inliner = Inliner(root, include_dirs)
    main_h = header_inliner.header(solve_header)
    if resolver:
        main_h = resolver.run(main_h, os.path.relpath(solve_header, root))
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
            text = inliner.source(source)
            if resolver:
                text = resolver.run(text, os.path.relpath(source, root))
            units.append(text)
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


def export_leetgpu(kernel, name, root, include_dirs, out_dir, resolver=None):
    inliner = Inliner(root, include_dirs)
    body = inliner.source(kernel)
    if resolver:
        body = resolver.run(
            body, os.path.relpath(kernel, root), extra_undefined=single_copy_guards(body)
        )
        # Only once the branches are resolved: a name used only by a removed branch is unused.
        body = lay_out(prune_unused(body), include_wrappers(body))
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
        "--backend-pass",
        choices=("auto", "on", "off"),
        default="auto",
        help="resolve the backend branches with unifdef: LeetGPU files for CUDA, contest folders "
        "for HIP (auto: when unifdef is installed; on: fail without it; off: keep every branch)",
    )
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
        unifdef = find_unifdef(args.backend_pass)
        contest_pass = BackendPass(HIP_BACKEND, unifdef) if unifdef else None
        leetgpu_pass = BackendPass(CUDA_BACKEND, unifdef) if unifdef else None
        prepare_output(out_dir)

        exported = 0
        for program in manifest["programs"]:
            if is_contest_program(program, root):
                folder = export_contest_program(program, root, out_dir, contest_pass)
                print(f"contest: {program['name']} -> {folder}")
                exported += 1
            elif os.path.realpath(program["source_dir"]) == os.path.join(root, program["name"]):
                print(f"contest: {program['name']} skipped (no GPU kernel in its CMake sources)")
        if os.path.isdir(leetgpu_dir):
            include_dirs = manifest["common_include_dirs"]
            for name in sorted(os.listdir(leetgpu_dir)):
                kernel = os.path.join(leetgpu_dir, name, "kernel.cu")
                if os.path.isfile(kernel):
                    path = export_leetgpu(kernel, name, root, include_dirs, out_dir, leetgpu_pass)
                    print(f"leetgpu: {name} -> {path}")
                    exported += 1
        print(f"exported {exported} solution(s) to {out_dir}")
        if unifdef is None and args.backend_pass == "auto":
            print("export_submission: unifdef not found: the exported files keep every backend "
                  "branch (install unifdef for lean files)", file=sys.stderr)
    except ExportError as e:
        print(f"export_submission: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
