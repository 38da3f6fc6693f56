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


def gpt2_weights(d=768, ffn=3072):
    """The challenge's packed GPT-2 weights: norms U(0.8, 1.2) / U(-0.1, 0.1), matrices
    0.02 N(0, 1), zero biases; in the packing order of the statement."""
    def normal(*shape):
        return torch.empty(shape, device="cuda").normal_(0, 0.02).flatten()

    zeros = lambda n: torch.zeros(n, device="cuda")
    return torch.cat([uniform((d,), 0.8, 1.2), uniform((d,), -0.1, 0.1), normal(d, 3 * d),
                      zeros(3 * d), normal(d, d), zeros(d), uniform((d,), 0.8, 1.2),
                      uniform((d,), -0.1, 0.1), normal(d, ffn), zeros(ffn), normal(ffn, d),
                      zeros(d)])


def gpt2_reference(x, w, d=768, heads=12, ffn=3072):
    """The block in torch FP32, written from the statement (pre-norm, no causal mask)."""
    f = torch.nn.functional
    sizes = [d, d, d * 3 * d, 3 * d, d * d, d, d, d, d * ffn, ffn, ffn * d, d]
    ln1_w, ln1_b, w_qkv, b_qkv, w_attn, b_attn, ln2_w, ln2_b, w_fc, b_fc, w_proj, b_proj = \
        torch.split(w, sizes)
    seq = x.shape[0]
    qkv = f.layer_norm(x, [d], ln1_w, ln1_b, eps=1e-5) @ w_qkv.view(d, 3 * d) + b_qkv
    q, k, v = (t.view(seq, heads, d // heads).transpose(0, 1) for t in qkv.split(d, dim=-1))
    a = torch.softmax(q @ k.transpose(-2, -1) / (d // heads) ** 0.5, dim=-1) @ v
    h = x + (a.transpose(0, 1).reshape(seq, d) @ w_attn.view(d, d) + b_attn)
    fc = f.gelu(f.layer_norm(h, [d], ln2_w, ln2_b, eps=1e-5) @ w_fc.view(d, ffn) + b_fc,
                approximate="tanh")
    return h + (fc @ w_proj.view(ffn, d) + b_proj)


def gpt2_block():
    """The challenge's cases: seq_len, x ~ U(-1, 1) (zeros in the second)."""
    for i, seq in enumerate([1, 4, 2, 4, 16, 64, 30, 100, 128, 256, 1024]):
        x = torch.zeros(seq, 768, device="cuda") if i == 1 else uniform((seq, 768), -1, 1)
        w = gpt2_weights()

        def run(solve, out, x=x, w=w, seq=seq):
            solve(ctypes.cast(x.data_ptr(), FLOAT_P), ctypes.cast(out.data_ptr(), FLOAT_P),
                  ctypes.cast(w.data_ptr(), FLOAT_P), seq)

        label = f"seq_len={seq}" + (", x = 0" if i == 1 else "")
        yield label, (seq, 768), run, gpt2_reference(x, w)


def llama_weights(d=512, kv=128, ffn=1408):
    """The challenge's packed Llama weights: norms U(0.8, 1.2), matrices 0.02 N(0, 1)."""
    def normal(*shape):
        return torch.empty(shape, device="cuda").normal_(0, 0.02).flatten()

    return torch.cat([uniform((d,), 0.8, 1.2), normal(d, d), normal(kv, d), normal(kv, d),
                      normal(d, d), uniform((d,), 0.8, 1.2), normal(ffn, d), normal(ffn, d),
                      normal(d, ffn)])


def rope_tables(seq, head_dim=64, theta=10000.0):
    positions = torch.arange(seq, device="cuda", dtype=torch.float32)
    freqs = 1.0 / (theta ** (torch.arange(0, head_dim, 2, device="cuda",
                                          dtype=torch.float32) / head_dim))
    angles = torch.outer(positions, freqs)
    return angles.cos().contiguous(), angles.sin().contiguous()


def llama_reference(x, w, cos, sin, d=512, heads=8, kv_heads=2, ffn=1408):
    """The block in torch FP32, written from the statement (RMS norms, RoPE on halves, causal
    grouped-query attention, SwiGLU)."""
    f = torch.nn.functional
    hd, seq = d // heads, x.shape[0]
    kv = kv_heads * hd
    sizes = [d, d * d, kv * d, kv * d, d * d, d, ffn * d, ffn * d, d * ffn]
    rms1, w_q, w_k, w_v, w_o, rms2, w_gate, w_up, w_down = torch.split(w, sizes)

    def rms(z, g):
        return z * torch.rsqrt(z.pow(2).mean(-1, keepdim=True) + 1e-5) * g

    def rope(t):
        a, b = t[..., : hd // 2], t[..., hd // 2:]
        c, s = cos.unsqueeze(1), sin.unsqueeze(1)
        return torch.cat([a * c - b * s, a * s + b * c], dim=-1)

    n = rms(x, rms1)
    q = rope((n @ w_q.view(d, d).T).view(seq, heads, hd)).transpose(0, 1)
    k = rope((n @ w_k.view(kv, d).T).view(seq, kv_heads, hd)).transpose(0, 1)
    v = (n @ w_v.view(kv, d).T).view(seq, kv_heads, hd).transpose(0, 1)
    k = k.repeat_interleave(heads // kv_heads, dim=0)
    v = v.repeat_interleave(heads // kv_heads, dim=0)
    mask = torch.triu(torch.full((seq, seq), float("-inf"), device="cuda"), diagonal=1)
    a = torch.softmax(q @ k.transpose(-2, -1) / hd ** 0.5 + mask, dim=-1) @ v
    h = x + a.transpose(0, 1).reshape(seq, d) @ w_o.view(d, d).T
    n2 = rms(h, rms2)
    return h + (f.silu(n2 @ w_gate.view(ffn, d).T) * (n2 @ w_up.view(ffn, d).T)) @ \
        w_down.view(d, ffn).T


def llama_transformer_block():
    """The challenge's cases: seq_len, x ~ U(-1, 1) (zeros in the second)."""
    for i, seq in enumerate([1, 4, 2, 4, 16, 64, 30, 100, 128, 256, 2048]):
        x = torch.zeros(seq, 512, device="cuda") if i == 1 else uniform((seq, 512), -1, 1)
        w = llama_weights()
        cos, sin = rope_tables(seq)

        def run(solve, out, x=x, w=w, cos=cos, sin=sin, seq=seq):
            solve(ctypes.cast(x.data_ptr(), FLOAT_P), ctypes.cast(out.data_ptr(), FLOAT_P),
                  ctypes.cast(w.data_ptr(), FLOAT_P), ctypes.cast(cos.data_ptr(), FLOAT_P),
                  ctypes.cast(sin.data_ptr(), FLOAT_P), seq)

        label = f"seq_len={seq}" + (", x = 0" if i == 1 else "")
        yield label, (seq, 512), run, llama_reference(x, w, cos, sin)

def int8_kv_cache_attention():
    """Decode attention over int8 caches; the challenge's random cases: (num_heads, seq_len,
    head_dim, zero query)."""
    int8_p = ctypes.POINTER(ctypes.c_int8)
    cases = [(1, 1, 8, False), (1, 2, 8, False), (2, 4, 8, False), (1, 8, 16, True),
             (4, 16, 64, False), (8, 64, 64, False), (2, 30, 64, False), (4, 100, 64, False),
             (16, 512, 64, False), (32, 256, 128, False), (32, 8192, 128, False)]
    for h, s, d, zero_q in cases:
        q = torch.zeros(h, d, device="cuda") if zero_q else torch.randn(h, d, device="cuda")
        k8 = torch.randint(-128, 128, (h, s, d), dtype=torch.int8, device="cuda")
        v8 = torch.randint(-128, 128, (h, s, d), dtype=torch.int8, device="cuda")
        ks = torch.rand(h, s, device="cuda") * 0.1 + 0.01
        vs = torch.rand(h, s, device="cuda") * 0.1 + 0.01

        def run(solve, out, q=q, k8=k8, v8=v8, ks=ks, vs=vs, h=h, s=s, d=d):
            solve(ctypes.cast(q.data_ptr(), FLOAT_P), ctypes.cast(k8.data_ptr(), int8_p),
                  ctypes.cast(v8.data_ptr(), int8_p), ctypes.cast(ks.data_ptr(), FLOAT_P),
                  ctypes.cast(vs.data_ptr(), FLOAT_P), ctypes.cast(out.data_ptr(), FLOAT_P), h, s,
                  d)

        k = k8.float() * ks.unsqueeze(-1)
        v = v8.float() * vs.unsqueeze(-1)
        w = torch.softmax(torch.bmm(q.unsqueeze(1), k.transpose(1, 2)) * (1.0 / d**0.5), dim=-1)
        label = f"num_heads={h},seq_len={s},head_dim={d}" + (", q = 0" if zero_q else "")
        yield label, (h, d), run, torch.bmm(w, v).squeeze(1)

PROBLEMS = {  # name: (cases, atol, rtol), the challenge's tolerance
    "matrix_multiplication": (matrix_multiplication, 1e-4, 1e-4),
    "convolution_1d": (convolution_1d, 1e-4, 1e-4),
    "int8_kv_cache_attention": (int8_kv_cache_attention, 1e-3, 1e-3),
    "gpt2_block": (gpt2_block, 1e-3, 1e-3),
    "llama_transformer_block": (llama_transformer_block, 1e-3, 1e-3),
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
