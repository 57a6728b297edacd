"""Issue 4's speed figure, side by side: one forward of GPT-2 Small over 1,024 positions, all
logits, fp32, batch 1, random init — PyTorch (tests/torch_gpt2.py, nanoGPT's model)
and ours (BenchmarkForwardSmall1024 in gpt/bench_test.go, built with -tags openblas).

Not a test (pytest does not collect bench_*.py). Run it from the repository root with Debian's
Python:

    /usr/bin/python3 tests/bench_forward.py [--runs 3] [--bf16] [--no-go] [--go-tags openblas]

Torch runs on 2 threads with OMP_WAIT_POLICY=PASSIVE (set by torch_gpt2: without it Debian's
torch spin-waits against OpenBLAS's threads on two cores). The Go
side is compiled first (go test -c) and each of its runs is one benchmark process (one
warm-up forward, one timed); it inherits OMP_WAIT_POLICY too, which OpenBLAS ignores. The two
sides take turns, one forward each, --runs times, so that they see the same load; the script
prints every pair, the best of each side, the GFLOP/s that time means (the products of the
12·C²·T per block, the output layer's V·C·T and the causal half of attention, ×2), and
the process's peak RSS (VmHWM: for PyTorch the Python process with torch loaded; for ours the
Go benchmark process, weights and all). The load average is printed with the figures: on a shared machine
they move with it.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from torch_gpt2 import GPT, SMALL, setup_torch  # first: it sets OMP_WAIT_POLICY for torch

import torch  # noqa: E402

V, L, C = SMALL["V"], SMALL["L"], SMALL["C"]
T = 1024


def flops(t=T):
    """Multiply-adds ×2 of a forward with all logits, counted as gpt/bench_test.go does."""
    matmuls = 2 * t * (L * 12 * C * C + V * C)
    attention = L * 2 * 2 * (t * (t + 1) / 2) * C
    return matmuls + attention


def torch_model(dtype):
    torch.manual_seed(1337)
    model = GPT(**SMALL).eval().to(dtype)
    idx = torch.randint(V, (1, T), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        logits = model(idx)  # warm up
    assert logits.shape == (1, T, V), logits.shape
    return model, idx


def time_torch(model, idx):
    with torch.no_grad():
        t = time.perf_counter()
        model(idx)
        return time.perf_counter() - t


def build_go(tags, tmp):
    """Compiles the gpt package's test binary (go test -c) and returns its path and env."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = os.path.join(tmp, "gpt.test")
    cmd = ["go", "test", "-c", "-o", binary]
    if tags:
        cmd += ["-tags", tags]
    env = dict(os.environ)
    if tags == "openblas":
        env.setdefault("CGO_LDFLAGS", "-lopenblas")
    subprocess.run(cmd + ["./gpt/"], cwd=root, env=env, check=True)
    return binary, env, os.path.join(root, "gpt")


def run_go(binary, env, cwd):
    """One BenchmarkForwardSmall1024 run (one warm-up forward, one timed): seconds, peak RSS."""
    out = subprocess.run([binary, "-test.run", "^$", "-test.bench", "ForwardSmall1024$",
                          "-test.benchtime", "1x"], cwd=cwd,
                         env=env, check=True, capture_output=True, text=True).stdout
    m = re.search(r"BenchmarkForwardSmall1024\S*\s+\d+\s+(\d+) ns/op", out)
    if not m:
        sys.exit("no benchmark line in:\n" + out)
    # The benchmark reports its own VmHWM: a child's ru_maxrss would include the Python
    # process it was forked from.
    rss = re.search(r"([\d.]+) peak-RSS-MiB", out)
    return int(m.group(1)) / 1e9, float(rss.group(1)) if rss else float("nan")


def peak_rss_mib():
    """VmHWM of this process: the peak resident set since it started."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--bf16", action="store_true", help="also PyTorch in bfloat16")
    ap.add_argument("--no-go", action="store_true", help="PyTorch only")
    ap.add_argument("--go-tags", default="openblas", help="build tags of the Go side ('' for pure Go)")
    args = ap.parse_args()

    banner = setup_torch(args.threads)
    print(f"GPT-2 small, {T} positions, all logits, batch 1; {flops() / 1e9:.1f} GFLOP per forward")
    print(banner)
    model, idx = torch_model(torch.float32)
    # The two sides take turns, one forward each, so that they see the same load.
    tts, tgs, rss_go = [], [], float("nan")
    with tempfile.TemporaryDirectory() as tmp:
        go = None if args.no_go else build_go(args.go_tags, tmp)
        for i in range(args.runs):
            tts.append(time_torch(model, idx))
            line = f"run {i + 1}: pytorch {tts[-1]:.3f} s"
            if go:
                tg, rss_go = run_go(*go)
                tgs.append(tg)
                line += f", gptnotes {tg:.3f} s, ratio {tg / tts[-1]:.2f}x"
            print(line + f" (load {os.getloadavg()[0]:.2f})", flush=True)
    tt = min(tts)
    print(f"pytorch fp32: best {tt:.3f} s, {flops() / tt / 1e9:.1f} GFLOP/s, peak RSS {peak_rss_mib():.0f} MiB", flush=True)
    if args.bf16:
        model, idx = torch_model(torch.bfloat16)
        tb = min(time_torch(model, idx) for _ in range(args.runs))
        print(f"pytorch bf16: best {tb:.3f} s, {flops() / tb / 1e9:.1f} GFLOP/s", flush=True)
    if not tgs:
        return
    tg = min(tgs)
    ratios = sorted(g / t for g, t in zip(tgs, tts))
    print(f"gptnotes fp32 ({args.go_tags or 'pure Go'}): best {tg:.3f} s, {flops() / tg / 1e9:.1f} GFLOP/s, "
          f"peak RSS {rss_go:.0f} MiB")
    print(f"ratio gptnotes/pytorch: best/best {tg / tt:.2f}x, median of the paired runs "
          f"{ratios[len(ratios) // 2]:.2f}x (goal ≤ 0.6x)")

if __name__ == "__main__":
    main()
