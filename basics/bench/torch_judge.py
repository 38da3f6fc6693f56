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
INT8_P = ctypes.POINTER(ctypes.c_int8)
UINT8_P = ctypes.POINTER(ctypes.c_uint8)
HALF_P = ctypes.POINTER(ctypes.c_uint16)


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


def lora_linear():
    """output = x W^T + lora_scale (x A^T) B^T; the challenge's random cases: (batch, d_in, d_out,
    rank, lora_scale, x zero, B random): x ~ N(0, 1), W and A ~ 0.02 N(0, 1), B zero but in one
    case (x -1 there)."""
    cases = [(1, 4, 4, 1, 0.5, False, False), (2, 8, 8, 2, 0.5, True, False),
             (4, 16, 16, 1, 0.5, False, False), (16, 64, 64, 8, 0.5, False, False),
             (32, 128, 64, 16, 0.5, False, False), (30, 100, 100, 4, 0.5, False, False),
             (7, 255, 128, 8, 0.5, False, False), (64, 512, 512, 16, 0.125, False, False),
             (4, 32, 32, 8, 1.0, False, True), (128, 1024, 1024, 32, 0.0625, False, False),
             (256, 4096, 4096, 64, 0.015625, False, False)]
    for batch, d_in, d_out, rank, scale, zero_x, random_b in cases:
        x = torch.randn(batch, d_in, device="cuda")
        if zero_x:
            x.zero_()
        if random_b:
            x.fill_(-1)
        w = 0.02 * torch.randn(d_out, d_in, device="cuda")
        a = 0.02 * torch.randn(rank, d_in, device="cuda")
        b = (0.02 * torch.randn(d_out, rank, device="cuda") if random_b
             else torch.zeros(d_out, rank, device="cuda"))

        def run(solve, out, x=x, w=w, a=a, b=b, dims=(batch, d_in, d_out, rank), scale=scale):
            solve(*(ctypes.cast(t.data_ptr(), FLOAT_P) for t in (x, w, a, b, out)), *dims,
                  ctypes.c_float(scale))

        reference = torch.mm(x, w.t()) + scale * torch.mm(torch.mm(x, a.t()), b.t())
        yield (f"batch={batch},d_in={d_in},d_out={d_out},rank={rank},lora_scale={scale}",
               (batch, d_out), run, reference)


def swiglu_mlp_block():
    """output = (silu(x W_gate) * (x W_up)) W_down; the challenge's random cases: (M, d_model,
    d_ffn, x zero): x ~ 0.1 N(0, 1), weights ~ 0.02 N(0, 1)."""
    cases = [(1, 4, 8, False), (2, 4, 8, False), (4, 8, 16, True), (16, 32, 64, False),
             (64, 64, 128, False), (30, 32, 64, False), (100, 60, 120, False),
             (255, 64, 128, False), (128, 256, 512, False), (256, 512, 1024, False),
             (512, 4096, 14336, False)]
    for m, d_model, d_ffn, zero_x in cases:
        x = 0.1 * torch.randn(m, d_model, device="cuda")
        if zero_x:
            x.zero_()
        gate, up = (0.02 * torch.randn(d_model, d_ffn, device="cuda") for _ in range(2))
        down = 0.02 * torch.randn(d_ffn, d_model, device="cuda")

        def run(solve, out, x=x, gate=gate, up=up, down=down, dims=(m, d_model, d_ffn)):
            solve(*(ctypes.cast(t.data_ptr(), FLOAT_P) for t in (x, gate, up, down, out)), *dims)

        reference = (torch.nn.functional.silu(x @ gate) * (x @ up)) @ down
        yield f"M={m},d_model={d_model},d_ffn={d_ffn}", (m, d_model), run, reference


