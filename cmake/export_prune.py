"""Leaves out of an exported file the declarations of inlined kit headers that nothing in the
file uses, so that a LeetGPU file holds what its kernel calls and not the whole library.

The unit is a top-level declaration of an inlined header (a function, a class or struct, an
enum, a variable, an alias, at namespace scope; namespaces themselves are transparent), with the
// comment lines directly above it. Its name is looked up as a whole word in the code of the rest
of the file (comments and string literals left out); a name with no use elsewhere is removed,
every declaration of that name at once (overloads, specialisations, a forward declaration), and
the search repeats until nothing more goes, since a removed declaration may have been the only
user of another. The kernel's own file is never touched, and neither is anything this pass cannot
name with certainty (operators, static_asserts, a declaration that a preprocessor line cuts in
two): those stay. Conditional blocks and namespaces left empty are removed afterwards.

The kit's headers are clang-formatted (LLVM style: namespace contents are not indented), which
is what lets a line-based reader find the top-level declarations; the exported file is compiled
alone by the export checks, so a wrong removal cannot pass unnoticed.
"""

import re

BEGIN = re.compile(r"^// ---- begin (.*) \(inlined\) ----$")
END = re.compile(r"^// ---- end (.*) ----$")
NAMESPACE_OPEN = re.compile(r"^\s*(?:inline\s+)?namespace\b[^;{]*\{\s*$")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
KEEP_NAMES = {"static_assert", "operator"}


def code_of(line, in_block):
    """The line's code: comments and the contents of string and character literals removed.
    Returns (code, in_block) for block comments that span lines."""
    out = []
    i, n = 0, len(line)
    while i < n:
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i, in_block = end + 2, False
            out.append(" ")
            continue
        c = line[i]
        if c in "\"'":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            in_block, i = True, i + 2
        else:
            out.append(c)
            i += 1
    return "".join(out), in_block


def declaration_name(head):
    """The name a declaration's head (its code up to the first `{` or `;`) declares, or None."""
    head = re.sub(r"\s+", " ", head)
    # template <...> prefixes, with nested angle brackets
    while True:
        m = re.match(r"\s*template\s*<", head)
        if not m:
            break
        depth, i = 1, m.end()
        while i < len(head) and depth:
            depth += {"<": 1, ">": -1}.get(head[i], 0)
            i += 1
        head = head[i:]
    for attribute in ("__launch_bounds__", "__attribute__", "alignas", "__align__"):
        while attribute in head:
            start = head.index(attribute)
            i = head.find("(", start)
            if i < 0:
                break
            depth, j = 1, i + 1
            while j < len(head) and depth:
                depth += {"(": 1, ")": -1}.get(head[j], 0)
                j += 1
            head = head[:start] + " " + head[j:]
    if "operator" in IDENTIFIER.findall(head) or "static_assert" in head:
        return None
    m = re.search(r"\b(?:struct|class|union)\s+(\w+)", head)
    if m:
        return m.group(1)
    m = re.search(r"\benum\s+(?:class\s+|struct\s+)?(\w+)", head)
    if m:
        return m.group(1)
    m = re.search(r"\busing\s+(\w+)\s*=", head)
    if m:
        return m.group(1)
    head = re.sub(r"\[\[.*?\]\]", " ", head)  # [[nodiscard]] and other attributes
    cut = min(x for x in (head.find("("), head.find("="), head.find("["), len(head)) if x >= 0)
    names = IDENTIFIER.findall(head[:cut])
    return names[-1] if names else None


class Item:
    def __init__(self, first, last, name):
        self.first, self.last, self.name = first, last, name


def directive_lines(lines, codes):
    """Whether each line belongs to a preprocessor directive (continuation lines included)."""
    marks, continued = [], False
    for line, code in zip(lines, codes):
        is_directive = continued or code.strip().startswith("#")
        marks.append(is_directive)
        continued = is_directive and line.rstrip().endswith("\\")
    return marks


def find_items(lines, codes):
    """Top-level declarations inside inlined headers: Items with their line span (leading
    comments included) and name (None: not removable)."""
    directive = directive_lines(lines, codes)
    items = []
    headers = 0  # inlined headers open around the line
    stack = []  # "ns" or "{" per open brace
    i = 0
    while i < len(lines):
        line = lines[i]
        if BEGIN.match(line):
            headers += 1
            i += 1
            continue
        if END.match(line) and headers:
            headers -= 1
            i += 1
            continue
        code = codes[i].strip()
        depth = sum(1 for s in stack if s == "{")
        if depth == 0 and NAMESPACE_OPEN.match(codes[i]):
            stack.append("ns")
            i += 1
            continue
        if depth == 0 and code.startswith("}") and stack and stack[-1] == "ns":
            stack.pop()
            i += 1
            continue
        if depth != 0 or not code or directive[i]:
            for c in code if not directive[i] else "":
                if c == "{":
                    stack.append("{")
                elif c == "}" and stack:
                    stack.pop()
            i += 1
            continue
        # A declaration starts here: follow it to its end at depth 0.
        start, head, removable, j = i, "", headers > 0, i
        seen_open = False
        while j < len(lines):
            c_line = codes[j]
            if directive[j]:
                if not any(s == "{" for s in stack):
                    removable = False  # a directive between the head and the body
                j += 1
                continue
            for c in c_line:
                if c == "{":
                    stack.append("{")
                    seen_open = True
                elif c == "}" and stack:
                    stack.pop()
            if not seen_open:
                head += " " + c_line
            elif not head.strip().endswith("{"):
                head += " " + c_line.split("{")[0] + "{" if "{" in c_line and "{" not in head else ""
            stripped = c_line.strip()
            if not any(s == "{" for s in stack) and (stripped.endswith(";") or stripped.endswith("}")):
                break
            j += 1
        head = re.split(r"[{;]", head, maxsplit=1)[0]
        name = declaration_name(head) if removable else None
        first = start
        while first > 0 and lines[first - 1].lstrip().startswith("//") and not (
            BEGIN.match(lines[first - 1]) or END.match(lines[first - 1])
        ):
            first -= 1
        if name in KEEP_NAMES:
            name = None
        items.append(Item(first, j, name))
        i = j + 1
    return items


