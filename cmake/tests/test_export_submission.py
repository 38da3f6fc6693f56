#!/usr/bin/env python3
"""Unit tests of cmake/export_submission.py on a small fixture tree (export_fixture/).

The fixture has a contest-style program `toy` (main.cpp, a library source, a kernel, solve.h
including another header, a compile definition, a header first included inside a false #if) and
a LeetGPU-style export_fixture/basics/vec/kernel.cu. Its export_fixture/common/gpu.h picks the backend as the kit's vendor
header does, with the kinds of conditions the backend pass resolves (plain, compound, #elif, a
header included only under the MI100 persona, comments about either branch). The exported files
are compiled and run with the host C++ compiler (the fixture's "kernels" are plain C++), through
the generated Makefile, so an inlining mistake (a missing or duplicated definition, two sources'
internal names clashing) or a wrongly resolved branch fails the test. The backend pass's tests
need unifdef and are skipped without it.
Run: python3 cmake/tests/test_export_submission.py
"""

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import export_submission  # noqa: E402

FIXTURE = os.path.join(HERE, "export_fixture")
CXX = shutil.which("g++") or shutil.which("c++") or shutil.which("clang++")
UNIFDEF = shutil.which("unifdef")
# What a CUDA export must not speak of: HIP (as a word's start: hipcc, __HIPCC__, not "chip") and
# the persona.
HIP_OR_PERSONA = re.compile(r"(?<![a-z])hip|persona", re.IGNORECASE)


def host_compiler_as_hipcc(folder):
    """A stand-in for hipcc: the host compiler, compiling .hip files as C++."""
    path = os.path.join(folder, "fake-hipcc")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n")
        f.write(f'case " $* " in *" -c "*) exec {CXX} -x c++ "$@" ;; esac\n')
        f.write(f'exec {CXX} "$@"\n')
    os.chmod(path, 0o755)
    return path


def toy_program(root, **overrides):
    program = {
        "name": "toy",
        "source_dir": os.path.join(root, "toy"),
        "built": 1,
        "host_sources": [os.path.join(root, "toy", "main.cpp")],
        "cpu_sources": [os.path.join(root, "toy", "solve_cpu.cpp")],
        "gpu_sources": [
            os.path.join(root, "toy", "kernel.cu"),
            os.path.join(root, "toy", "kernel_helper.cu"),
        ],
        "library_sources": [os.path.join(root, "common", "text.cpp")],
        "include_dirs": [os.path.join(root, "common")],
        "compile_definitions": ["KIT_BACKEND_CPU=1", "FIXTURE_OFFSET=3", "$<$<CONFIG:Debug>:X>"],
        "link_libraries": [],
    }
    program.update(overrides)
    return program


class FixtureCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="kit-export-test-")
        self.root = os.path.join(self.tmp, "src")
        shutil.copytree(FIXTURE, self.root)
        self.out = os.path.join(self.tmp, "submission")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_export(self, programs=None, extra_args=()):
        manifest = {
            "version": 1,
            "source_root": self.root,
            "backend": "CPU",
            "common_include_dirs": [os.path.join(self.root, "common")],
            "programs": programs if programs is not None else [toy_program(self.root)],
        }
        path = os.path.join(self.tmp, "kit_programs.json")
        with open(path, "w") as f:
            json.dump(manifest, f)
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            rc = export_submission.main(["--manifest", path, "--out", self.out, *extra_args])
        return rc, stdout.getvalue(), stderr.getvalue()

    def read(self, *parts):
        with open(os.path.join(self.out, *parts)) as f:
            return f.read()

    def append(self, relative, text):
        with open(os.path.join(self.root, relative), "a") as f:
            f.write(text)


