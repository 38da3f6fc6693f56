#!/usr/bin/env python3
"""Stale repository paths: every path that the tracked files mention must exist.

    python3 .ci/check_paths.py [--verbose]   (run by .ci/check_paths.sh, a test_all.sh stage)
    python3 .ci/check_paths.py --self-test   (the rules below on fixed lines)

Where paths are looked for (tracked files only, `git ls-files`):
  - Markdown (*.md): the whole text, code blocks included;
  - C, C++, CUDA and HIP sources (.h .hpp .cuh .c .cc .cpp .cu .hip): `//` and `/* */` comments,
    never string literals (an #include's "gpu/vendor.h" is the compiler's business);
  - CMake (CMakeLists.txt, *.cmake), shell (.sh, .sbatch, and files whose first line is a bash or
    sh shebang) and Python (.py): `#` comments, and in Python the docstrings.

What counts as a path: a token of letters, digits and `_ - . / + ~` that holds a `/` and either
ends in a known extension (.h .hpp .cuh .c .cc .cpp .cu .hip .py .sh .sbatch .md .cmake .txt
.json .patch) or starts with a top-level folder of the repository (`common/`, `.ci/`, ...) or
with `./` or `../`. Backticks, quotes, brackets and trailing punctuation around it are dropped,
as is a `:LINE` or `:LINE:COLUMN` suffix.

What is never checked (no false alarms):
  - URLs (`scheme://...`) and absolute or home paths (`/tmp/x`, `/usr/...`, `~/...`);
  - placeholders, globs and variables: a token with `<`, `>`, `*`, `?`, `[`, `{`, `$` or `...`
    (`<problem>/tuning.h`, `testcases/prefix_sum/*.in`, `$OUT/logs`), or with a component in
    capitals and underscores only (`BUILD_DIR/bin`, `testcases/NAME`);
  - other projects' paths: a first component naming a library's include folder (`rocprim`,
    `hipcub`, `cub`, `thrust`, `cuda`, `hip`, `cooperative_groups`, `gtest`, `gmock`, `torch`,
    `sys`, `linux`, `bits`), ROCm/clr's source folders (`hipamd`, `rocclr`) or the LeetGPU
    challenges repository's folders (`challenges`, `starter`);
  - alternatives written with a slash: a missing token whose every component is a top-level
    folder's name (`prefix_sum/softmax`: prefix_sum or softmax);
  - build outputs and generated folders: a first component `build`, `build-*`, `bin`, `lib`,
    `submission`, `export`, `hip_programming_contest` or `leetgpu` (the exporter's output, e.g.
    `leetgpu/relu.cu`);
  - a path tied to a commit: followed or preceded within a few words, on its line or across the
    line break, by "at <commit>" or "in <commit>" (`softmax/experiments/x.patch at 4c0f868`: the
    file lives in that commit).

A path passes when it exists (file or folder) relative to the repository root, to the folder of
the file that mentions it, or to an include root of the build (a folder whose CMakeLists.txt adds
`${CMAKE_CURRENT_SOURCE_DIR}` to a target's include directories, e.g. `common/`, so that
`gpu/vendor.h` or `io/host_memory.h` in prose is found the way the compiler finds it).

Output: one line `FILE:LINE: missing path 'PATH'` per stale mention, then
`check_paths: N passed, M failed (F files scanned)`. Exit status 1 when any failed.
"""

import ast
import io
import os
import re
import subprocess
import sys
import tokenize

EXTENSIONS = (".h", ".hpp", ".cuh", ".c", ".cc", ".cpp", ".cu", ".hip", ".py", ".sh", ".sbatch",
              ".md", ".cmake", ".txt", ".json", ".patch")
C_LIKE = (".h", ".hpp", ".cuh", ".c", ".cc", ".cpp", ".cu", ".hip")
HASH_LIKE = (".cmake", ".sh", ".sbatch")
GENERATED_FIRST = {"build", "bin", "lib", "submission", "export", "hip_programming_contest",
                   "leetgpu"}
EXTERNAL_FIRST = {"rocprim", "hipcub", "cub", "thrust", "cuda", "hip", "cooperative_groups",
                  "gtest", "gmock", "torch", "sys", "linux", "bits", "challenges", "starter",
                  "hipamd", "rocclr"}
CAPITALS = re.compile(r"^[A-Z][A-Z0-9_]*$")
PLACEHOLDER_CHARS = set("<>*?[]{}$")