def words(codes):
    counts = {}
    for code in codes:
        for w in IDENTIFIER.findall(code):
            counts[w] = counts.get(w, 0) + 1
    return counts


def find_macros(lines, codes):
    """#define directives of inlined headers: Items named by the macro."""
    directive = directive_lines(lines, codes)
    items, headers, i = [], 0, 0
    while i < len(lines):
        if BEGIN.match(lines[i]):
            headers += 1
        elif END.match(lines[i]) and headers:
            headers -= 1
        m = re.match(r"\s*#\s*define\s+(\w+)", codes[i])
        if m and headers:
            last = i
            while last + 1 < len(lines) and directive[last + 1] and lines[last].rstrip().endswith(
                "\\"
            ):
                last += 1
            first = i
            while first > 0 and lines[first - 1].lstrip().startswith("//") and not (
                BEGIN.match(lines[first - 1]) or END.match(lines[first - 1])
            ):
                first -= 1
            items.append(Item(first, last, m.group(1)))
            i = last
        i += 1
    return items


def is_comment(line):
    return line.lstrip().startswith("//") and not (BEGIN.match(line) or END.match(line))


def closes_a_block(line):
    """A line after which a comment has nothing left to describe: the end of a conditional block,
    of a namespace or of an inlined header."""
    code = line.strip()
    return bool(
        re.match(r"#\s*(endif|else|elif)\b", code)
        or code == "}"
        or re.match(r"\}\s*//\s*namespace", code)
        or END.match(line)
    )


def drop_orphan_comments(lines):
    """Removes comment blocks inside inlined headers whose declarations were all removed: those
    followed (past blank lines) by the end of a block rather than by code."""
    out, i, headers = [], 0, 0
    while i < len(lines):
        line = lines[i]
        if BEGIN.match(line):
            headers += 1
        elif END.match(line) and headers:
            headers -= 1
        if headers and is_comment(line):
            j = i
            while j < len(lines) and is_comment(lines[j]):
                j += 1
            k = j
            while k < len(lines) and not lines[k].strip():
                k += 1
            if k >= len(lines) or closes_a_block(lines[k]):
                i = j
                continue
        out.append(line)
        i += 1
    return out


def remove_empty_blocks(lines):
    """Removes conditional blocks (#if ... #endif) and namespaces left with nothing but blank
    lines inside, until none is left."""
    changed = True
    while changed:
        changed = False
        out = []
        for line in lines:
            out.append(line)
            closing = line.strip()
            is_endif = bool(re.match(r"#\s*endif\b", closing))
            is_close = closing == "}" or bool(re.match(r"\}\s*//\s*namespace", closing))
            if not (is_endif or is_close):
                continue
            k = len(out) - 2
            while k >= 0 and not out[k].strip():
                k -= 1
            if k < 0:
                continue
            opening = out[k]
            if (is_endif and re.match(r"\s*#\s*if", opening)) or (
                is_close and NAMESPACE_OPEN.match(opening)
            ):
                del out[k:]
                changed = True
            elif is_endif and re.match(r"\s*#\s*(else|elif)\b", opening):
                # An empty last branch: drop it, the #endif now closes the branch before.
                del out[k:-1]
                changed = True
        lines = out
    return lines


def collapse_blank_lines(lines):
    out = []
    for line in lines:
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line)
    return out


def prune_unused(text):
    """The text without the unused top-level declarations of its inlined headers."""
    lines = text.split("\n")
    while True:
        # A comment above a namespace that empties only once its blocks go is an orphan too.
        previous = None
        while lines != previous:
            previous, lines = lines, remove_empty_blocks(drop_orphan_comments(lines))
        codes, in_block = [], False
        for line in lines:
            code, in_block = code_of(line, in_block)
            codes.append(code)
        items = find_items(lines, codes) + find_macros(lines, codes)
        total = words(codes)
        own = {}
        for item in items:
            if item.name:
                own[item.name] = own.get(item.name, 0) + sum(
                    IDENTIFIER.findall(codes[k]).count(item.name)
                    for k in range(item.first, item.last + 1)
                )
        unused = {name for name, count in own.items() if total.get(name, 0) - count == 0}
        if not unused:
            break
        drop = set()
        for item in items:
            if item.name in unused:
                drop.update(range(item.first, item.last + 1))
        lines = [line for k, line in enumerate(lines) if k not in drop]
    return "\n".join(collapse_blank_lines(lines))