class ExportTest(FixtureCase):
    def test_contest_folder_has_the_four_files_and_no_project_includes(self):
        rc, out, err = self.run_export()
        self.assertEqual(rc, 0, err)
        folder = os.path.join(self.out, "hip_programming_contest", "toy")
        self.assertEqual(
            sorted(os.listdir(folder)), ["Makefile", "kernel.hip", "main.cpp", "main.h"]
        )
        for name in ("main.cpp", "kernel.hip", "main.h"):
            text = self.read("hip_programming_contest", "toy", name)
            self.assertNotIn("#pragma once", text, name)
            quoted = [l for l in text.splitlines() if l.lstrip().startswith('#include "')]
            expected = {
                "main.h": [],
                "kernel.hip": ['#include "main.h"'],
                # the second one sits inside a /* */ comment of export_fixture/toy/main.cpp
                "main.cpp": ['#include "main.h"', '#include "does_not_exist.h"'],
            }
            self.assertEqual(quoted, expected[name], name)
        self.assertIn("contest: toy ->", out)

    def test_exported_files_compile_and_run_through_the_makefile(self):
        if not CXX or not shutil.which("make"):
            self.skipTest("no C++ compiler or make")
        rc, _, err = self.run_export()
        self.assertEqual(rc, 0, err)
        folder = os.path.join(self.out, "hip_programming_contest", "toy")
        hipcc = host_compiler_as_hipcc(self.tmp)
        build = subprocess.run(
            ["make", f"HIPCC={hipcc}"], cwd=folder, capture_output=True, text=True
        )
        self.assertEqual(build.returncode, 0, build.stdout + build.stderr)
        run = subprocess.run(["./toy"], cwd=folder, capture_output=True, text=True)
        # solve = kScale(kernel.cu) * (FIXTURE_OFFSET + 1) + kScale(helper) * kFixtureOnlyIf,
        # printed with main.cpp's and text.cpp's own kPrefix
        self.assertEqual(run.stdout, "main: value=15\n")
        clean = subprocess.run(["make", "clean"], cwd=folder, capture_output=True, text=True)
        self.assertEqual(clean.returncode, 0)
        self.assertEqual(
            sorted(os.listdir(folder)), ["Makefile", "kernel.hip", "main.cpp", "main.h"]
        )

    def test_several_sources_become_units_selected_by_kit_unit(self):
        if not CXX:
            self.skipTest("no C++ compiler")
        rc, _, err = self.run_export()
        self.assertEqual(rc, 0, err)
        folder = os.path.join(self.out, "hip_programming_contest", "toy")
        kernel = self.read("hip_programming_contest", "toy", "kernel.hip")
        self.assertIn("#if KIT_UNIT == 1\n// ======== toy/kernel.cu", kernel)
        self.assertIn("#if KIT_UNIT == 2\n// ======== toy/kernel_helper.cu", kernel)
        whole = subprocess.run(
            [CXX, "-x", "c++", "-std=c++17", "-fsyntax-only", "kernel.hip"],
            cwd=folder, capture_output=True, text=True,
        )
        self.assertNotEqual(whole.returncode, 0)
        self.assertIn("compile it with -DKIT_UNIT=1..2", whole.stderr)

    def test_makefile_offload_arch_is_optional(self):
        rc, _, err = self.run_export()
        self.assertEqual(rc, 0, err)
        folder = os.path.join(self.out, "hip_programming_contest", "toy")
        plain = subprocess.run(["make", "-n"], cwd=folder, capture_output=True, text=True).stdout
        self.assertIn("hipcc", plain)
        self.assertNotIn("--offload-arch", plain)
        cross = subprocess.run(
            ["make", "-n", "OFFLOAD_ARCH=gfx908", "HIPFLAGS=--rocm-path=/usr"],
            cwd=folder, capture_output=True, text=True,
        ).stdout
        flags = "--offload-arch=gfx908 --rocm-path=/usr"
        self.assertIn(f"{flags} -DKIT_UNIT=2 -c main.cpp -o main_2.o", cross)
        self.assertIn("--rocm-path=/usr main_1.o main_2.o kernel_1.o kernel_2.o -o toy", cross)

    def test_headers_are_inlined_once_unless_first_seen_under_an_if(self):
        self.run_export()
        main_cpp = self.read("hip_programming_contest", "toy", "main.cpp")
        kernel = self.read("hip_programming_contest", "toy", "kernel.hip")
        # types.h: once in main.cpp's unit 1 (before main.h); solve.h never (main.h stands for it).
        self.assertEqual(main_cpp.count("// ---- begin toy/types.h"), 1)
        self.assertNotIn("begin toy/solve.h", main_cpp)
        # gpu.h reached from text.cpp's unit only: once, with its nested header.
        self.assertEqual(main_cpp.count("// ---- begin common/gpu.h"), 1)
        self.assertEqual(main_cpp.count("// ---- begin common/detail/vendor.h"), 1)
        # only_if.h: under the #if, then again (guarded) for the unconditional angle include.
        self.assertEqual(main_cpp.count("// ---- begin common/only_if.h"), 2)
        self.assertIn('#include "does_not_exist.h"', main_cpp)  # inside a comment: untouched
        self.assertIn("#include <cstdio>", main_cpp)
        self.assertEqual(kernel.count("// ---- begin common/gpu.h"), 1)
        self.assertIn('#include "main.h"', kernel)

    def test_definitions_pin_the_backend_to_hip_and_keep_the_program_options(self):
        self.run_export()
        for name in ("main.cpp", "kernel.hip"):
            text = self.read("hip_programming_contest", "toy", name)
            self.assertIn("#define KIT_BACKEND_HIP 1", text)
            self.assertIn("#define FIXTURE_OFFSET 3", text)
            self.assertNotIn("KIT_BACKEND_CPU", text)
            self.assertNotIn("$<", text)

    def test_main_h_is_the_solve_header_with_its_includes(self):
        self.run_export()
        main_h = self.read("hip_programming_contest", "toy", "main.h")
        self.assertIn('extern "C" int solve(const FixturePair *pair);', main_h)
        self.assertIn("struct FixturePair", main_h)
        self.assertIn("#ifndef KIT_INLINED_TOY_TYPES_H", main_h)

    def test_program_without_gpu_sources_is_not_exported(self):
        rc, out, err = self.run_export([toy_program(self.root, gpu_sources=[])])
        self.assertEqual(rc, 0, err)
        self.assertFalse(os.path.exists(os.path.join(self.out, "hip_programming_contest", "toy")))
        self.assertIn("toy skipped (no GPU kernel", out)

    def test_leetgpu_file_is_one_self_contained_file(self):
        if not CXX:
            self.skipTest("no C++ compiler")
        rc, out, err = self.run_export()
        self.assertEqual(rc, 0, err)
        path = os.path.join(self.out, "leetgpu", "vec.cu")
        text = self.read("leetgpu", "vec.cu")
        self.assertNotIn('#include "', text)
        self.assertIn('extern "C" void solve(const float *a, float *b, int n)', text)
        compile_ = subprocess.run(
            [CXX, "-x", "c++", "-std=c++17", "-c", path, "-o", os.path.join(self.tmp, "vec.o")],
            capture_output=True, text=True,
        )
        self.assertEqual(compile_.returncode, 0, compile_.stderr)

    def test_leetgpu_kernel_without_solve_is_an_error(self):
        os.makedirs(os.path.join(self.root, "basics", "nosolve"))
        with open(os.path.join(self.root, "basics", "nosolve", "kernel.cu"), "w") as f:
            f.write('#include "gpu.h"\nvoid helper() {}\n')
        rc, _, err = self.run_export()
        self.assertEqual(rc, 2)
        self.assertIn("nosolve/kernel.cu", err)
        self.assertIn('no extern "C" void solve', err)

    def test_unresolved_quoted_include_names_the_file_and_line(self):
        kernel = os.path.join(self.root, "toy", "kernel.cu")
        with open(kernel) as f:
            line = len(f.read().splitlines()) + 1
        with open(kernel, "a") as f:
            f.write('#include "missing_header.h"\n')
        rc, _, err = self.run_export()
        self.assertEqual(rc, 2)
        self.assertIn(f"toy/kernel.cu:{line}:", err)
        self.assertIn('"missing_header.h" not found', err)
        self.assertEqual(len(err.strip().splitlines()), 1)

    def test_include_cycle_terminates(self):
        with open(os.path.join(self.root, "common", "detail", "vendor.h"), "a") as f:
            f.write('#include "../gpu.h"\n')
        rc, _, err = self.run_export()
        self.assertEqual(rc, 0, err)
        self.assertIn("inlined above", self.read("hip_programming_contest", "toy", "kernel.hip"))

    def test_refuses_to_clear_a_folder_it_did_not_create(self):
        os.makedirs(self.out)
        with open(os.path.join(self.out, "precious.txt"), "w") as f:
            f.write("keep me\n")
        rc, _, err = self.run_export()
        self.assertEqual(rc, 2)
        self.assertIn("was not created by the exporter", err)
        self.assertTrue(os.path.exists(os.path.join(self.out, "precious.txt")))

    def test_reexport_removes_stale_problems(self):
        self.assertEqual(self.run_export()[0], 0)
        stale = os.path.join(self.out, "hip_programming_contest", "gone")
        os.makedirs(stale)
        self.assertEqual(self.run_export()[0], 0)
        self.assertFalse(os.path.exists(stale))
        self.assertTrue(os.path.isdir(os.path.join(self.out, "hip_programming_contest", "toy")))

    def test_bad_manifest_is_reported(self):
        path = os.path.join(self.tmp, "broken.json")
        with open(path, "w") as f:
            f.write("{ not json")
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            rc = export_submission.main(["--manifest", path, "--out", self.out])
        self.assertEqual(rc, 2)
        self.assertIn("broken.json: line 1: invalid JSON", stderr.getvalue())




