"""The last pass over a LeetGPU file, once its backend branches are resolved and its unused
declarations pruned: the file reads as one source rather than as a trail of inlined headers.

- The system includes that every compile of the file sees (outside any conditional block) move
  to one block at the top, each once, in the order first met; the comment lines directly above
  such an include in an inlined header (which explained it there) go with it.
- An inlined header left without code (only comments, blank lines, system includes and its
  begin/end lines) is removed entirely: its description would describe nothing. Its system
  includes go with it where pruning emptied it, and stay where it held none in the first place
  (an include wrapper such as gpu/half.h, whose includer uses what it includes).
- The comment block that opens an inlined header (its place in the library) goes.
- `// <header>: inlined above` lines go, and the title line of the kernel's source (the file's
  banner names it): in a single file they say nothing.
Conditional includes stay where they are, and so does everything else.
"""

import re

import export_prune

BEGIN = re.compile(r"^// ---- begin (.*) \(inlined\) ----$")
END = re.compile(r"^// ---- end (.*) ----$")
INLINED_ABOVE = re.compile(r"^\s*// \S+: inlined above$")
SOURCE_TITLE = re.compile(r"^// ======== .* ========$")
SYSTEM_INCLUDE = re.compile(r"^\s*#\s*include\s*<[^>]+>\s*$")
CONDITIONAL_OPEN = re.compile(r"^\s*#\s*if")
CONDITIONAL_CLOSE = re.compile(r"^\s*#\s*endif\b")


def is_plain_comment(line):
    return line.lstrip().startswith("//") and not (BEGIN.match(line) or END.match(line))


def hoist_system_includes(lines):
    """(lines without their unconditional system includes, the includes in first-met order)."""
    out, includes, depth, headers = [], [], 0, 0
    for line in lines:
        if BEGIN.match(line):
            headers += 1
        elif END.match(line):
            headers -= 1
        elif CONDITIONAL_OPEN.match(line):
            depth += 1
        elif CONDITIONAL_CLOSE.match(line):
            depth -= 1
        elif depth == 0 and SYSTEM_INCLUDE.match(line):
            include = re.sub(r"\s+", " ", line.strip()).replace("# include", "#include")
            if include not in includes:
                includes.append(include)
            while headers and out and is_plain_comment(out[-1]):
                out.pop()  # the include's own explanation in its header
            continue
        out.append(line)
    return out, includes


def is_code(line):
    """A line of the file's own text that is more than a comment, a blank line or a system
    include (the bookkeeping lines are comments)."""
    return bool(line.strip()) and not (is_plain_comment(line) or BEGIN.match(line) or
                                       END.match(line) or SYSTEM_INCLUDE.match(line))


def include_wrappers(text):
    """The inlined headers of `text` that hold no code of their own, only system includes (and
    comments, and the headers they inline): include wrappers such as gpu/half.h, which picks the
    vendor's half-precision header. Read before unused declarations are pruned, which can leave
    other headers without code too."""
    wrappers, opened = set(), []  # opened: [name, holds code] of the headers being read
    for line in text.split("\n"):
        begin, end = BEGIN.match(line), END.match(line)
        if begin:
            opened.append([begin.group(1), False])
        elif end and opened:
            name, holds_code = opened.pop()
            if not holds_code:
                wrappers.add(name)
        elif opened and is_code(line):
            opened[-1][1] = True
    return wrappers


def drop_empty_headers(lines, wrappers=frozenset()):
    """Removes inlined headers that hold no code but their system includes, innermost first. The
    includes of a header that pruning emptied go with it: what the rest of the file uses of them,
    its own headers include too. Those of an include wrapper (`wrappers`) stay, for what its
    includer uses of them."""
    changed = True
    while changed:
        changed = False
        opened = []  # indices in `lines` of the begin lines of the headers being read
        for i, line in enumerate(lines):
            if BEGIN.match(line):
                opened.append(i)
            elif END.match(line) and opened:
                first = opened.pop()
                body = lines[first + 1 : i]
                if all(not l.strip() or is_plain_comment(l) or SYSTEM_INCLUDE.match(l)
                       for l in body):
                    kept = ([l for l in body if SYSTEM_INCLUDE.match(l)]
                            if BEGIN.match(lines[first]).group(1) in wrappers else [])
                    lines = lines[:first] + kept + lines[i + 1 :]
                    changed = True
                    break
    return lines


def drop_header_descriptions(lines):
    """Removes the comment block that opens each inlined header (what the header is for, in the
    library): the kernel's own description says what the file does, and the comments on the
    declarations kept say how."""
    out, skipping = [], False
    for line in lines:
        if skipping and is_plain_comment(line):
            continue
        skipping = bool(BEGIN.match(line))
        out.append(line)
    return out


def collapse_blank_lines(lines):
    """Runs of blank lines as one, none at the end."""
    out = export_prune.collapse_blank_lines(lines)
    while out and not out[-1].strip():
        out.pop()
    return out


def lay_out(text, wrappers=frozenset()):
    """The LeetGPU file's body laid out as described above; `wrappers`: the include wrappers among
    its headers (include_wrappers, on the text before pruning)."""
    lines = [l for l in text.split("\n") if not (INLINED_ABOVE.match(l) or SOURCE_TITLE.match(l))]
    lines, includes = hoist_system_includes(drop_empty_headers(lines, wrappers))
    lines = drop_header_descriptions(lines)
    # Blank lines just inside a header's begin line.
    tidy = []
    for line in lines:
        if not line.strip() and tidy and BEGIN.match(tidy[-1]):
            continue
        tidy.append(line)
    body = collapse_blank_lines(tidy)
    head = includes + [""] if includes else []
    return "\n".join(head + body) + "\n"
