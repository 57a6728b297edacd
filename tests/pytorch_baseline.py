"""The one PyTorch baseline: runs PyTorch's side of every figure the project quotes for PyTorch on
this machine, once, and writes them with the date, the load and torch's version to
study/reference/pytorch.json, which package reference embeds (reference.PyTorch). docs/performance.md, the
study's rows and viz's marks read that file; nothing else types a PyTorch figure.

Not a test (pytest does not collect it; Debian's python3-torch is a benchmark's dependency, not
make test's). Run it from the repository root on a machine as quiet as you can make it:

    /usr/bin/python3 tests/pytorch_baseline.py [--runs 3] [--out study/reference/pytorch.json]

What it measures, each on tests/torch_gpt2.py's nanoGPT model with two threads:
  - one forward of GPT-2 small over 1,024 positions, all logits, fp32: best of --runs
    (bench_forward.py's torch side);
  - greedy decoding after an 11-token prompt, cached and uncached, 64 / 256 / 512 new tokens, and
    1,023 cached tokens after a 1-token prompt (bench_generate.py's loops);
  - the residual stream's growth at init, ‖x_L‖/‖x_0‖ (mean over 64 random positions, ln_f
    excluded, mean over seeds 1-3), width 768, 12 and 48 blocks, scaled then plain init.
"""
import argparse
import datetime
import json
import os
import time

from torch_gpt2 import GPT, SMALL, setup_torch  # first: it sets OMP_WAIT_POLICY for torch

import torch  # noqa: E402

import bench_forward  # noqa: E402
import bench_generate  # noqa: E402


def load():
    return round(os.getloadavg()[0], 2)


def forward_seconds(runs):
    model, idx = bench_forward.torch_model(torch.float32)
    return min(bench_forward.time_torch(model, idx) for _ in range(runs))


def decode(runs):
    torch.manual_seed(1337)
    model = GPT(**SMALL).eval()
    g = torch.Generator().manual_seed(5)
    prompt = torch.randint(SMALL["V"], (11,), generator=g).tolist()
    bench_generate.timed(model, prompt, 4, True)  # warm up
    out = {"cached_tokens_per_second": [], "uncached_over_cached": []}
    for n in (64, 256, 512):
        tc = min(bench_generate.timed(model, prompt, n, True)[0] for _ in range(runs))
        tu = bench_generate.timed(model, prompt, n, False)[0]
        out["cached_tokens_per_second"].append(round(n / tc, 2))
        out["uncached_over_cached"].append(round(tu / tc, 2))
        print(f"  {n} new: cached {n / tc:.1f} tok/s, uncached/cached {tu / tc:.2f}x", flush=True)
    out["decode_1023_seconds"] = round(bench_generate.timed(model, prompt[:1], 1023, True)[0], 2)
    return out


@torch.no_grad()
def growth(layers, scaled, seed, T=64):
    torch.manual_seed(seed)
    model = GPT(V=1024, block_size=64, L=layers, NH=12, C=768).eval()
    if not scaled:
        for name, p in model.named_parameters():
            if name.endswith("proj.weight"):
                torch.nn.init.normal_(p, std=0.02)
    idx = torch.randint(1024, (1, T), generator=torch.Generator().manual_seed(seed))
    x = model.wte(idx) + model.wpe(torch.arange(T))
    x0 = x.norm(dim=-1)
    for b in model.h:
        x = b(x, model.causal)
    return float((x.norm(dim=-1) / x0).mean())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="study/reference/pytorch.json")
    args = ap.parse_args()
    banner = setup_torch(args.threads)
    print(banner, flush=True)
    start, load0 = time.time(), load()

    fwd = forward_seconds(args.runs)
    print(f"forward, 1,024 positions: best {fwd:.3f} s (load {load()})", flush=True)
    dec = decode(args.runs)
    print(f"1,023 cached tokens: {dec['decode_1023_seconds']} s (load {load()})", flush=True)
    g = []
    for scaled in (True, False):
        for layers in (12, 48):
            r = sum(growth(layers, scaled, s) for s in (1, 2, 3)) / 3
            g.append(round(r, 2))
            print(f"growth, {layers} blocks, scaled {scaled}: {r:.2f}", flush=True)

    result = {
        "date": datetime.date.today().isoformat(),
        "load": f"1-minute load {load0} at the start, {load()} at the end, over {time.time() - start:.0f} s",
        "scripts": "tests/pytorch_baseline.py (bench_forward.py's and bench_generate.py's torch sides, "
                   "a residual-growth run of torch_gpt2.py's nanoGPT model)",
        "torch": f"{torch.__version__}, {args.threads} threads",
        "forward_1024_seconds": round(fwd, 3),
        "decode_1023_seconds": dec["decode_1023_seconds"],
        "cached_tokens_per_second": dec["cached_tokens_per_second"],
        "time_ratios": dec["uncached_over_cached"],
        # the order ResidualGrowth uses: 12 and 48 blocks scaled, then plain
        "residual_growth": g,
    }
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print("wrote", args.out)


if __name__ == "__main__":
    main()