def linear_attention():
    """phi = ELU + 1; output = (phi(Q) phi(K)^T V) / (phi(Q) . column sums of phi(K)); the
    challenge's random cases: (M, d, bound)."""
    for m, d, bound in [(128, 32, 0.1), (10000, 128, 100)]:
        q, k, v = (uniform((m, d), -bound, bound) for _ in range(3))

        def run(solve, out, q=q, k=k, v=v, m=m, d=d):
            solve(*(ctypes.cast(t.data_ptr(), FLOAT_P) for t in (q, k, v, out)), m, d)

        phi_q = torch.where(q > 0, q + 1, torch.exp(q))
        phi_k = torch.where(k > 0, k + 1, torch.exp(k))
        reference = (phi_q @ (phi_k.T @ v)) / (phi_q @ phi_k.sum(dim=0)).unsqueeze(-1)
        yield f"M={m},d={d}, U(-{bound}, {bound})", (m, d), run, reference


def decaying_causal_attention():
    """((Q K^T) / sqrt(d) * gamma^(i - j) for j <= i, 0 above) V; the challenge's random cases:
    (seq_len, d_model, gamma), randn inputs (Q and K zero in one)."""
    cases = [(1, 4, 0.9, False), (2, 4, 0.5, False), (4, 8, 1.0, False), (4, 8, 0.1, False),
             (8, 16, 0.9, True), (16, 16, 0.8, False), (32, 32, 0.9, False),
             (64, 64, 0.8, False), (30, 32, 0.95, False), (100, 64, 0.9, False),
             (4096, 64, 0.9, False)]
    for n, d, gamma, zero_qk in cases:
        q, k, v = (torch.randn(n, d, device="cuda") for _ in range(3))
        if zero_qk:
            q.zero_()
            k.zero_()

        def run(solve, out, q=q, k=k, v=v, n=n, d=d, gamma=gamma):
            solve(*(ctypes.cast(t.data_ptr(), FLOAT_P) for t in (q, k, v, out)), n, d,
                  ctypes.c_float(gamma))

        positions = torch.arange(n, device="cuda", dtype=torch.float32)
        distances = positions.unsqueeze(1) - positions.unsqueeze(0)
        mask = torch.pow(gamma, distances.clamp(min=0)) * (distances >= 0).to(torch.float32)
        reference = torch.matmul(torch.matmul(q, k.T) / d ** 0.5 * mask, v)
        yield f"seq_len={n},d_model={d},gamma={gamma}", (n, d), run, reference


def softmax_attention_backward():
    """dQ, dK, dV of softmax(Q K^T / sqrt(d)) V for dO, in torch's explicit steps, the three
    outputs laid end to end in one array; the challenge's random cases: (M, N, d), randn."""
    for m, n, d in [(16, 16, 8), (64, 128, 32), (30, 15, 7), (100, 255, 50), (8192, 4096, 128)]:
        q, k, v, grad_out = (torch.randn(rows, d, device="cuda") for rows in (m, n, n, m))

        def run(solve, out, q=q, k=k, v=v, grad_out=grad_out, m=m, n=n, d=d):
            parts = (out[:m * d], out[m * d:(m + n) * d], out[(m + n) * d:])
            solve(*(ctypes.cast(t.data_ptr(), FLOAT_P) for t in (q, k, v, grad_out) + parts),
                  m, n, d)

        scale = d ** 0.5
        p = torch.softmax(torch.matmul(q, k.t()) / scale, dim=1)
        dp = torch.matmul(grad_out, v.t())
        ds = (dp * p - p * (dp * p).sum(dim=1, keepdim=True)) / scale
        reference = torch.cat([torch.matmul(ds, k).flatten(), torch.matmul(ds.t(), q).flatten(),
                               torch.matmul(p.t(), grad_out).flatten()])
        yield f"M={m},N={n},d={d}", ((m + 2 * n) * d,), run, reference


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


def attention_reference(q, k, v, scale, causal=False):
    """The judges' FP32 attention expression: matmul, division by the scale, optional -inf above
    the diagonal, softmax over rows, matmul."""
    attn = torch.matmul(q, k.transpose(-2, -1)) / scale
    if causal:
        m = attn.shape[-1]
        mask = torch.triu(torch.ones(m, m, device="cuda"), diagonal=1).bool()
        attn = attn.masked_fill(mask, float("-inf"))
    return torch.matmul(torch.softmax(attn, dim=-1), v)


