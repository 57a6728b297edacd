"""Ours and PyTorch's side by side in one run (`make bench-torch`, a few minutes): GPT-2 Small
at random init, the forward over 1,024 positions with every position's logits (fwd1024) and
tokens/s of cached decode from an empty cache (tg128), in fp32 and in bf16.

Ours is `gptnotes bench --models small --precisions P --tg N --json` (GPTNOTES_BIN, default
bin/gptnotes): its fwd1024 and tgN rows, each with the ceiling that bounds it measured in that
same process (the FMA or bf16 peak, the memory stream). PyTorch's is tests/torch_gpt2.py
(nanoGPT's GPT-2; Debian's python3-torch, which `make bench-torch` installs) on 2 threads with
OMP_WAIT_POLICY=PASSIVE, timed the way gptnotes bench times its rows: fwdN the median of the
runs (the upper of two), tgN the mean of N/seconds over the runs, each run N one-token cached
steps of random ids; both sides run each test --reps times (ours with --test-seconds off). bf16 is the model cast with .to(torch.bfloat16). The two sides take turns, a precision
at a time, who goes first alternating from round to round, so that they see the same load;
each line is printed with the load average before and after it. At the end, for each test,
ours/PyTorch in tokens/s (above 1: ours is faster) in every round, and PyTorch's rate as a
fraction of the ceiling of our run beside it (the same FLOPs and bytes, so the same bound).

Not a test (pytest does not collect bench_*.py). From the repository root:

    make bench-torch
    GPTNOTES_BIN=bin/gptnotes /usr/bin/python3 tests/bench_torch.py [--rounds 2] [--reps 2] [--tg 128]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from torch_gpt2 import GPT, SMALL, setup_torch  # first: it sets OMP_WAIT_POLICY for torch

import torch  # noqa: E402

V, T = SMALL["V"], SMALL["block_size"]
DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}


def load():
    return os.getloadavg()[0]


def ours(binary, precision, tg, reps):
    """One `gptnotes bench` process for one precision: its fwd1024 and tgN rows and ceilings."""
    cmd = [binary, "bench", "--models", "small", "--precisions", precision, "--pp", "64",
           "--tg", str(tg), "--reps", str(reps), "--test-seconds", "1e9", "--points=false", "--stages=false",
           "--json", "--quiet"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    rows = {row["test"]: row for row in r["models"][0]["rows"]}
    return rows[f"fwd{T}"], rows[f"tg{tg}"], r["ceilings"]


def torch_model(precision):
    """GPT-2 Small at random init in precision, and random ids for a whole block."""
    torch.manual_seed(1337)
    model = GPT(**SMALL).eval().to(DTYPES[precision])
    ids = torch.randint(V, (1, T), generator=torch.Generator().manual_seed(7))
    with torch.no_grad():
        model(ids)  # warm up: the forward's buffers
        model(ids[:, :1], 0, True, last=True)  # and the cache's
    return model, ids


@torch.no_grad()
def torch_times(model, ids, tg, reps):
    """reps forwards over the block (all logits) and reps runs of tg cached steps: seconds."""
    fwd, dec = [], []
    for _ in range(reps):
        t = time.perf_counter()
        model(ids)
        fwd.append(time.perf_counter() - t)
    for _ in range(reps):
        t = time.perf_counter()
        for i in range(tg):  # the cache is overwritten from position 0: an empty cache
            model(ids[:, i:i + 1], i, True, last=True)
        dec.append(time.perf_counter() - t)
    return fwd, dec


def median(xs):
    """The middle of xs, the upper one of an even count: gptnotes bench's median."""
    return sorted(xs)[len(xs) // 2]


def of_bound(row, seconds):
    """The fraction of our row's bound that a run of the row's FLOPs in seconds reaches."""
    if not row["attainable_gflops"]:
        return float("nan")
    return row["flops"] / seconds / 1e9 / row["attainable_gflops"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2, help="turns of both sides, per precision")
    ap.add_argument("--reps", type=int, default=2, help="runs of each test, on each side, each turn")
    ap.add_argument("--tg", type=int, default=128, help="cached steps of the decode test")
    ap.add_argument("--precisions", default="fp32,bf16")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    binary = os.environ.get("GPTNOTES_BIN", "bin/gptnotes")
    if not os.access(binary, os.X_OK):
        sys.exit(f"bench_torch: no {binary} (make build, or set GPTNOTES_BIN)")
    precisions = args.precisions.split(",")

    print(setup_torch(args.threads))
    print(f"GPT-2 small, random init: fwd{T} (a forward over {T} positions, all logits, median of "
          f"{args.reps}) and tg{args.tg} (cached steps from an empty cache, mean of {args.reps}); "
          f"{args.rounds} rounds, the sides taking turns", flush=True)
    models = {p: torch_model(p) for p in precisions}
    fwd_test, tg_test = f"fwd{T}", f"tg{args.tg}"
    results = []  # one dict per round and precision
    for rnd in range(args.rounds):
        for p in precisions:
            res = {"round": rnd + 1, "precision": p, "load": [load()]}
            sides = ["ours", "pytorch"] if rnd % 2 == 0 else ["pytorch", "ours"]
            for side in sides:
                if side == "ours":
                    res["fwd"], res["tg"], res["ceilings"] = ours(binary, p, args.tg, args.reps)
                else:
                    res["torch_fwd"], res["torch_tg"] = torch_times(*models[p], args.tg, args.reps)
                res["load"].append(load())
            results.append(res)
            fwd, tg = res["fwd"], res["tg"]
            t_fwd = median(res["torch_fwd"])
            t_tg = statistics.mean(args.tg / s for s in res["torch_tg"])
            print(f"round {rnd + 1} {p} ({' then '.join(sides)}, load {res['load'][0]:.2f} → {res['load'][-1]:.2f}): "
                  f"{fwd_test} ours {fwd['tokens_per_s']:.0f} tok/s, PyTorch {T / t_fwd:.0f} "
                  f"({fwd['tokens_per_s'] * t_fwd / T:.2f}×); "
                  f"{tg_test} ours {tg['tokens_per_s']:.1f} tok/s, PyTorch {t_tg:.1f} ({tg['tokens_per_s'] / t_tg:.2f}×)",
                  flush=True)

    print(f"\n| test | prec | ours, tok/s | of bound | PyTorch, tok/s | of the same bound | bound | ours/PyTorch | load |")
    print("|---|---|---:|---:|---:|---:|---|---:|---|")
    for p in precisions:
        rs = [r for r in results if r["precision"] == p]
        for test, key in ((fwd_test, "fwd"), (tg_test, "tg")):
            our_rates = [r[key]["tokens_per_s"] for r in rs]
            our_frac = [r[key]["fraction"] for r in rs]
            if key == "fwd":
                secs = [median(r["torch_fwd"]) for r in rs]
                torch_rates = [T / s for s in secs]
            else:
                secs = [statistics.mean(r["torch_tg"]) for r in rs]
                torch_rates = [statistics.mean(args.tg / s for s in r["torch_tg"]) for r in rs]
            torch_frac = [of_bound(r[key], s) for r, s in zip(rs, secs)]
            ratios = [o / t for o, t in zip(our_rates, torch_rates)]
            loads = [x for r in rs for x in r["load"]]
            print(f"| {test} | {p} | {span(our_rates, '.1f')} | {span(our_frac, '.0%')} | {span(torch_rates, '.1f')} | "
                  f"{span(torch_frac, '.0%')} | {rs[0][key]['bound']} | {span(ratios, '.2f')}× | "
                  f"{min(loads):.1f}–{max(loads):.1f} |")
    c = results[0]["ceilings"]
    print(f"\nceilings of our runs: stream {span([r['ceilings']['stream_gbs'] for r in results], '.1f')} GB/s, "
          f"FMA peak {span([r['ceilings']['peak_total_gflops'] for r in results], '.0f')} GFLOP/s, "
          f"bf16 peak {span([r['ceilings'].get('bf16_peak_total_gflops', 0) for r in results], '.0f')} GFLOP/s "
          f"({c.get('bf16_peak_kernel') or 'none on this CPU'}); torch {torch.__version__}")


def span(xs, fmt):
    """xs as "lo–hi" (or one value) in format fmt."""
    lo, hi = format(min(xs), fmt), format(max(xs), fmt)
    if lo == hi:
        return lo
    return f"{lo.rstrip('%')}–{hi}"


if __name__ == "__main__":
    main()
