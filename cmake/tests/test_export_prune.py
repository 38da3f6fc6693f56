#!/usr/bin/env python3
"""Unit tests of the exporter's pruning of unused declarations (cmake/export_prune.py): what an
inlined header's unused declarations are, that uses anywhere in the file keep them (the kernel's
code, other kept declarations, macros, conditions), and what is never removed."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from export_prune import declaration_name, prune_unused  # noqa: E402


def exported(header, kernel):
    return "\n".join(
        ["// ======== k.cu ========", "// ---- begin lib.h (inlined) ----"]
        + header
        + ["// ---- end lib.h ----"]
        + kernel
    )


class DeclarationNames(unittest.TestCase):
    def test_kinds(self):
        cases = {
            "template <class T, int N> __device__ __forceinline__ T sum(const T *p)": "sum",
            "template <class... P, class... A> [[nodiscard]] bool try_go(void (*k)(P...), A &&...a)":
            "try_go",
            "__global__ void __launch_bounds__(256, 2) kernel(int *d, int n)": "kernel",
            "struct Shape": "Shape",
            "template <> struct Vec4<float>": "Vec4",
            "enum class Form : int": "Form",
            "using Word = unsigned": "Word",
            "inline constexpr int kThreads = 256": "kThreads",
            "__device__ unsigned g_counts[kMax]": "g_counts",
            "inline int f(int x = g(1))": "f",
        }
        for head, name in cases.items():
            self.assertEqual(declaration_name(head), name, head)

    def test_never_removable(self):
        self.assertIsNone(declaration_name("inline float4 operator+(float4 a, float4 b)"))
        self.assertIsNone(declaration_name('static_assert(sizeof(int) == 4, "x")'))


class Pruning(unittest.TestCase):
    def test_unused_chain_goes_used_stays(self):
        header = [
            "namespace lib {",
            "",
            "// Only helper() uses it.",
            "inline int inner() { return 1; }",
            "",
            "inline int helper() {",
            "  return inner() + 1;",
            "}",
            "",
            "// What the kernel calls.",
            "inline int used(int x) { return x * 2; }",
            "",
            "} // namespace lib",
        ]
        text = prune_unused(exported(header, ["int main() { return lib::used(3); }"]))
        self.assertIn("inline int used(int x)", text)
        self.assertIn("// What the kernel calls.", text)
        self.assertNotIn("helper", text)
        self.assertNotIn("inner", text)
        self.assertNotIn("Only helper() uses it.", text)

    def test_uses_in_macros_conditions_and_overloads_keep(self):
        header = [
            "namespace lib {",
            "inline void check(int e) {}",
            "inline int over(int x) { return x; }",
            "inline int over(float x) { return 0; }",
            "} // namespace lib",
            "#define CHECK(x) ::lib::check(x)",
            "#define UNUSED_MACRO(x) (x)",
            "#define LONG_UNUSED(x) \\",
            "  ((x) + 1)",
            "#define KEEP_FLAG 1",
        ]
        kernel = ["#if KEEP_FLAG", "int main() { CHECK(0); return lib::over(1); }", "#endif"]
        text = prune_unused(exported(header, kernel))
        self.assertIn("inline void check", text)
        self.assertEqual(text.count("inline int over"), 2)  # one name: all its overloads stay
        self.assertIn("#define KEEP_FLAG 1", text)
        self.assertNotIn("UNUSED_MACRO", text)
        self.assertNotIn("LONG_UNUSED", text)
        self.assertNotIn("((x) + 1)", text)

    def test_kernel_file_untouched_and_empty_blocks_removed(self):
        header = [
            "namespace lib {",
            "#if defined(__CUDACC__)",
            "// Nobody calls it.",
            "__device__ int unused_device() { return 0; }",
            "#endif",
            "namespace detail {",
            "inline int unused_detail() { return 0; }",
            "}",
            "} // namespace lib",
        ]
        kernel = ["static int own_unused() { return 0; }", "int main() { return 0; }"]
        text = prune_unused(exported(header, kernel))
        self.assertIn("static int own_unused()", text)  # the kernel's own file is never pruned
        self.assertNotIn("unused_device", text)
        self.assertNotIn("#if defined(__CUDACC__)", text)
        self.assertNotIn("namespace detail", text)
        self.assertNotIn("namespace lib", text)

    def test_comments_and_strings_are_no_use(self):
        header = [
            "namespace lib {",
            "inline int named_in_prose() { return 0; }",
            "} // namespace lib",
        ]
        kernel = [
            "// named_in_prose() would help here",
            'const char *s = "named_in_prose";',
            "int main() { return 0; }",
        ]
        self.assertNotIn("inline int named_in_prose", prune_unused(exported(header, kernel)))


if __name__ == "__main__":
    unittest.main()
