"""Issue 4's speed figure, side by side: one forward of GPT-2 Small over 1,024 positions, all
logits, fp32, batch 1, random init — PyTorch (a GPT-2 written here in torch, nanoGPT's model)
and ours (BenchmarkForwardSmall1024 in gpt/bench_test.go, built with -tags openblas).

Not a test (pytest does not collect bench_*.py). Run it from the repository root with Debian's
Python:

    /usr/bin/python3 tests/bench_forward.py [--runs 3] [--bf16] [--no-go] [--go-tags openblas]

Torch runs on 2 threads with OMP_WAIT_POLICY=PASSIVE (without it Debian's torch spin-waits
against OpenBLAS's threads on two cores); the script re-executes itself to set it. The Go
side is compiled first (go test -c) so that its peak RSS is that of the benchmark process
alone; it inherits OMP_WAIT_POLICY too, which OpenBLAS ignores. Both report the best of
--runs forwards after one warm-up, the GFLOP/s that time means (the products of the
12·C²·T per block, the output layer's V·C·T and the causal half of attention, ×2), and
the process's peak RSS (VmHWM: for PyTorch the Python process with torch loaded; for ours the
Go benchmark process, weights and all). The load average is printed with the figures: on a shared machine
they move with it.
"""
import argparse
import math
import os
import re
import subprocess
import sys
import tempfile
import time

if os.environ.get("OMP_WAIT_POLICY") != "PASSIVE":
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    os.execv(sys.executable, [sys.executable] + sys.argv)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

V, BLOCK, L, NH, C = 50257, 1024, 12, 12, 768
T = 1024


def flops(t=T):
    """Multiply-adds ×2 of a forward with all logits, counted as gpt/bench_test.go does."""
    matmuls = 2 * t * (L * 12 * C * C + V * C)
    attention = L * 2 * 2 * (t * (t + 1) / 2) * C
    return matmuls + attention


class Block(torch.nn.Module):
    """nanoGPT's Block: pre-LN attention and MLP, each added to the residual stream."""

    def __init__(self):
        super().__init__()
        self.ln_1 = torch.nn.LayerNorm(C)
        self.c_attn = torch.nn.Linear(C, 3 * C)
        self.attn_proj = torch.nn.Linear(C, C)
        self.ln_2 = torch.nn.LayerNorm(C)
        self.c_fc = torch.nn.Linear(C, 4 * C)
        self.mlp_proj = torch.nn.Linear(4 * C, C)
        self.register_buffer("mask", torch.tril(torch.ones(BLOCK, BLOCK, dtype=torch.bool)))

    def forward(self, x):
        B, T_, _ = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T_, NH, C // NH).transpose(1, 2) for t in (q, k, v))  # (B, NH, T, HS)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(C // NH))
        att = att.masked_fill(~self.mask[:T_, :T_], float("-inf"))
        y = (F.softmax(att, dim=-1) @ v).transpose(1, 2).contiguous().view(B, T_, C)
        x = x + self.attn_proj(y)
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class GPT(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = torch.nn.Embedding(V, C)
        self.wpe = torch.nn.Embedding(BLOCK, C)
        self.h = torch.nn.ModuleList(Block() for _ in range(L))
        self.ln_f = torch.nn.LayerNorm(C)
        for name, p in self.named_parameters():  # GPT-2's init, scaled residual projections
            if name.endswith("proj.weight"):
                torch.nn.init.normal_(p, std=0.02 / math.sqrt(2 * L))
            elif p.dim() == 2:
                torch.nn.init.normal_(p, std=0.02)
            elif name.endswith("bias"):
                torch.nn.init.zeros_(p)

    def forward(self, idx):
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1]))
        for b in self.h:
            x = b(x)
        return self.ln_f(x) @ self.wte.weight.T  # (B, T, V): every position, tied output layer


def bench_torch(runs, dtype):
    torch.manual_seed(1337)
    model = GPT().eval().to(dtype)
    idx = torch.randint(V, (1, T), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        logits = model(idx)  # warm up
        assert logits.shape == (1, T, V), logits.shape
        best = math.inf
        for _ in range(runs):
            t = time.perf_counter()
            model(idx)
            best = min(best, time.perf_counter() - t)
    return best


def bench_go(runs, tags):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "gpt.test")
        cmd = ["go", "test", "-c", "-o", binary]
        if tags:
            cmd += ["-tags", tags]
        env = dict(os.environ)
        if tags == "openblas":
            env.setdefault("CGO_LDFLAGS", "-lopenblas")
        subprocess.run(cmd + ["./gpt/"], cwd=root, env=env, check=True)
        out = subprocess.run([binary, "-test.run", "^$", "-test.bench", "ForwardSmall1024$",
                              "-test.benchtime", "1x", "-test.count", str(runs)], cwd=os.path.join(root, "gpt"),
                             env=env, check=True, capture_output=True, text=True).stdout
    times = [int(t) for t in re.findall(r"BenchmarkForwardSmall1024\S*\s+\d+\s+(\d+) ns/op", out)]
    if not times:
        sys.exit("no benchmark line in:\n" + out)
    # The benchmark reports its own VmHWM: a child's ru_maxrss would include the Python
    # process it was forked from.
    rss = re.search(r"([\d.]+) peak-RSS-MiB", out)
    return min(times) / 1e9, max(float(r) for r in re.findall(r"([\d.]+) peak-RSS-MiB", out)) if rss else float("nan")


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

    torch.set_num_threads(args.threads)
    print(f"GPT-2 small, {T} positions, all logits, batch 1; {flops() / 1e9:.1f} GFLOP per forward")
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"OMP_WAIT_POLICY={os.environ['OMP_WAIT_POLICY']}, load {os.getloadavg()[0]:.2f}")
    tt = bench_torch(args.runs, torch.float32)
    rss_torch = peak_rss_mib()
    print(f"pytorch fp32: {tt:.3f} s, {flops() / tt / 1e9:.1f} GFLOP/s, peak RSS {rss_torch:.0f} MiB", flush=True)
    if args.bf16:
        tb = bench_torch(args.runs, torch.bfloat16)
        print(f"pytorch bf16: {tb:.3f} s, {flops() / tb / 1e9:.1f} GFLOP/s", flush=True)
    if args.no_go:
        return
    tg, rss_go = bench_go(args.runs, args.go_tags)
    print(f"gptnotes fp32 ({args.go_tags or 'pure Go'}): {tg:.3f} s, {flops() / tg / 1e9:.1f} GFLOP/s, "
          f"peak RSS {rss_go:.0f} MiB, load {os.getloadavg()[0]:.2f}")
    print(f"ratio gptnotes/pytorch: {tg / tt:.2f}x (goal ≤ 0.6x)")


if __name__ == "__main__":
    main()
