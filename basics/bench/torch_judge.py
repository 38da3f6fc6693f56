#!/usr/bin/env python3
"""The LeetGPU judge's own procedure, for the problems whose answers are long FP32 sums.

The judge compiles the submitted file, calls its `solve` through ctypes on torch tensors and
compares every output element with torch's result for the same inputs:
|out - ref| <= atol + rtol * |ref|. Where an output is a sum of thousands of products, that
tolerance is below FP32 rounding near zero, so torch's order of summation is part of what must be
matched (basics/matrix_multiplication/README.md). This runs the kit's exported files that way:
each `leetgpu/<name>.cu` is built as a shared library with nvcc, every random case of the
challenge (its functional cases and its performance case, at their sizes and distributions) is
run with several seeds, outputs filled with NaN first, and each case prints how many elements are
outside the tolerance and the largest difference from torch's result (0: bit for bit torch's).
The torch expressions are ours, written from the problems' statements.

    python3 basics/bench/torch_judge.py EXPORT_DIR [problem ...]

EXPORT_DIR is an export's folder (cmake/export_submission.py --out), holding leetgpu/<name>.cu.
Needs torch with a GPU and nvcc. Exit status 0 when no element of any case is outside the
tolerance.
"""
import argparse
import ctypes
import os
import subprocess
import sys
import tempfile

import torch

SEEDS = (1, 2, 3)
FLOAT_P = ctypes.POINTER(ctypes.c_float)


def uniform(shape, lo, hi):
    return torch.empty(shape, device="cuda", dtype=torch.float32).uniform_(lo, hi)


def matrix_multiplication():
    """C = A B with A M x N, B N x K; the challenge's random cases: (M, N, K, bound)."""
    cases = [(4, 4, 4, 10), (8, 6, 10, 10), (16, 12, 20, 10), (32, 8, 16, 10), (8, 16, 32, 10),
             (1, 1, 1, 1), (1, 5, 3, 1), (5, 3, 1, 1), (8192, 6144, 4096, 1),
             (8192, 6144, 4096, 10)]
    for m, n, k, bound in cases:
        a, b = uniform((m, n), -bound, bound), uniform((n, k), -bound, bound)

        def run(solve, out, a=a, b=b, m=m, n=n, k=k):
            solve(ctypes.cast(a.data_ptr(), FLOAT_P), ctypes.cast(b.data_ptr(), FLOAT_P),
                  ctypes.cast(out.data_ptr(), FLOAT_P), m, n, k)

        yield f"M={m},N={n},K={k}, U(-{bound}, {bound})", (m, k), run, torch.matmul(a, b)


def convolution_1d():
    """Valid cross-correlation; the challenge's random cases: (input_size, kernel_size, input
    bound, kernel bound)."""
    cases = [(10, 3, 10, 1), (100, 7, 10, 1), (1000, 15, 10, 1), (50, 20, 10, 1),
             (200, 2, 10, 1), (1, 1, 1, 0.1), (10, 10, 1, 0.1), (10000, 3, 1, 0.1),
             (1500000, 2047, 1, 1)]
    for size, taps, x_bound, k_bound in cases:
        x, w = uniform((size,), -x_bound, x_bound), uniform((taps,), -k_bound, k_bound)

        def run(solve, out, x=x, w=w, size=size, taps=taps):
            solve(ctypes.cast(x.data_ptr(), FLOAT_P), ctypes.cast(w.data_ptr(), FLOAT_P),
                  ctypes.cast(out.data_ptr(), FLOAT_P), size, taps)

        reference = torch.einsum("ij,j->i", x.unfold(0, taps, 1), w)
        yield f"input_size={size},kernel_size={taps}", (size - taps + 1,), run, reference


def gemm():
    """C = alpha A B + beta C on fp16 (A M x K, B K x N, C M x N, C read and overwritten), the
    judge's way: float32 copies multiplied, scaled and added in float32, rounded to fp16. The
    challenge's random cases: (M, N, K, alpha, beta, bound of A and B, bound of C or None for
    zeros). The fp16 result is compared as float32."""
    half_p = ctypes.POINTER(ctypes.c_uint16)
    cases = [(16, 16, 16, 1.0, 0.0, 1.0, None), (16, 16, 16, 1.0, 1.0, 0.5, 0.5),
             (32, 16, 16, 0.5, 0.5, 1.0, 1.0), (16, 32, 16, 1.0, 1.0, 1.0, 1.0),
             (16, 16, 32, 0.0, 1.0, 1.0, 1.0), (1024, 1024, 1024, 1.0, 1.0, 1.0, 1.0)]
    for m, n, k, alpha, beta, bound, c_bound in cases:
        a = uniform((m, k), -bound, bound).half()
        b = uniform((k, n), -bound, bound).half()
        c = (uniform((m, n), -c_bound, c_bound) if c_bound else torch.zeros(m, n,
                                                                             device="cuda")).half()
        reference = (alpha * torch.matmul(a.float(), b.float()) + beta * c.float()).half().float()

        def run(solve, out, a=a, b=b, c=c, m=m, n=n, k=k, alpha=alpha, beta=beta):
            c_inout = c.clone()
            solve(ctypes.cast(a.data_ptr(), half_p), ctypes.cast(b.data_ptr(), half_p),
                  ctypes.cast(c_inout.data_ptr(), half_p), m, n, k, ctypes.c_float(alpha),
                  ctypes.c_float(beta))
            out.copy_(c_inout.float())

        yield f"M={m},N={n},K={k},alpha={alpha},beta={beta}", (m, n), run, reference