@unittest.skipUnless(UNIFDEF, "unifdef is not installed")
class BackendPassTest(FixtureCase):
    """The exports with their backend branches resolved: LeetGPU files for CUDA, contest folders
    for HIP."""

    def test_leetgpu_file_holds_only_the_cuda_branch(self):
        rc, _, err = self.run_export(extra_args=["--backend-pass", "on"])
        self.assertEqual(rc, 0, err)
        text = self.read("leetgpu", "vec.cu")
        self.assertIsNone(HIP_OR_PERSONA.search(text), text)
        self.assertNotRegex(text, r"\bKIT_(CUDA|HIP)\b")
        self.assertIn("inline constexpr int kFixtureWarp = 32;", text)
        self.assertNotIn("kFixtureWarp = 64", text)
        self.assertNotIn("persona.h", text)
        # a compound condition keeps what the backend does not decide (__CUDA_ARCH__: host and
        # device passes differ); __CUDACC__ is decided (nvcc compiles the whole file)
        self.assertIn("\n#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n", text)
        self.assertNotIn("__CUDACC__", text)
        self.assertIn("inline constexpr bool kFixtureDeviceCompile = true;", text)
        # the comment above a block removed as a whole goes with it
        self.assertNotIn("kFixtureSleepUnit", text)
        self.assertNotIn("AMD's wavefront sleep", text)
        # of a comment about both branches, the paragraph on the removed one goes
        self.assertIn("// Lanes per warp.\ninline constexpr int kFixtureWarp = 32;", text)
        self.assertIn("{ return 2 * fixture_vendor_value(v); }\n", text)
        # comments on the kernel stay; headers inlined once lose their guard, keep their bounds
        self.assertIn("// vec: b[i] = 2 * (a[i] + 1) + the warp width", text)
        self.assertNotIn("KIT_INLINED_", text)
        self.assertIn("// ---- begin common/detail/vendor.h (inlined) ----", text)
        self.assertNotIn("\n\n\n", text)

    def test_leetgpu_file_computes_with_the_cuda_branch(self):
        if not CXX:
            self.skipTest("no C++ compiler")
        rc, _, err = self.run_export(extra_args=["--backend-pass", "on"])
        self.assertEqual(rc, 0, err)
        driver = os.path.join(self.tmp, "driver.cpp")
        with open(driver, "w") as f:
            f.write(
                "#include <cstdio>\n"
                'extern "C" void solve(const float *a, float *b, int n);\n'
                "int main() {\n"
                "  const float a[2] = {1, 2};\n"
                "  float b[2] = {};\n"
                "  solve(a, b, 2);\n"
                '  std::printf("%g %g\\n", b[0], b[1]);\n'
                "}\n"
            )
        binary = os.path.join(self.tmp, "vec")
        build = subprocess.run(
            [CXX, "-std=c++17", "-x", "c++", os.path.join(self.out, "leetgpu", "vec.cu"),
             "-x", "none", driver, "-o", binary],
            capture_output=True, text=True,
        )
        self.assertEqual(build.returncode, 0, build.stderr)
        run = subprocess.run([binary], capture_output=True, text=True)
        self.assertEqual(run.stdout, "36 38\n")  # 2 * (a + 1) + 32 lanes

    def test_contest_folder_holds_only_the_hip_branch(self):
        rc, _, err = self.run_export(extra_args=["--backend-pass", "on"])
        self.assertEqual(rc, 0, err)
        main_cpp = self.read("hip_programming_contest", "toy", "main.cpp")
        self.assertIn("inline constexpr int kFixtureWarp = 64;", main_cpp)
        self.assertIn("// AMD's wavefront sleep, in units of 64 clocks.", main_cpp)
        self.assertNotIn("kFixtureWarp = 32", main_cpp)
        self.assertIn("  return v + 1;\n}", main_cpp)
        self.assertNotIn("return 2 * v;", main_cpp)
        self.assertNotRegex(main_cpp, r"(?i)persona")
        self.assertNotIn("KIT_CUDA", main_cpp)
        self.assertNotIn("#define KIT_HIP", main_cpp)
        # the HIP compiler's own macros are not the export's to decide; guards serve main.h
        self.assertIn("#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)", main_cpp)
        self.assertIn("#ifndef KIT_INLINED_COMMON_GPU_H", main_cpp)
        self.assertIn("#define KIT_BACKEND_HIP 1", main_cpp)

    def test_backend_pass_off_keeps_every_branch(self):
        rc, _, err = self.run_export(extra_args=["--backend-pass", "off"])
        self.assertEqual(rc, 0, err)
        text = self.read("leetgpu", "vec.cu")
        self.assertIn("#if KIT_HIP", text)
        self.assertIn("// ---- begin common/detail/persona.h (inlined) ----", text)

    def test_without_unifdef_auto_exports_every_branch_and_on_fails(self):
        with mock.patch.object(export_submission.shutil, "which", lambda name: None):
            rc, _, err = self.run_export(extra_args=["--backend-pass", "on"])
            self.assertEqual(rc, 2)
            self.assertIn("unifdef not found", err)
            rc, _, err = self.run_export()
        self.assertEqual(rc, 0, err)
        self.assertIn("unifdef not found: the exported files keep every backend branch", err)
        self.assertIn("#if KIT_HIP", self.read("leetgpu", "vec.cu"))

    def test_condition_the_pass_cannot_reduce_is_an_error_naming_the_header(self):
        self.append("common/gpu.h", "#if KIT_CUDA ? 1 : 0\n#endif\n")
        rc, _, err = self.run_export(extra_args=["--backend-pass", "on"])
        self.assertEqual(rc, 2)
        self.assertIn("(in common/gpu.h): cannot resolve `#if KIT_CUDA ? 1 : 0`", err)

    def test_resolved_macro_used_in_code_is_an_error(self):
        self.append("basics/vec/kernel.cu", "static_assert(KIT_CUDA == 1, \"CUDA\");\n")
        rc, _, err = self.run_export(extra_args=["--backend-pass", "on"])
        self.assertEqual(rc, 2)
        self.assertIn("basics/vec/kernel.cu: KIT_CUDA still used once the backend is resolved", err)

    def resolve(self, text, backend=export_submission.CUDA_BACKEND):
        return export_submission.BackendPass(backend, UNIFDEF).run(text, "test.h")

    def test_elif_and_nested_conditions_are_reduced(self):
        text = (
            "#if defined(A)\n"
            "int a;\n"
            "#elif KIT_CUDA && defined(__CUDA_ARCH__)\n"
            "int b;\n"
            "#endif\n"
            "#if (KIT_CUDA && defined(B)) || defined(KIT_HIP)\n"
            "int c;\n"
            "#endif\n"
        )
        self.assertEqual(
            self.resolve(text),
            "#if defined(A)\nint a;\n#elif defined(__CUDA_ARCH__)\nint b;\n#endif\n"
            "#if (defined(B))\nint c;\n#endif\n",
        )

    def test_comment_paragraphs_are_judged_apart_and_blank_runs_collapse(self):
        text = (
            "// Block size.\n"
            "//\n"
            "// 512 under the MI100 persona.\n"
            "#if defined(KIT_PERSONA_GFX908)\n"
            "constexpr int kBlock = 512;\n"
            "\n"
            "\n"
            "#else\n"
            "constexpr int kBlock = 1024; // 512 on HIP\n"
            "#endif\n"
            "\n"
            "\n"
            "int chip_count; // a chip, not HIP\n"
        )
        self.assertEqual(
            self.resolve(text),
            "// Block size.\nconstexpr int kBlock = 1024;\n\nint chip_count;\n",
        )

    def test_operand_helpers(self):
        operands = export_submission.top_level_operands
        self.assertEqual(operands("a || b && c"), ("||", ["a", "b && c"]))
        self.assertEqual(operands("(a || b) && c"), ("&&", ["(a || b)", "c"]))
        self.assertEqual(operands("a ? b : c"), (None, ["a ? b : c"]))
        inner = export_submission.outer_parenthesised
        self.assertEqual(inner("(a && (b))"), "a && (b)")
        self.assertIsNone(inner("(a) && (b)"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
