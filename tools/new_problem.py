#!/usr/bin/env python3
"""Creates a new problem in the kit's layout, registered in its one problem list and building at
once; its tests fail only because the stubs are not implemented (each says which file to fill in).

  new_problem.py leetgpu <name> --signature "const float* input, float* output, int N"
                 [--atol 1e-5] [--rtol 1e-5] [--challenge challenges/<tier>/<id>_<name>]
      writes basics/<name>/ (solve.h, kernel.cu, reference.cpp, example.in, example.out,
      README.md), appends <name> to basics/problems.txt and regenerates basics/README.md's
      problem table (tools/problem_table.py).
  new_problem.py contest <name> [--values float|int] [--verify exact|softmax] [--weight W]
      writes <name>/ (main.cpp, solve.h, solve_cpu.cpp, solve_gpu.cu, tuning.h, reference.h,
      reference.cpp, small_input_limits.h, CMakeLists.txt, README.md, tests/, bench/) for a
      program that reads N then N values and prints N values, and appends <name> to
      contest_problems.txt.
  --root DIR   the kit's folder (default: the folder above this script's).

The generated C++ is formatted with the kit's .clang-format when clang-format is installed.
docs/ADDING-A-PROBLEM.md walks through what to fill in, in which order. Exit status: 0 done,
2 a bad argument or a name already taken (one line on stderr, nothing written).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import problem_table  # noqa: E402 (this folder's module)

# The C++ types the LeetGPU harness can bind (basics/harness/signature.h): array element types,
# by their spelling in a signature, as (element tag, host type in the CPU reference, device type).
ARRAY_TYPES = {
    "float": ("f32", "float", "float"),
    "__half": ("f16", "std::uint16_t", "__half"),
    "half": ("f16", "std::uint16_t", "__half"),
    "int": ("i32", "int", "int"),
    "unsigned int": ("u32", "unsigned int", "unsigned int"),
    "unsigned": ("u32", "unsigned int", "unsigned int"),
    "unsigned char": ("u8", "unsigned char", "unsigned char"),
    "int8_t": ("i8", "std::int8_t", "std::int8_t"),
    "signed char": ("i8", "signed char", "signed char"),
}
SCALAR_TYPES = ("int", "float")
ELEM_ENUM = {"f32": "Elem::f32", "f16": "Elem::f16", "i32": "Elem::i32", "u32": "Elem::u32",
             "u8": "Elem::u8", "i8": "Elem::i8"}
BINDABLE = ("solve's parameters are pointers to float, __half, int, unsigned int, unsigned "
            "char or int8_t, or int or float scalars (basics/harness/signature.h)")
PARAMETER = re.compile(r"^(const\s+)?([A-Za-z_][A-Za-z0-9_ ]*?)\s*(\*?)\s*([A-Za-z_]\w*)$")
NAME = re.compile(r"^[a-z0-9][a-z0-9_]*$")
# Folders of the kit that a problem may not be named after.
RESERVED = {"basics", "common", "cmake", "docs", "testcases", "verify", "tools", "build",
            "submission", "harness", "device", "bench", "tests", "gen", "run_timed", "gpu_info",
            "export_submission"}


class ScaffoldError(Exception):
    pass


class Param:
    def __init__(self, name, spelled_type, is_pointer, is_const):
        self.name = name
        self.is_pointer = is_pointer
        self.is_const = is_const
        if is_pointer:
            self.elem, self.host_type, self.device_type = ARRAY_TYPES[spelled_type]
        else:
            self.elem = "i32" if spelled_type == "int" else "f32"
            self.host_type = self.device_type = spelled_type

    def declaration(self, host):
        base = self.host_type if host else self.device_type
        if not self.is_pointer:
            return f"{base} {self.name}"
        return f"{'const ' if self.is_const else ''}{base} *{self.name}"


def parse_signature(text):
    """The parameters of a judge signature, or ScaffoldError naming the first one the harness
    cannot bind."""
    params = []
    pieces = [piece.strip() for piece in text.split(",")]
    if not text.strip() or any(not piece for piece in pieces):
        raise ScaffoldError(f"--signature '{text}': expected parameters separated by commas")
    for piece in pieces:
        match = PARAMETER.match(piece)
        if not match:
            raise ScaffoldError(f"--signature: '{piece}': {BINDABLE}")
        const, spelled, star, name = match.groups()
        spelled = " ".join(spelled.split())
        if star:
            if spelled not in ARRAY_TYPES:
                raise ScaffoldError(f"--signature: '{piece}': {BINDABLE}")
        elif const or spelled not in SCALAR_TYPES:
            raise ScaffoldError(f"--signature: '{piece}': {BINDABLE}")
        if any(p.name == name for p in params):
            raise ScaffoldError(f"--signature: '{name}' names two parameters")
        params.append(Param(name, spelled, bool(star), bool(const)))
    if not any(p.is_pointer for p in params):
        raise ScaffoldError("--signature: no array: solve writes its answer through a pointer")
    if not any(not p.is_pointer and p.elem == "i32" for p in params):
        raise ScaffoldError("--signature: no int scalar: the harness sizes the arrays from solve's "
                            "int parameters")
    return params


def cpp_identifier(name):
    """The C++ spelling of a problem name, as basics/CMakeLists.txt derives it: a name that
    begins with a digit moves its first word to the end (2d_subarray_sum: subarray_sum_2d)."""
    match = re.match(r"^([0-9][a-z0-9]*)_(.+)$", name)
    return f"{match.group(2)}_{match.group(1)}" if match else name


def fill(template, values):
    for key, value in values.items():
        template = template.replace(f"@{key}@", value)
    leftover = re.search(r"@[A-Z_]+@", template)
    assert not leftover, f"unfilled placeholder {leftover.group(0)}"
    return template


def check_name(name, kind):
    if not NAME.match(name):
        raise ScaffoldError(f"{kind} name '{name}': expected lower-case letters, digits and _")
    if name in RESERVED:
        raise ScaffoldError(f"{kind} name '{name}': a folder of the kit has that name")
    if kind == "contest" and name[0].isdigit():
        raise ScaffoldError(f"contest name '{name}': a program's name must not begin with a "
                            "digit")


def listed_names(list_path):
    names = set()
    with open(list_path) as f:
        for line in f:
            words = line.split()
            if words and not words[0].startswith("#"):
                names.add(words[0])
    return names


def append_line(list_path, line):
    with open(list_path) as f:
        text = f.read()
    if text and not text.endswith("\n"):
        text += "\n"
    with open(list_path, "w") as f:
        f.write(text + line + "\n")


def write_files(folder, files):
    """Writes {relative path: text} under folder, then formats the C++ ones with the kit's
    .clang-format (found above folder) when clang-format is installed."""
    written = []
    for relative, text in files.items():
        path = os.path.join(folder, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        written.append(path)
    cpp = [p for p in written if p.endswith((".h", ".cpp", ".cu"))]
    clang_format = shutil.which("clang-format")
    if clang_format and cpp:
        subprocess.run([clang_format, "-i", "--style=file"] + cpp, check=True)
    elif cpp:
        print("note: clang-format not found: the generated C++ is not formatted", file=sys.stderr)
    return written


def format_number(value):
    """A tolerance as the references write it: 1e-5, 0.05, 1."""
    text = f"{float(value):g}"
    return re.sub(r"e([+-])0*(\d)", lambda m: "e" + m.group(1).replace("+", "") + m.group(2), text)


# ---- LeetGPU ------------------------------------------------------------------------------------

LEETGPU_SOLVE_H = """\
// @NAME@: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it; the build force-includes this header into kernel.cu, so a definition that drifts from it does not compile.
#pragma once
@HALF_INCLUDE@
extern "C" void solve(@DEVICE_PARAMS@);
"""

# A judge signature with __half arrays: the header is included before anything else, also where
# the kit is not on the include path (a kernel built from its export), so it includes the vendor's
# half header itself, chosen by the kit's platform test included by its relative path, as
# basics/fp16_dot_product/solve.h does.
LEETGPU_HALF_INCLUDE = """
// By its path from this file, so that it is found without the kit on the include path.
#include "../../common/gpu/platform.h"