def softmax_attention():
    """softmax(Q K^T / sqrt(d)) V; the challenge's random cases: (M, N, d, bound)."""
    for m, n, d, bound in [(64, 128, 32, 0.1), (512, 256, 128, 0.1)]:
        q, k, v = uniform((m, d), -bound, bound), uniform((n, d), -bound, bound), \
            uniform((n, d), -bound, bound)

        def run(solve, out, q=q, k=k, v=v, m=m, n=n, d=d):
            solve(*(ctypes.cast(t.data_ptr(), FLOAT_P) for t in (q, k, v, out)), m, n, d)

        yield f"M={m},N={n},d={d}", (m, d), run, attention_reference(q, k, v, d**0.5)


def casual_attention():
    """Causal softmax(Q K^T / sqrt(d)) V; the challenge's random cases: (M, d, bound)."""
    for m, d, bound in [(128, 32, 0.1), (5000, 128, 1)]:
        q, k, v = (uniform((m, d), -bound, bound) for _ in range(3))

        def run(solve, out, q=q, k=k, v=v, m=m, d=d):
            solve(*(ctypes.cast(t.data_ptr(), FLOAT_P) for t in (q, k, v, out)), m, d)

        yield f"M={m},d={d}", (m, d), run, attention_reference(q, k, v, d**0.5, causal=True)


def multi_head_attention():
    """Per head (column slices of d_k = d_model / h), softmax(Q_h K_h^T / sqrt(d_k)) V_h, one head
    at a time as the challenge's reference; its random cases: (N, d_model, h, bound)."""
    for n, d_model, h, bound in [(4, 4, 4, 1), (32, 32, 8, 1), (1024, 1024, 16, 10)]:
        q, k, v = (uniform((n, d_model), -bound, bound) for _ in range(3))
        d_k = d_model // h
        reference = torch.zeros(n, d_model, device="cuda")
        for head in range(h):
            cols = slice(head * d_k, (head + 1) * d_k)
            reference[:, cols] = attention_reference(q[:, cols], k[:, cols], v[:, cols], d_k**0.5)

        def run(solve, out, q=q, k=k, v=v, n=n, d_model=d_model, h=h):
            solve(*(ctypes.cast(t.data_ptr(), FLOAT_P) for t in (q, k, v, out)), n, d_model, h)

        yield f"N={n},d_model={d_model},h={h}", (n, d_model), run, reference


def multi_head_cross_attention():
    """Per head of [sequence, head, dimension] tensors, softmax(Q_h K_h^T / sqrt(D)) V_h (heads
    moved to the front for batched products); cases (M, N, H, D, bound): ours and the performance
    size, the distribution an assumption (the challenge's file was not available)."""
    for m, n, h, d, bound in [(64, 128, 4, 32, 1), (1024, 2048, 16, 128, 1)]:
        q = uniform((m, h, d), -bound, bound)
        k, v = uniform((n, h, d), -bound, bound), uniform((n, h, d), -bound, bound)
        reference = attention_reference(q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1),
                                        d**0.5).transpose(0, 1).contiguous()

        def run(solve, out, q=q, k=k, v=v, m=m, n=n, h=h, d=d):
            solve(*(ctypes.cast(t.data_ptr(), FLOAT_P) for t in (q, k, v, out)), m, n, h, d)

        yield f"M={m},N={n},H={h},D={d}", (m, h, d), run, reference


