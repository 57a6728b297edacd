"""PyTorch's side of issue 5's speed figures: greedy decode of GPT-2 Small (random init, fp32,
batch 1) with and without a KV cache, timed on this machine, to set beside

    go test -tags openblas -run '^$' -bench GenerateSmall -benchtime 1x ./gpt/

Not a test (pytest does not collect bench_*.py). Run it with Debian's Python:

    /usr/bin/python3 tests/bench_generate.py [--new 64 256 512] [--no-uncached] [--long] [--bf16]

--bf16 casts the model with .to(torch.bfloat16), beside the Go benchmark
BenchmarkGenerateSmallPrecision.

Torch runs on 2 threads with OMP_WAIT_POLICY=PASSIVE (set by torch_gpt2: without it Debian's
torch spin-waits against OpenBLAS's threads).

The model is tests/torch_gpt2.py (nanoGPT's GPT-2), whose blocks keep preallocated
(NH, BlockSize, HS) key and value buffers in the cached loop written here: the prompt is
prefilled in one forward, then each new token is
forwarded alone. The uncached loop forwards the whole context every step, as nanoGPT does.
Only the last position goes through ln_f and the output layer in both loops.
"""
import argparse
import time

from torch_gpt2 import GPT, SMALL, setup_torch  # first: it sets OMP_WAIT_POLICY for torch

import torch  # noqa: E402

V, BLOCK = SMALL["V"], SMALL["block_size"]


@torch.no_grad()
def generate(model, prompt, n, cached):
    ids = list(prompt)
    if cached:
        logits = model(torch.tensor([ids]), 0, True, last=True)
    for i in range(n):
        if not cached:
            logits = model(torch.tensor([ids[-BLOCK:]]), last=True)
        ids.append(int(logits.argmax()))
        if cached and i < n - 1:
            logits = model(torch.tensor([ids[-1:]]), len(ids) - 1, True, last=True)
    return ids[len(prompt):]


def timed(model, prompt, n, cached):
    t = time.perf_counter()
    out = generate(model, prompt, n, cached)
    return time.perf_counter() - t, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--new", type=int, nargs="+", default=[64, 256, 512])
    ap.add_argument("--no-uncached", action="store_true", help="skip the uncached loops")
    ap.add_argument("--long", action="store_true", help="also 1,023 tokens with the cache after a 1-token prompt")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--bf16", action="store_true", help="run the model cast to bfloat16")
    args = ap.parse_args()

    banner = setup_torch(args.threads)
    torch.manual_seed(1337)
    model = GPT(**SMALL).eval()
    if args.bf16:
        model = model.to(torch.bfloat16)
    g = torch.Generator().manual_seed(5)
    prompt = torch.randint(V, (11,), generator=g).tolist()
    print(banner + (", bf16" if args.bf16 else ", fp32"))
    timed(model, prompt, 4, True)  # warm up

    for n in args.new:
        tc, outc = timed(model, prompt, n, True)
        line = f"11-token prompt, {n} new: cached {tc:.2f} s = {n / tc:.1f} tok/s"
        if not args.no_uncached:
            tu, outu = timed(model, prompt, n, False)
            same = "same tokens" if outu == outc else "tokens differ"
            line += f"; uncached {tu:.2f} s = {n / tu:.1f} tok/s; uncached/cached time {tu / tc:.2f}x ({same})"
        print(line, flush=True)
    if args.long:
        tc, _ = timed(model, prompt[:1], 1023, True)
        print(f"1-token prompt, 1023 new, cached: {tc:.1f} s = {1023 / tc:.1f} tok/s", flush=True)


if __name__ == "__main__":
    main()