#if KIT_HIP
#include <hip/hip_fp16.h>
#else
#include <cuda_fp16.h>
#endif
"""

LEETGPU_KERNEL = """\
// @NAME@: FILL IN what solve computes (LeetGPU signature, device pointers), then the kernel's design: the pass of common/primitives/ it builds on (or why it needs its own), its launch shape and what bounds it.
#include "gpu/vendor.h"

#include <cstdio>

// Not implemented yet: solve says so once on stderr and writes nothing, so the GPU test fails at its first comparison. The kernel replaces this body; solve does not synchronise (the judge's next operation on the stream is ordered after it).
extern "C" void solve(@DEVICE_PARAMS@) {
  static bool reported = false;
  if (!reported) {
    reported = true;
    std::fprintf(stderr, "not implemented: basics/@NAME@/kernel.cu\\n");
  }
}
"""

LEETGPU_REFERENCE = """\
// @NAME@: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

@INCLUDES@
namespace kit::basics {
namespace {

// FILL IN: the CPU reference, with solve's parameters on host pointers@HALF_NOTE@. Until then it throws, so every host test that reaches it fails saying which file to fill in.
void @IDENT@_reference(@HOST_PARAMS@) {
  throw std::logic_error("not implemented: basics/@NAME@/reference.cpp");
}

} // namespace

const Problem &@IDENT@_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "@NAME@";
    // solve's parameters in order. FILL IN each array's element count as a function of the scalars (count_of("N"), count_of("rows", "cols"), count_one()) and each scalar's range from the challenge's limits. A pointer without const is taken as an output: an array that solve reads and overwrites in place must be changed to inout(...), and an output the judge hands over zero-filled to output_from_zeros(...).
    p.params = {@PARAMS@};
    p.tolerance = {@ATOL@, @RTOL@};
    set_reference(p, @IDENT@_reference);
    // The default input distribution: one entry per input array, in parameter order.
    p.fill = fill_with(p, {@FILLS@});
    // The kit's own cases. FILL IN the awkward sizes around the kernel's tile (the elements one block handles), misalignment and extreme values (basics/README.md, "The harness").
    add_tests(p, {@TESTS@});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its example, its functional cases in order and the case it times. FILL IN: the cases below only have the right structure; replace them with the challenge's own (given({...}), uniform(lo, hi), integers(lo, hi), constant(v)).
    JudgeCases &j = p.judge;
    j.challenge = "@CHALLENGE@";
    j.tolerance = {@ATOL@, @RTOL@};
    j.example = judge_case(p, "example", {@EXAMPLE_SCALARS@}, {@FILLS@});
    add_judge_functional(p, {@FUNCTIONAL_SCALARS@}, {@FILLS@});
    j.performance = judge_case(p, "performance", {@PERFORMANCE_SCALARS@}, {@FILLS@});
    // FILL IN: the least DRAM traffic a solve moves (reads + writes); here every array once.
    p.model = memory_bound([](const Case &c) {
      double bytes = 0;
      for (const std::vector<unsigned char> &array : c.arrays)
        bytes += static_cast<double>(array.size());
      return bytes;
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
"""

LEETGPU_README = """\
# @NAME@

FILL IN: the statement in our words.

- Signature (device pointers, as the LeetGPU judge calls it): `extern "C" void solve(@SIGNATURE@)`
- Limits and the judge's numbers: FILL IN the limits, the performance case. Tolerance @TOLERANCE@.

## Files

- `kernel.cu`: the solution, on the kit's layers (`common/`); builds for CUDA and HIP.
- `solve.h`: the judge's signature, force-included into `kernel.cu` by the build.
- `reference.cpp`: the CPU reference and the harness description (arguments, tolerance, test
  cases, the judge's cases and performance model).
- `example.in` / `example.out`: a small case with a hand-checked answer.

## Kernel

FILL IN: the design, and what bounds it.

## Tests

FILL IN: the kit's cases and the judge's (@CHALLENGE@).

## Measured

FILL IN: `bin/basics/@NAME@ --bench` on a GPU (../README.md, "Benchmark method").
"""


def leetgpu_values(elem, count):
    """`count` easily checked values of an element type, as the case format writes them."""
    return " ".join(str(k + 1) for k in range(count))


def scaffold_leetgpu(root, args):
    name = args.name
    check_name(name, "leetgpu")
    params = parse_signature(args.signature)
    basics = os.path.join(root, "basics")
    folder = os.path.join(basics, name)
    problems = os.path.join(basics, "problems.txt")
    if os.path.exists(folder) or name in listed_names(problems):
        raise ScaffoldError(f"basics/{name} already exists or is listed in basics/problems.txt")
    challenge = args.challenge or f"challenges/<tier>/<id>_{name}"
    if not challenge.startswith("challenges/"):
        raise ScaffoldError(f"--challenge '{challenge}': expected challenges/<tier>/<id>_{name}")
    ident = cpp_identifier(name)
    first_int = next(p.name for p in params if not p.is_pointer and p.elem == "i32")
    scalars = [p for p in params if not p.is_pointer]
    inputs = [p for p in params if p.is_pointer and p.is_const]

    def scalar_list(size):
        return ", ".join(str(size) if p.elem == "i32" else "1" for p in scalars)

    declared = []
    for p in params:
        if not p.is_pointer:
            declared.append(f'scalar("{p.name}", 1, 100000000)' if p.elem == "i32"
                            else f'float_scalar("{p.name}", -1000.0f, 1000.0f)')
        else:
            role = "input" if p.is_const else "output"
            declared.append(f'{role}("{p.name}", {ELEM_ENUM[p.elem]}, count_of("{first_int}"))')
    fills = ", ".join("uniform(-10, 10)" if p.elem in ("f32", "f16") else
                      ("integers(0, 255)" if p.elem == "u8" else "integers(0, 100)")
                      for p in inputs)
    has_half = any(p.elem == "f16" for p in params if p.is_pointer)
    has_int8 = any(p.elem == "i8" for p in params if p.is_pointer)
    includes = ["<cstdint>"] if has_half or has_int8 else []
    includes += ["<stdexcept>", "<vector>"]
    values = {
        "NAME": name,
        "IDENT": ident,
        "CHALLENGE": challenge,
        "ATOL": format_number(args.atol),
        "RTOL": format_number(args.rtol),
        "DEVICE_PARAMS": ", ".join(p.declaration(host=False) for p in params),
        "HOST_PARAMS": ", ".join(p.declaration(host=True) for p in params),
        "HALF_INCLUDE": (LEETGPU_HALF_INCLUDE if has_half else "") +
                        ("\n#include <cstdint>\n" if has_int8 else ""),
        "HALF_NOTE": (" (an f16 array is its IEEE half bits, harness/half.h converts them)"
                      if has_half else ""),
        "INCLUDES": "".join(f"#include {i}\n" for i in includes),
        "PARAMS": ", ".join(declared),
        "FILLS": fills,
        "TESTS": ", ".join("{" + scalar_list(size) + "}" for size in (1, 33, 1025, 4099)),
        "EXAMPLE_SCALARS": scalar_list(4),
        "FUNCTIONAL_SCALARS": scalar_list(1025),
        "PERFORMANCE_SCALARS": scalar_list(1000000),
        "SIGNATURE": args.signature.strip(),
        "TOLERANCE": (f"atol {format_number(args.atol)}, rtol {format_number(args.rtol)}"),
    }
    # example.in: the scalars and the input arrays (4 elements each while every array is sized by
    # the first int scalar, which is 4 here); example.out: the outputs, zeros to be replaced.
    example_in = [f"# {name}: a small example; FILL IN values whose answer is checked by hand in "
                  "example.out", f"problem {name}"]
    example_out = [f"# {name}: FILL IN the hand-checked answer to example.in (placeholder zeros)",
                   f"problem {name}"]
    for p in params:
        if not p.is_pointer:
            example_in.append(f"{p.name} = {4 if p.elem == 'i32' else 1}")
        elif p.is_const:
            example_in += [f"{p.name} {p.elem} 4", leetgpu_values(p.elem, 4)]
        else:
            example_out += [f"{p.name} {p.elem} 4", "0 0 0 0"]
    files = {
        "solve.h": fill(LEETGPU_SOLVE_H, values),
        "kernel.cu": fill(LEETGPU_KERNEL, values),
        "reference.cpp": fill(LEETGPU_REFERENCE, values),
        "README.md": fill(LEETGPU_README, values),
        "example.in": "\n".join(example_in) + "\n",
        "example.out": "\n".join(example_out) + "\n",
    }
    write_files(folder, files)
    small_case = ",".join(f"{p.name}={1025 if p.elem == 'i32' else 1}" for p in scalars)
    append_line(problems, f"{name:<31} {small_case}")
    print(f"created basics/{name}/ ({', '.join(sorted(files))}) and its line in "
          "basics/problems.txt")
    if problem_table.update(root) == 0:
        print("regenerated basics/README.md's problem table (tools/problem_table.py)")
    print(f"""next (docs/ADDING-A-PROBLEM.md):
  1. README.md: the statement; reference.cpp: the parameters' counts and ranges, the CPU
     reference, the kit's cases, the judge's cases from {challenge}
  2. example.in / example.out: a case checked by hand
  3. kernel.cu: the kernel, on common/primitives/ where a pass fits
  host tests: cmake --build build/cpu --target basics_harness_test basics_gen && \\
              ctest --test-dir build/cpu -R 'basics_(harness_test|gen_{name}$)'
  GPU test:   ctest --test-dir build/<preset> -R 'basics_{name}_'
  export:     cmake --build build/<preset> --target export_submission
              (submission/leetgpu/{name}.cu)""")


# ---- Contest ------------------------------------------------------------------------------------

VALUE_KINDS = {
    # --values: (C++ type, ValuesProgram kind, formatter, longest formatted value, README words)
    "float": ("float", "FloatValues", "format_float_g6", "kMaxFloatChars",
              "finite floats, each printed like `std::cout << float` (6 significant digits)"),
    "int": ("int", "Int32Values", "format_int32", "kMaxInt32Chars", "int32 values"),
}

CONTEST_CMAKE = """\
# @NAME@: CPU reference (library shared with the tests and the benchmark), the contest program,
# tests.
add_library(@NAME@_reference STATIC reference.cpp)
target_include_directories(@NAME@_reference PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(@NAME@_reference PUBLIC kit::common kit::io)

set(@UPPER@_GPU_SOURCES solve_gpu.cu)
kit_add_program(@NAME@ HOST_SOURCES main.cpp CPU_SOURCES solve_cpu.cpp
                GPU_SOURCES ${@UPPER@_GPU_SOURCES} LIBRARIES @NAME@_reference kit::program)

add_subdirectory(tests)

# GPU test and benchmark, on the program's kernels (@NAME@_gpu_objects, GPU backends only).
if(TARGET @NAME@_gpu_objects)
  # GPU test: solve() against the CPU reference (label gpu; it skips without a GPU).
  kit_add_gpu_test(@NAME@_gpu_test SOURCES tests/gpu_test.cu
                   LIBRARIES @NAME@_gpu_objects @NAME@_reference)
  # Benchmark (not a test): solve() at a few sizes.
  kit_gpu_sources(bench/bench.cu)
  add_executable(bench_@NAME@ bench/bench.cu)
  target_link_libraries(bench_@NAME@ PRIVATE kit::common @NAME@_gpu_objects @NAME@_reference)
endif()
"""

CONTEST_TESTS_CMAKE = """\
# CPU-side tests of @NAME@: the reference on hand-checked cases, the program on every committed
# case (testcases/<problem>/, none until cases.txt lists some) and on bad and accepted inputs.
include(${PROJECT_SOURCE_DIR}/testcases/KitCaseTests.cmake)

kit_add_host_test(@NAME@_reference_test SOURCES reference_test.cpp
                  LIBRARIES @NAME@_reference)

if(NOT TARGET @NAME@)
  return() # GPU backend without a kernel yet
endif()
kit_add_committed_case_tests(@NAME@ @VERIFY@)
kit_add_program_usage_tests(@NAME@)

set(f "bad_[a-z0-9_]+\\\\.in")
kit_add_bad_input_test(@NAME@ n_zero "0\\n" "${f}:1:1 .*found '0'")
kit_add_bad_input_test(@NAME@ fewer_values "3\\n1\\n2\\n"
                       "${f}:4:1 \\\\(byte 6\\\\): expected 3 values, found only 2")

# FILL IN: the answer to "3\\n1 2 3\\n" as the program prints it (each value and a space, then a
# newline).
kit_add_accepted_input_test(@NAME@ hand_checked "3\\n1 2 3\\n" "^FILL IN the answer \\n$")
"""

CONTEST_README = """\
# @NAME@

FILL IN: the statement in our words (docs/CONTEST.md holds the contest's rules).

- Input: N (1 <= N <= 100,000,000: FILL IN the contest's limit), then N @VALUE_WORDS@.
- Output: one line of N values, each followed by a space.

## Files

- `main.cpp`: the program, `./@NAME@ <input_file>`, on `common/program/values_program.h`.
- `solve.h`: the contest's entry point (host pointers); `solve_cpu.cpp` (CPU backend: the
  reference) and `solve_gpu.cu` (GPU backends: the kernels) implement it.
- `reference.h`, `reference.cpp`: the CPU reference.
- `tuning.h`: the kernels' numbers per GPU family; `small_input_limits.h`: the inputs answered on
  the CPU.
- `tests/`: the reference's unit test, the program's case and input tests, the GPU test.
- `bench/bench.cu`: the benchmark.

## Design

FILL IN: the kernels, and what bounds them.

## Measured

FILL IN: `bench_@NAME@` and the self-test on a GPU.
"""

CONTEST_MAIN = """\
// @NAME@: `./@NAME@ <input_file>` reads N, then N values, and prints N values on one line (FILL
// IN what they are).
#include "io/text_format.h"
#include "program/values_program.h"
#include "reference.h"
#include "small_input_limits.h"
#include "solve.h"

int main(int argc, char **argv) {
  kit::io::ValuesProgram<kit::io::@KIND@> program;
  program.max_count = 100000000; // FILL IN the contest's limit on N
  program.solve = solve;
  program.preload_gpu_code = preload_gpu_code;
  program.reference = @NAME@_reference;
  program.small_input = kSmallInputLimits; // small_input_limits.h
  program.format = kit::io::@FORMAT@;
  program.max_value_chars = kit::io::@MAX_CHARS@;
  return kit::io::run_values_program(argc, argv, program);
}
"""

CONTEST_SOLVE_H = """\
// @NAME@: the contest's entry point (HOST pointers). The CPU backend implements it with the reference (solve_cpu.cpp), the GPU backends with the kernels (solve_gpu.cu). `input == output` is allowed (the program answers in place, common/program/values_program.h).
#pragma once

extern "C" void solve(const @TYPE@ *input, @TYPE@ *output, int N);

// Loads the GPU code that solve() launches (the runtimes load it lazily on first use); the GPU warm-up thread calls it during parsing (common/program/gpu_warmup.h). Nothing on the CPU backend.
void preload_gpu_code();
"""

CONTEST_SOLVE_CPU = """\
// CPU backend: the contest entry point is the reference itself.
#include "reference.h"
#include "solve.h"

#include <cstddef>

extern "C" void solve(const @TYPE@ *input, @TYPE@ *output, int N) {
  @NAME@_reference(input, output, N > 0 ? static_cast<std::size_t>(N) : 0);
}

void preload_gpu_code() {}
"""

CONTEST_SOLVE_GPU = """\
// GPU backend of the contest entry point (solve.h): HOST pointers in and out. FILL IN: the kernels (a kernel.h beside this file once they grow), on the kit's layers (common/: gpu/ for the vendor layer and launches, collectives/, primitives/), their numbers from tuning.h through kit::gpu::with_tuning.
#include "gpu/tuning_dispatch.h"
#include "gpu/vendor.h"
#include "solve.h"
#include "tuning.h"

#include <cstdio>

// Every table's blocks are whole wavefronts of 64 (gfx908), hence whole warps of 32 too.
static_assert(@NAME@::Tuning<kit::gpu::GpuArch::sm90>::kThreads % 64 == 0 && @NAME@::Tuning<kit::gpu::GpuArch::gfx908>::kThreads % 64 == 0, "blocks of whole wavefronts");

void preload_gpu_code() {}

// Not implemented yet: solve says so once on stderr and leaves the output as it is, so the GPU test fails at its first comparison.
extern "C" void solve(const @TYPE@ *input, @TYPE@ *output, int N) {
  static bool reported = false;
  if (!reported) {
    reported = true;
    std::fprintf(stderr, "not implemented: @NAME@/solve_gpu.cu\\n");
  }
}
"""

CONTEST_TUNING = """\
// The tuning numbers of the @NAME@ kernels, one table per GPU family (kit::gpu::GpuArch), chosen at run time with kit::gpu::with_tuning. Kernels are templated on the values, so tables that agree share their kernels; what depends on the device itself (multiprocessors, shared memory) is read from it at run time. FILL IN each number with where it comes from (a measurement, or the reasoning when none was made).
#pragma once

#include "gpu/tuning_dispatch.h"

namespace @NAME@ {

template <kit::gpu::GpuArch> struct Tuning;

// NVIDIA Hopper (H100, H200): not measured yet.
template <> struct Tuning<kit::gpu::GpuArch::sm90> {
  static constexpr int kThreads = 256;
};

// NVIDIA Blackwell (B200): not measured; Hopper's table.
template <> struct Tuning<kit::gpu::GpuArch::sm100> : Tuning<kit::gpu::GpuArch::sm90> {};

// AMD MI100 (gfx908, wavefront 64): not measured; block sizes are multiples of 64.
template <> struct Tuning<kit::gpu::GpuArch::gfx908> {
  static constexpr int kThreads = 256;
};

} // namespace @NAME@
"""

CONTEST_SMALL_INPUT = """\
// @NAME@'s small-input limits on N (program/small_input.h; top README, "Small inputs"). GPU builds answer inputs up to `contest` with the CPU reference by default, up to `fastest` with KIT_SMALL_INPUT=fastest. FILL IN both from measurements (testcases/bench/small_input_sweep.sh); they stay one line holding two integer literals, which testcases/KitCaseTests.cmake can read.
#pragma once

#include "program/small_input.h"

inline constexpr kit::io::SmallInputLimits kSmallInputLimits{1000, 100000}; // contest, fastest
"""

CONTEST_REFERENCE_H = """\
// CPU reference of @NAME@: FILL IN what it computes and how (exactly, or the order of its sums).
#pragma once

#include <cstddef>

void @NAME@_reference(const @TYPE@ *input, @TYPE@ *output, std::size_t n);
"""

CONTEST_REFERENCE_CPP = """\
#include "reference.h"

#include <stdexcept>

// FILL IN: the reference. It must allow input == output (the program answers in place). Until then it throws, so every test that reaches it fails saying which file to fill in.
void @NAME@_reference(const @TYPE@ *input, @TYPE@ *output, std::size_t n) {
  (void)input;
  (void)output;
  (void)n;
  throw std::logic_error("not implemented: @NAME@/reference.cpp");
}
"""

CONTEST_REFERENCE_TEST = """\
// @NAME@_reference on hand-checked cases.
#include "reference.h"

#include <gtest/gtest.h>
#include <vector>

namespace {

// FILL IN: the answer to {1, 2, 3}, worked out by hand; then further cases (one value, sizes around the kernels' tiles, extreme values, the reference's independence of the thread count).
TEST(@CAMEL@Reference, HandCheckedCase) {
  const std::vector<@TYPE@> input = {1, 2, 3};
  const std::vector<@TYPE@> expected = {0, 0, 0}; // FILL IN
  std::vector<@TYPE@> got(input.size());
  @NAME@_reference(input.data(), got.data(), input.size());
  EXPECT_EQ(got, expected);
}

} // namespace
"""

CONTEST_GPU_TEST = """\
// GPU test of @NAME@: solve() (host pointers) against the CPU reference on awkward sizes; skips without a GPU. FILL IN the comparison rule (the contest's, as `verify @VERIFY@` applies it) and the edge families.
#include "reference.h"
#include "solve.h"
#include "testing/random.h"
#include "testing/test_support.h"

#include <cstdio>
#include <vector>

int main() {
  kit::test::begin_gpu_test("@NAME@_gpu_test");
  int failures = 0;
  for (std::size_t n : {1, 2, 31, 33, 1023, 1025, 1000003}) {
    std::vector<@TYPE@> input(n);
    for (std::size_t i = 0; i < n; ++i)
      input[i] = static_cast<@TYPE@>(i % 17);
    std::vector<@TYPE@> expected(n), got(n);
    @NAME@_reference(input.data(), expected.data(), n);
    solve(input.data(), got.data(), static_cast<int>(n));
    const bool same = got == expected;
    std::printf("%s n = %zu\\n", same ? "PASS" : "FAIL", n);
    failures += same ? 0 : 1;
  }
  return failures == 0 ? 0 : 1;
}
"""

CONTEST_BENCH = """\
// Benchmark of @NAME@ (not a test): solve() with host pointers, the whole call as the program makes it, at a few sizes. FILL IN the kernels' own times (common/bench/event_timing.h), the limit they are measured against (a same-byte copy) and the baselines.
#include "solve.h"

#include <chrono>
#include <cstdio>
#include <vector>

int main() {
  preload_gpu_code();
  for (std::size_t n : {1000000, 10000000, 100000000}) {
    std::vector<@TYPE@> input(n, 1), output(n);
    solve(input.data(), output.data(), static_cast<int>(n)); // warm-up
    const auto start = std::chrono::steady_clock::now();
    solve(input.data(), output.data(), static_cast<int>(n));
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("@NAME@ N = %zu: %.3f ms\\n", n, ms);
  }
  return 0;
}
"""


def scaffold_contest(root, args):
    name = args.name
    check_name(name, "contest")
    folder = os.path.join(root, name)
    problems = os.path.join(root, "contest_problems.txt")
    if os.path.exists(folder) or name in listed_names(problems):
        raise ScaffoldError(f"{name}/ already exists or is listed in contest_problems.txt")
    if not re.match(r"^[0-9]+(\.[0-9]+)?$", args.weight):
        raise ScaffoldError(f"--weight '{args.weight}': expected a number such as 1 or 2.5")
    value_type, kind, formatter, max_chars, words = VALUE_KINDS[args.values]
    values = {
        "NAME": name,
        "UPPER": name.upper(),
        "CAMEL": "".join(word.capitalize() for word in name.split("_")),
        "TYPE": value_type,
        "KIND": kind,
        "FORMAT": formatter,
        "MAX_CHARS": max_chars,
        "VALUE_WORDS": words,
        "VERIFY": args.verify,
    }
    files = {
        "CMakeLists.txt": CONTEST_CMAKE,
        "README.md": CONTEST_README,
        "main.cpp": CONTEST_MAIN,
        "solve.h": CONTEST_SOLVE_H,
        "solve_cpu.cpp": CONTEST_SOLVE_CPU,
        "solve_gpu.cu": CONTEST_SOLVE_GPU,
        "tuning.h": CONTEST_TUNING,
        "small_input_limits.h": CONTEST_SMALL_INPUT,
        "reference.h": CONTEST_REFERENCE_H,
        "reference.cpp": CONTEST_REFERENCE_CPP,
        "tests/CMakeLists.txt": CONTEST_TESTS_CMAKE,
        "tests/reference_test.cpp": CONTEST_REFERENCE_TEST,
        "tests/gpu_test.cu": CONTEST_GPU_TEST,
        "bench/bench.cu": CONTEST_BENCH,
    }
    write_files(folder, {path: fill(text, values) for path, text in files.items()})
    append_line(problems, f"{name:<11} {args.verify:<8} {args.weight}")
    print(f"created {name}/ ({', '.join(sorted(files))}) and its line in contest_problems.txt")
    print(f"""next (docs/ADDING-A-PROBLEM.md):
  1. README.md: the statement; reference.cpp and tests/reference_test.cpp: the CPU reference
  2. testcases/: a family in gen.cpp, lines in cases.txt, then bash testcases/regenerate.sh
  3. solve_gpu.cu (and a kernel.h): the kernels, on common/; tuning.h: their numbers
  4. tests/: the accepted-input answer, bad inputs, the GPU test's rule; bench/bench.cu
  host tests: cmake --build build/cpu --target {name} {name}_reference_test && \\
              ctest --test-dir build/cpu -R '^{name}_'
  GPU test:   ctest --test-dir build/<preset> -R '^{name}_gpu_test$'
  export:     cmake --build build/<preset> --target export_submission
              (submission/hip_programming_contest/{name}/); the self-test runs it too""")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(
        __file__))), help="the kit's folder")
    kinds = parser.add_subparsers(dest="kind", required=True)
    leetgpu = kinds.add_parser("leetgpu", help="a LeetGPU problem under basics/")
    leetgpu.add_argument("name")
    leetgpu.add_argument("--signature", required=True,
                         help="solve's parameters, e.g. "
                              '"const float* input, float* output, int N"')
    leetgpu.add_argument("--atol", type=float, default=1e-5)
    leetgpu.add_argument("--rtol", type=float, default=1e-5)
    leetgpu.add_argument("--challenge",
                         help="the challenge's folder, challenges/<tier>/<id>_<name>")
    contest = kinds.add_parser("contest", help="a contest problem (a program) at the top level")
    contest.add_argument("name")
    contest.add_argument("--values", choices=sorted(VALUE_KINDS), default="float",
                         help="the type of the N values read and printed")
    contest.add_argument("--verify", choices=("exact", "softmax"), default="exact",
                         help="the rule `verify` compares the output with")
    contest.add_argument("--weight", default="1", help="its factor in the weighted score")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    try:
        if not os.path.isfile(os.path.join(root, "contest_problems.txt")):
            raise ScaffoldError(f"--root {root}: not the kit (no contest_problems.txt)")
        if args.kind == "leetgpu":
            scaffold_leetgpu(root, args)
        else:
            scaffold_contest(root, args)
    except ScaffoldError as error:
        print(f"new_problem.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