TOKEN = re.compile(r"[A-Za-z0-9_.\-/+~<>*?\[\]{}$]+")
URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://\S+")
COMMIT_ANCHOR = re.compile(r"\b(?:at|in)\s+(?:commit\s+)?[0-9a-f]{7,40}\b")
ANCHOR_REACH = 48  # characters between a path and "at <commit>" that still tie them


def repo_root():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.dirname(here)


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                             check=True).stdout
        return [f for f in out.decode("utf-8", "replace").split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, dirs, files in os.walk(root):
            dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build")]
            found += [os.path.relpath(os.path.join(d, f), root) for f in files]
        return sorted(found)


def include_roots(root, files):
    """Folders that a CMakeLists.txt adds to a target's include directories as itself."""
    roots = []
    for f in files:
        if os.path.basename(f) != "CMakeLists.txt":
            continue
        try:
            text = open(os.path.join(root, f), encoding="utf-8").read()
        except OSError:
            continue
        if re.search(r"target_include_directories\([^)]*\$\{CMAKE_CURRENT_SOURCE_DIR\}\s*\)",
                     text):
            roots.append(os.path.dirname(f))
    return roots


def file_kind(root, path):
    name = os.path.basename(path)
    ext = os.path.splitext(name)[1]
    if ext == ".md":
        return "markdown"
    if ext in C_LIKE:
        return "c"
    if ext == ".py":
        return "python"
    if name == "CMakeLists.txt" or ext in HASH_LIKE:
        return "hash"
    if ext == "":
        try:
            with open(os.path.join(root, path), "rb") as f:
                first = f.readline(200)
        except OSError:
            return None
        if re.match(rb"#!.*\b(ba)?sh\b", first):
            return "hash"
    return None


def c_comments(text):
    """(line number, comment text) of every // and /* */ comment, string literals skipped."""
    out, i, n, line = [], 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append((line, text[i + 2:end]))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end
            for k, part in enumerate(text[i + 2:end].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, end)
            i = end + 2
        elif ch in "\"'":
            # A string or character literal (raw strings are rare enough to ignore).
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return out


def hash_comments(text):
    """(line number, comment text) of # comments outside quotes, the shebang excepted."""
    out = []
    for number, line in enumerate(text.split("\n"), 1):
        if number == 1 and line.startswith("#!"):
            continue
        quote = None
        for i, ch in enumerate(line):
            if quote:
                if ch == quote:
                    quote = None
                elif ch == "\\" and quote == '"':
                    continue
            elif ch in "\"'":
                quote = ch
            elif ch == "#" and (i == 0 or line[i - 1] in " \t;("):
                out.append((number, line[i + 1:]))
                break
    return out


def python_comments(text):
    """(line number, text) of # comments and of the lines of every docstring."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                out.append((tok.start[0], tok.string[1:]))
    except (tokenize.TokenError, SyntaxError):
        return hash_comments(text)
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return out
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(
                    getattr(body[0], "value", None), ast.Constant) and isinstance(
                    body[0].value.value, str):
                first = body[0].lineno
                for k, part in enumerate(body[0].value.value.split("\n")):
                    out.append((first + k, part))
    return out


def texts(root, path):
    kind = file_kind(root, path)
    if kind is None:
        return []
    try:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return []
    if kind == "markdown":
        return list(enumerate(text.split("\n"), 1))
    if kind == "c":
        return c_comments(text)
    if kind == "python":
        return python_comments(text)
    return hash_comments(text)


def candidates(line, before, after, top_level):
    """The path-like tokens of one line of text; `before` and `after` are its neighbours, whose
    commit anchors near the line break count too."""
    text = before + "\n" + line + "\n" + after
    masked = URL.sub(lambda m: " " * len(m.group(0)), text)
    anchors = [m.span() for m in COMMIT_ANCHOR.finditer(masked)]
    lo, hi = len(before) + 1, len(before) + 1 + len(line)
    for m in TOKEN.finditer(masked, lo, hi):
        token = m.group(0)
        start, end = m.span()
        # Sentence punctuation around a path (a :LINE[:COLUMN] suffix is outside the token).
        token = token.lstrip("([{").rstrip(".,;:)]}")
        if "/" not in token or "..." in token:
            continue
        if PLACEHOLDER_CHARS & set(token):
            continue
        if token.startswith(("/", "~")):
            continue
        parts = [p for p in token.split("/") if p]
        if any(CAPITALS.match(p) for p in parts):
            continue
        first = token.split("/")[0]
        if first in GENERATED_FIRST or first.startswith("build-") or first in EXTERNAL_FIRST:
            continue
        named_by_extension = token.endswith(EXTENSIONS)
        named_by_folder = first in top_level or first in (".", "..")
        if not (named_by_extension or named_by_folder):
            continue
        if any(a_start - ANCHOR_REACH <= end and start <= a_end + ANCHOR_REACH
               for a_start, a_end in anchors):
            continue
        yield token


def exists(root, bases, token):
    rel = token.rstrip("/")
    for base in bases:
        candidate = os.path.normpath(os.path.join(root, base, rel))
        if not candidate.startswith(root):
            continue
        if os.path.exists(candidate):
            return True
    return False


def self_test(top_level):
    """The rules above on fixed lines; returns the number of cases that went wrong."""
    def found(line, before="", after=""):
        return list(candidates(line, before, after, top_level))

    cases = [
        (found("see `common/small_input.h`, then common/primitives/rows.h."),
         ["common/small_input.h", "common/primitives/rows.h"]),
        (found("(prefix_sum/README.md:12) and common/bench/"),
         ["prefix_sum/README.md", "common/bench/"]),
        (found("https://github.com/a/b/blob/main/x.h and /usr/include/y.h, ~/z.py"), []),
        (found("<problem>/tuning.h, testcases/prefix_sum/*.in, $OUT/a.md, BUILD_DIR/x.md"), []),
        (found("build/cpu/a.h, leetgpu/relu.cu, hip_programming_contest/x/main.cpp"), []),
        (found("rocprim/device/x.hpp, starter/starter.cu, a/b, 4000/70000, GB/s"), []),
        (found("(`softmax/experiments/x.patch` at 4c0f868)"), []),
        (found("(`testcases/bench/probe.cpp`)", before="the probe is at commit 4c0f868"), []),
        (found("(`testcases/bench/probe.cpp`)", before="at 4c0f868" + " " * 80 + "far"),
         ["testcases/bench/probe.cpp"]),
        ([t for _, t in c_comments('#include "gpu/x.h"\nint a; // gpu/y.h\n/* z.h\n w/v.h */')],
         [" gpu/y.h", " z.h", " w/v.h "]),
        ([n for n, _ in c_comments('a = "//" ; /* x\n y */ // z\n')], [1, 2, 2]),
        ([t for _, t in hash_comments('#!/bin/bash\necho "# no" # yes\nx=1#no\n  # all')],
         [" yes", " all"]),
        ([t for _, t in python_comments('"""doc a/b.md"""\nx = "# no"  # yes\n')],
         [" yes", "doc a/b.md"]),
    ]
    wrong = 0
    for number, (got, want) in enumerate(cases, 1):
        if got != want:
            wrong += 1
            print(f"check_paths self-test {number}: got {got!r}, expected {want!r}")
    return wrong


def main(argv):
    verbose = "--verbose" in argv
    if "--self-test" in argv:
        top_level = {"common", "prefix_sum", "softmax", "apsp", "basics", "testcases"}
        wrong = self_test(top_level)
        verdict = f"{wrong} wrong" if wrong else "all cases as expected"
        print(f"check_paths self-test: {verdict}")
        return 1 if wrong else 0
    root = repo_root()
    files = tracked_files(root)
    top_level = {f.split("/")[0] for f in files if "/" in f}
    roots = include_roots(root, files)
    passed = failed = scanned = 0
    for path in files:
        lines = texts(root, path)
        if not lines:
            continue
        scanned += 1
        bases = ["", os.path.dirname(path)] + roots
        by_number = dict(lines)
        for number, line in lines:
            before, after = by_number.get(number - 1, ""), by_number.get(number + 1, "")
            for token in candidates(line, before, after, top_level):
                if exists(root, bases, token):
                    passed += 1
                    if verbose:
                        print(f"{path}:{number}: ok '{token}'")
                elif all(p in top_level for p in token.split("/") if p):
                    continue  # prefix_sum/softmax: alternatives, not a path
                else:
                    failed += 1
                    print(f"{path}:{number}: missing path '{token}'")
    print(f"check_paths: {passed} passed, {failed} failed ({scanned} files scanned)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
