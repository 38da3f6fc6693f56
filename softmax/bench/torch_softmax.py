#!/usr/bin/env python3
"""torch.softmax on a 1-D float32 CUDA tensor, timed like bench_softmax: CUDA events, the L2
evicted by reading a buffer of twice its size before every call, the call queued behind a spin
kernel (torch.cuda._sleep) so the events time GPU work only, 3 warm-up calls, median of 31
(15 at N >= 5e7). Prints one line "N milliseconds" per size, for bench_softmax --torch FILE.

usage: torch_softmax.py N [N ...]
"""
import sys

import torch


def median_ms(fn, runs, flush):
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    times = []
    for i in range(-3, runs):
        flush.sum(dtype=torch.int64)  # a read: no dirty lines left for the timed call
        torch.cuda._sleep(100000)  # about 50 us: the host enqueues the call meanwhile
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        if i >= 0:
            times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: torch_softmax.py N [N ...]")
    device = torch.device("cuda")
    l2_bytes = getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 64 << 20)
    flush = torch.ones(max(2 * l2_bytes, 64 << 20), dtype=torch.uint8, device=device)
    for arg in sys.argv[1:]:
        n = int(float(arg))
        x = (torch.randint(-50000, 50001, (n,), device=device, dtype=torch.int32)
             .to(torch.float32) / 1000.0)
        runs = 15 if n >= 50_000_000 else 31
        # The result tensor comes from torch's caching allocator: no device allocation per call.
        ms = median_ms(lambda: torch.softmax(x, dim=0), runs, flush)
        print(n, ms, flush=True)


if __name__ == "__main__":
    main()