def attn_w_linear_bias():
    """softmax(Q K^T / sqrt(d) + alpha (i - j)) V, Q M x d, K and V N x d; the challenge's random
    cases: (M, N, d, alpha, bound)."""
    cases = [(64, 128, 32, -0.76, 0.1), (64, 128, 32, -0.3, 1), (2048, 2048, 1024, 0.5, 0.1)]
    for m, n, d, alpha, bound in cases:
        q = uniform((m, d), -bound, bound)
        k, v = uniform((n, d), -bound, bound), uniform((n, d), -bound, bound)

        def run(solve, out, q=q, k=k, v=v, m=m, n=n, d=d, alpha=alpha):
            solve(ctypes.cast(q.data_ptr(), FLOAT_P), ctypes.cast(k.data_ptr(), FLOAT_P),
                  ctypes.cast(v.data_ptr(), FLOAT_P), ctypes.cast(out.data_ptr(), FLOAT_P), m, n,
                  d, ctypes.c_float(alpha))

        bias = alpha * (torch.arange(m, device="cuda").unsqueeze(1) -
                        torch.arange(n, device="cuda").unsqueeze(0))
        reference = torch.softmax(torch.matmul(q, k.t()) / d**0.5 + bias, dim=1) @ v
        yield f"M={m},N={n},d={d},alpha={alpha}, U(-{bound}, {bound})", (m, d), run, reference


def grouped_query_attention():
    """Query head h attends to K/V head h / (num_q_heads / num_kv_heads); the challenge's random
    cases (standard normal): (num_q_heads, num_kv_heads, seq_len, head_dim)."""
    cases = [(4, 1, 1, 8), (2, 1, 2, 4), (8, 2, 16, 32), (4, 2, 32, 64), (4, 2, 30, 32),
             (6, 3, 100, 32), (8, 1, 255, 64), (8, 8, 64, 32), (8, 2, 128, 64),
             (32, 8, 1024, 128)]
    for heads, kv_heads, seq, dim in cases:
        q = torch.randn(heads, seq, dim, device="cuda")
        k = torch.randn(kv_heads, seq, dim, device="cuda")
        v = torch.randn(kv_heads, seq, dim, device="cuda")

        def run(solve, out, q=q, k=k, v=v, heads=heads, kv_heads=kv_heads, seq=seq, dim=dim):
            solve(ctypes.cast(q.data_ptr(), FLOAT_P), ctypes.cast(k.data_ptr(), FLOAT_P),
                  ctypes.cast(v.data_ptr(), FLOAT_P), ctypes.cast(out.data_ptr(), FLOAT_P), heads,
                  kv_heads, seq, dim)

        groups = heads // kv_heads
        k_all, v_all = k.repeat_interleave(groups, dim=0), v.repeat_interleave(groups, dim=0)
        scores = torch.bmm(q, k_all.transpose(1, 2)) * (1.0 / dim**0.5)
        reference = torch.bmm(torch.softmax(scores, dim=-1), v_all)
        yield (f"num_q_heads={heads},num_kv_heads={kv_heads},seq_len={seq},head_dim={dim}",
               (heads, seq, dim), run, reference)


def sliding_window_attn():
    """Query i attends to the keys with |i - j| <= window_size; the challenge's random cases:
    (M, d, window_size, bound)."""
    cases = [(128, 32, 8, 0.1), (5000, 64, 16, 100)]
    for m, d, window, bound in cases:
        q, k, v = (uniform((m, d), -bound, bound) for _ in range(3))

        def run(solve, out, q=q, k=k, v=v, m=m, d=d, window=window):
            solve(ctypes.cast(q.data_ptr(), FLOAT_P), ctypes.cast(k.data_ptr(), FLOAT_P),
                  ctypes.cast(v.data_ptr(), FLOAT_P), ctypes.cast(out.data_ptr(), FLOAT_P), m, d,
                  window)

        idx = torch.arange(m, device="cuda")
        hidden = (idx[None, :] - idx[:, None]).abs() > window
        scores = ((q @ k.T) / d**0.5).masked_fill(hidden, float("-inf"))
        reference = torch.softmax(scores, dim=1) @ v
        yield f"M={m},d={d},window_size={window}, U(-{bound}, {bound})", (m, d), run, reference


