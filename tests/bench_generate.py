"""PyTorch's side of issue 5's speed figures: greedy decode of GPT-2 Small (random init, fp32,
batch 1) with and without a KV cache, timed on this machine, to set beside

    go test -tags openblas -run '^$' -bench GenerateSmall -benchtime 1x ./gpt/

Not a test (pytest does not collect bench_*.py). Run it with Debian's Python:

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 tests/bench_generate.py [--new 64 256 512] [--no-uncached] [--long]

Without OMP_WAIT_POLICY=PASSIVE Debian's torch spin-waits against OpenBLAS's threads; the
script sets it for itself when it is missing, by re-executing. Torch runs on 2 threads.

The model is GPT-2 as nanoGPT writes it (learned positions, pre-LN, GELU tanh, tied output
layer), with a cached loop written here: each block keeps preallocated (NH, BlockSize, HS)
key and value buffers; the prompt is prefilled in one forward, then each new token is
forwarded alone. The uncached loop forwards the whole context every step, as nanoGPT does.
Only the last position goes through ln_f and the output layer in both loops.
"""
import argparse
import math
import os
import sys
import time

if os.environ.get("OMP_WAIT_POLICY") != "PASSIVE":
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    os.execv(sys.executable, [sys.executable] + sys.argv)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

V, BLOCK, L, NH, C = 50257, 1024, 12, 12, 768
HS = C // NH


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = torch.nn.LayerNorm(C)
        self.c_attn = torch.nn.Linear(C, 3 * C)
        self.attn_proj = torch.nn.Linear(C, C)
        self.ln_2 = torch.nn.LayerNorm(C)
        self.c_fc = torch.nn.Linear(C, 4 * C)
        self.mlp_proj = torch.nn.Linear(4 * C, C)
        self.k = torch.zeros(NH, BLOCK, HS)  # the cache: keys and values of positions so far
        self.v = torch.zeros(NH, BLOCK, HS)

    def forward(self, x, pos0, cached):
        """x (T, C) at positions pos0…pos0+T-1. cached: append k, v to the cache and attend
        over it; otherwise attend over this x only (pos0 must be 0)."""
        T = x.shape[0]
        q, k, v = self.c_attn(self.ln_1(x)).split(C, dim=1)
        q, k, v = (t.view(T, NH, HS).transpose(0, 1) for t in (q, k, v))  # (NH, T, HS)
        if cached:
            self.k[:, pos0:pos0 + T] = k
            self.v[:, pos0:pos0 + T] = v
            k, v = self.k[:, :pos0 + T], self.v[:, :pos0 + T]
        att = (q @ k.transpose(1, 2)) / math.sqrt(HS)  # (NH, T, pos0+T)
        if T > 1:
            mask = torch.ones(T, pos0 + T, dtype=torch.bool).tril(diagonal=pos0)
            att = att.masked_fill(~mask, float("-inf"))
        y = (F.softmax(att, dim=-1) @ v).transpose(0, 1).reshape(T, C)
        x = x + self.attn_proj(y)
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class GPT(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = torch.nn.Embedding(V, C)
        self.wpe = torch.nn.Embedding(BLOCK, C)
        self.h = torch.nn.ModuleList(Block() for _ in range(L))
        self.ln_f = torch.nn.LayerNorm(C)
        for name, p in self.named_parameters():
            if name.endswith("proj.weight"):
                torch.nn.init.normal_(p, std=0.02 / math.sqrt(2 * L))
            elif p.dim() == 2:
                torch.nn.init.normal_(p, std=0.02)
            elif name.endswith("bias"):
                torch.nn.init.zeros_(p)

    def next_logits(self, ids, pos0=0, cached=False):
        """Logits (V) of the token after ids (a 1-D LongTensor) at positions pos0…"""
        T = ids.shape[0]
        x = self.wte(ids) + self.wpe(torch.arange(pos0, pos0 + T))
        for b in self.h:
            x = b(x, pos0, cached)
        return self.ln_f(x[-1]) @ self.wte.weight.T


@torch.no_grad()
def generate(model, prompt, n, cached):
    ids = list(prompt)
    if cached:
        logits = model.next_logits(torch.tensor(ids), 0, True)
    for i in range(n):
        if not cached:
            logits = model.next_logits(torch.tensor(ids[-BLOCK:]))
        ids.append(int(logits.argmax()))
        if cached and i < n - 1:
            logits = model.next_logits(torch.tensor(ids[-1:]), len(ids) - 1, True)
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
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(1337)
    model = GPT().eval()
    g = torch.Generator().manual_seed(5)
    prompt = torch.randint(V, (11,), generator=g).tolist()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, OMP_WAIT_POLICY={os.environ['OMP_WAIT_POLICY']}, "
          f"load {os.getloadavg()[0]:.2f}")
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
