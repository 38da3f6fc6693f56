#!/usr/bin/env python3
"""Unit tests of the LeetGPU file's last pass (cmake/export_layout.py): system includes hoisted
once, conditional ones left in place, headers without code removed with their includes (but for
include wrappers, whose includes stay), header descriptions and the exporter's own bookkeeping
lines gone, the kernel's comments kept."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from export_layout import include_wrappers, lay_out  # noqa: E402


def text(*lines):
    return "\n".join(lines) + "\n"


class Layout(unittest.TestCase):
    def test_system_includes_move_to_the_top_once(self):
        out = lay_out(text(
            "// ======== basics/k/kernel.cu ========",
            "// k: what the kernel does.",
            "// ---- begin lib.h (inlined) ----",
            "// lib.h: what the library is for.",
            "",
            "// <cstdint> for the pointer test below.",
            "#include <cstdint>",
            "#include <cstddef>",
            "#if defined(SOMETHING)",
            "#include <cstring>",
            "#endif",
            "inline bool aligned(const void *p) { return std::uintptr_t(p) % 16 == 0; }",
            "// ---- end lib.h ----",
            "// lib.h: inlined above",
            "#include <cstddef>",
            "#include <cstdio>",
            'extern "C" void solve() {}',
        ))
        lines = out.splitlines()
        self.assertEqual(lines[:4], ["#include <cstdint>", "#include <cstddef>",
                                     "#include <cstdio>", ""])
        self.assertEqual(out.count("#include <cstddef>"), 1)
        self.assertIn("#if defined(SOMETHING)\n#include <cstring>\n#endif", out)
        self.assertNotIn("for the pointer test below", out)  # the include's own comment
        self.assertNotIn("what the library is for", out)  # the header's description
        self.assertIn("// k: what the kernel does.", out)  # the kernel's description
        self.assertNotIn("inlined above", out)
        self.assertNotIn("========", out)
        self.assertIn("// ---- begin lib.h (inlined) ----\n#if defined(SOMETHING)", out)

    def test_a_kernel_comment_above_a_system_include_stays(self):
        out = lay_out(text("// k: the kernel.", "#include <cstdio>", 'extern "C" void solve() {}'))
        self.assertEqual(out, text("#include <cstdio>", "", "// k: the kernel.",
                                   'extern "C" void solve() {}'))

    def test_headers_without_code_go_with_their_includes(self):
        out = lay_out(text(
            "// ---- begin outer.h (inlined) ----",
            "// outer.h: described.",
            "#include <cstdint>",
            "// ---- begin empty.h (inlined) ----",
            "// empty.h: everything it declared was pruned.",
            "#include <unistd.h>",
            "",
            "// ---- end empty.h ----",
            "inline int kept() { return 1; }",
            "// ---- end outer.h ----",
            'extern "C" void solve() { kept(); }',
        ))
        self.assertNotIn("empty.h", out)
        self.assertNotIn("unistd", out)
        self.assertIn("#include <cstdint>", out)
        self.assertIn("// ---- begin outer.h (inlined) ----\ninline int kept()", out)

    def test_an_include_wrapper_goes_but_its_includes_stay(self):
        source = text(
            "// ---- begin half.h (inlined) ----",
            "// half.h: the vendor's half-precision header.",
            "#include <cuda_fp16.h>",
            "// ---- end half.h ----",
            "// ---- begin pruned.h (inlined) ----",
            "#include <unistd.h>",
            "inline int unused() { return 1; }",
            "// ---- end pruned.h ----",
            'extern "C" void solve(const __half *x) {}',
        )
        self.assertEqual(include_wrappers(source), {"half.h"})
        pruned = source.replace("inline int unused() { return 1; }\n", "")
        out = lay_out(pruned, include_wrappers(source))
        self.assertEqual(out, text("#include <cuda_fp16.h>", "",
                                   'extern "C" void solve(const __half *x) {}'))

    def test_blank_lines_collapse(self):
        out = lay_out(text("// k.", "", "", "", "int a;", "", ""))
        self.assertEqual(out, text("// k.", "", "int a;"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