def fp16_batched_matmul():
    """C[b] = A[b] B[b] on fp16 (BATCH x M x K times BATCH x K x N), the judge's way: float32
    copies multiplied with torch.bmm, rounded to fp16. The challenge's random cases: (BATCH, M,
    N, K, bound). The fp16 result (NaN-filled first) is compared as float32."""
    half_p = ctypes.POINTER(ctypes.c_uint16)
    cases = [(4, 2, 2, 2, 1.0), (8, 4, 3, 2, 5.0), (16, 16, 16, 16, 1.0), (2, 8, 6, 4, 5.0),
             (32, 256, 256, 256, 5.0)]
    for batch, m, n, k, bound in cases:
        a = uniform((batch, m, k), -bound, bound).half()
        b = uniform((batch, k, n), -bound, bound).half()
        reference = torch.bmm(a.float(), b.float()).half().float()

        def run(solve, out, a=a, b=b, batch=batch, m=m, n=n, k=k):
            c = torch.full((batch, m, n), float("nan"), device="cuda", dtype=torch.float16)
            solve(ctypes.cast(a.data_ptr(), half_p), ctypes.cast(b.data_ptr(), half_p),
                  ctypes.cast(c.data_ptr(), half_p), batch, m, n, k)
            out.copy_(c.float())

        yield f"BATCH={batch},M={m},N={n},K={k}, U(-{bound}, {bound})", (batch, m, n), run, \
            reference


INT8_P = ctypes.POINTER(ctypes.c_int8)
UINT8_P = ctypes.POINTER(ctypes.c_uint8)
HALF_P = ctypes.POINTER(ctypes.c_uint16)


def int8_quantized_matmul():
    """C = requantise(A B), int8; the challenge's random cases: (M, N, K, scale_A, scale_B,
    scale_C, zero_point_A, zero_point_B, zero_point_C, value bound). The output is exact (atol 0);
    it arrives here filled with -77 and is compared as floats."""
    cases = [(4, 4, 4, 0.1, 0.2, 0.05, 0, 0, 0, 128), (2, 3, 5, 0.5, 0.25, 0.125, 1, -2, 3, 128),
             (1, 1, 3, 1.0, 1.0, 1.0, 1, 3, 5, 128), (3, 5, 2, 0.05, 0.1, 0.01, 0, 0, 0, 51),
             (32, 32, 16, 0.2, 0.3, 0.1, 0, 0, 0, 128),
             (8192, 4096, 2048, 0.1, 0.1, 0.01, 0, 0, 0, 128)]
    for m, n, k, sa, sb, sc, za, zb, zc, bound in cases:
        lo = -bound if bound == 128 else -(bound - 1)
        a = torch.randint(lo, bound, (m, k), device="cuda", dtype=torch.int8)
        b = torch.randint(lo, bound, (k, n), device="cuda", dtype=torch.int8)

        def run(solve, out, a=a, b=b, m=m, n=n, k=k, sa=sa, sb=sb, sc=sc, za=za, zb=zb, zc=zc):
            c = torch.full((m, n), -77, device="cuda", dtype=torch.int8)
            solve(ctypes.cast(a.data_ptr(), INT8_P), ctypes.cast(b.data_ptr(), INT8_P),
                  ctypes.cast(c.data_ptr(), INT8_P), m, n, k, ctypes.c_float(sa),
                  ctypes.c_float(sb), ctypes.c_float(sc), za, zb, zc)
            out.copy_(c.float())

        a_f = (a.to(torch.int32) - za).to(torch.float32)
        b_f = (b.to(torch.int32) - zb).to(torch.float32)
        acc = torch.matmul(a_f, b_f).round().int() * sa * sb / sc
        reference = torch.clamp(torch.round(acc).to(torch.int32) + zc, -128, 127).to(torch.int8)
        yield (f"M={m},N={n},K={k},scales={sa},{sb},{sc},zero points={za},{zb},{zc}", (m, n), run,
               reference.float())