def attention_with_sinks():
    """Query i attends to the keys j <= i that are sinks (j < num_sinks) or in its causal window
    (j > i - window_size); the challenge's random cases: (M, d, num_sinks, window_size, bound of
    Q and K, bound of V)."""
    cases = [(64, 32, 4, 16, 1, 1), (100, 48, 2, 32, 0.5, 1), (255, 64, 4, 1, 0.3, 1),
             (512, 64, 4, 128, 0.2, 1), (1024, 128, 8, 256, 0.1, 1), (5000, 128, 4, 1024, 1, 1)]
    for m, d, sinks, window, qk_bound, v_bound in cases:
        q, k = uniform((m, d), -qk_bound, qk_bound), uniform((m, d), -qk_bound, qk_bound)
        v = uniform((m, d), -v_bound, v_bound)

        def run(solve, out, q=q, k=k, v=v, m=m, d=d, sinks=sinks, window=window):
            solve(ctypes.cast(q.data_ptr(), FLOAT_P), ctypes.cast(k.data_ptr(), FLOAT_P),
                  ctypes.cast(v.data_ptr(), FLOAT_P), ctypes.cast(out.data_ptr(), FLOAT_P), m, d,
                  sinks, window)

        i = torch.arange(m, device="cuda").unsqueeze(1)
        j = torch.arange(m, device="cuda").unsqueeze(0)
        allowed = (j <= i) & ((j < sinks) | (j >= i - window + 1))
        scores = ((q @ k.T) / d**0.5).masked_fill(~allowed, float("-inf"))
        reference = torch.softmax(scores, dim=-1) @ v
        yield (f"M={m},d={d},num_sinks={sinks},window_size={window}, U(-{qk_bound}, {qk_bound})",
               (m, d), run, reference)


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
    "lora_linear": (lora_linear, 1e-4, 1e-4),
    "swiglu_mlp_block": (swiglu_mlp_block, 1e-4, 1e-4),
    "linear_attention": (linear_attention, 1e-4, 1e-4),
    "decaying_causal_attention": (decaying_causal_attention, 1e-3, 1e-3),
    "softmax_attention_backward": (softmax_attention_backward, 1e-4, 1e-4),
    "gemm": (gemm, 0.05, 0.05),
    "fp16_batched_matmul": (fp16_batched_matmul, 0.05, 0.05),
    "softmax_attention": (softmax_attention, 1e-4, 1e-4),
    "casual_attention": (casual_attention, 1e-5, 1e-5),
    "multi_head_attention": (multi_head_attention, 1e-5, 1e-5),
    "multi_head_cross_attention": (multi_head_cross_attention, 1e-4, 1e-4),
    "attn_w_linear_bias": (attn_w_linear_bias, 1e-4, 1e-4),
    "grouped_query_attention": (grouped_query_attention, 1e-4, 1e-4),
    "sliding_window_attn": (sliding_window_attn, 1e-5, 1e-5),
    "attention_with_sinks": (attention_with_sinks, 1e-5, 1e-5),
    "int8_quantized_matmul": (int8_quantized_matmul, 0, 0),
    "int4_matmul": (int4_matmul, 0.01, 0.01),
    "int8_kv_cache_attention": (int8_kv_cache_attention, 1e-3, 1e-3),
    "gpt2_block": (gpt2_block, 1e-3, 1e-3),
    "llama_transformer_block": (llama_transformer_block, 1e-3, 1e-3),
}


def build(export_dir, name, work):
    major, minor = torch.cuda.get_device_capability(0)
    library = os.path.join(work, f"lib{name}.so")
    # Every problem's library lives in this one process. GCC marks the function-local statics of
    # inline and template functions (the kit's once-per-kernel shared-memory opt-ins) as GNU-unique
    # symbols, which glibc binds across libraries even when loaded RTLD_LOCAL: a later library would
    # find an earlier one's "done" flag and launch its own kernel without the opt-in (an invalid
    # argument). -fno-gnu-unique keeps each library's statics its own, as in the judge's process,
    # which loads one solution.
    subprocess.run(["nvcc", "-O3", "-shared", "-Xcompiler", "-fPIC,-fno-gnu-unique",
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