def int4_matmul():
    """y = x W^T with W from packed nibbles and per-group fp16 scales; the challenge's random
    cases: (M, N, K, group_size, x all zero). The fp16 output arrives filled with NaN and is
    compared as floats."""
    cases = [(1, 2, 4, 2, True), (2, 4, 4, 2, False), (3, 5, 8, 4, False), (16, 16, 32, 16, False),
             (32, 64, 64, 32, False), (64, 128, 128, 64, False), (30, 50, 64, 32, False),
             (100, 200, 128, 64, False), (255, 100, 128, 64, False), (128, 256, 512, 128, False),
             (4096, 4096, 4096, 128, False)]
    for m, n, k, group, zero_x in cases:
        x = (torch.zeros if zero_x else torch.randn)(m, k, device="cuda", dtype=torch.float16)
        w_q = torch.randint(0, 256, (n, k // 2), device="cuda", dtype=torch.uint8)
        scales = torch.rand(n, k // group, device="cuda", dtype=torch.float16) * 0.1 + 0.01

        def run(solve, out, x=x, w_q=w_q, scales=scales, m=m, n=n, k=k, group=group):
            y = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
            solve(ctypes.cast(x.data_ptr(), HALF_P), ctypes.cast(w_q.data_ptr(), UINT8_P),
                  ctypes.cast(scales.data_ptr(), HALF_P), ctypes.cast(y.data_ptr(), HALF_P),
                  m, n, k, group)
            out.copy_(y.float())

        high = ((w_q >> 4) & 0xF).to(torch.int32) - 8
        low = (w_q & 0xF).to(torch.int32) - 8
        w = torch.stack([high, low], dim=-1).reshape(n, k)
        w = (w.reshape(n, k // group, group).float() * scales.float().unsqueeze(-1)).reshape(n, k)
        yield (f"M={m},N={n},K={k},group_size={group}", (m, n), run,
               (x.float() @ w.T).half().float())


PROBLEMS = {  # name: (cases, atol, rtol), the challenge's tolerance
    "matrix_multiplication": (matrix_multiplication, 1e-4, 1e-4),
    "convolution_1d": (convolution_1d, 1e-4, 1e-4),
    "gemm": (gemm, 0.05, 0.05),
    "fp16_batched_matmul": (fp16_batched_matmul, 0.05, 0.05),
    "int8_quantized_matmul": (int8_quantized_matmul, 0, 0),
    "int4_matmul": (int4_matmul, 0.01, 0.01),
}


def build(export_dir, name, work):
    major, minor = torch.cuda.get_device_capability(0)
    library = os.path.join(work, f"lib{name}.so")
    subprocess.run(["nvcc", "-O3", "-shared", "-Xcompiler", "-fPIC",
                    f"-arch=sm_{major}{minor}", "-o", library,
                    os.path.join(export_dir, "leetgpu", f"{name}.cu")], check=True)
    solve = ctypes.CDLL(library).solve
    solve.restype = None
    return solve


def main():
    parser = argparse.ArgumentParser(
        description="Runs the kit's exported LeetGPU files as the judge does, against torch.",
        epilog=f"problems: {', '.join(PROBLEMS)}")
    parser.add_argument("export_dir", help="an export's folder, holding leetgpu/<name>.cu")
    parser.add_argument("problems", nargs="*", metavar="problem", default=[],
                        help="the problems to run (default: all)")
    args = parser.parse_args()
    unknown = [n for n in args.problems if n not in PROBLEMS]
    if unknown:
        parser.error(f"no judge cases for {', '.join(unknown)}")
    export_dir, names = args.export_dir, args.problems or list(PROBLEMS)
    print(f"device: {torch.cuda.get_device_name(0)}, torch {torch.__version__}, "
          f"TF32 matmul {torch.backends.cuda.matmul.allow_tf32}, "
          f"TF32 cuDNN {torch.backends.cudnn.allow_tf32}")
    print("| problem | case | seeds | elements | outside the tolerance | max |difference| |")
    print("|---|---|---|---|---|---|")
    failing = 0
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            cases, atol, rtol = PROBLEMS[name]
            solve = build(export_dir, name, work)
            rows = {}
            for seed in SEEDS:
                torch.manual_seed(seed)
                for label, shape, run, reference in cases():
                    out = torch.full(shape, float("nan"), device="cuda")
                    run(solve, out)
                    torch.cuda.synchronize()
                    difference = (out - reference).abs()
                    outside = int((~(difference <= atol + rtol * reference.abs())).sum())
                    worst = float(difference.max())
                    count, bad, most = rows.get(label, (0, 0, 0.0))
                    rows[label] = (count + out.numel(), bad + outside, max(most, worst))
            for label, (count, bad, most) in rows.items():
                failing += bad
                print(f"| {name} | {label} | {len(SEEDS)} | {count} | {bad} | {most:.3g} |",
                      flush=True)
    return 0 if failing == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
