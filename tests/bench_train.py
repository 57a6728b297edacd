"""Training throughput of PyTorch on the shipped configuration, to compare with
`go test -tags openblas -run '^$' -bench TrainStepMini ./gpt` (BenchmarkTrainStepMini).

Same model (GPT-2: learned positions, pre-LN, tied output layer, tanh GELU), same config
(gpt.Mini: vocab 4096, block 256, 6 layers, 6 heads, width 192), batch 16 × 256, fp32,
AdamW (betas 0.9/0.95, weight decay 0.1 on matrices), gradient clipping at 1.0, two
threads. Run it as

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 tests/bench_train.py [--steps 5]

Not collected by pytest (the file name does not start with test_).
"""
import argparse
import math
import os
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, C, NH):
        super().__init__()
        self.ln_1 = nn.LayerNorm(C, eps=1e-5)
        self.c_attn = nn.Linear(C, 3 * C)
        self.c_proj = nn.Linear(C, C)
        self.ln_2 = nn.LayerNorm(C, eps=1e-5)
        self.c_fc = nn.Linear(C, 4 * C)
        self.mlp_proj = nn.Linear(4 * C, C)
        self.NH = NH

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.NH, C // self.NH).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        mask = torch.ones(T, T, dtype=torch.bool).tril()
        att = att.masked_fill(~mask, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.c_proj(y)
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class GPT(nn.Module):
    def __init__(self, V, T, L, NH, C):
        super().__init__()
        self.wte = nn.Embedding(V, C)
        self.wpe = nn.Embedding(T, C)
        self.h = nn.ModuleList(Block(C, NH) for _ in range(L))
        self.ln_f = nn.LayerNorm(C, eps=1e-5)

    def forward(self, idx, targets):
        B, T = idx.shape
        x = self.wte(idx) + self.wpe(torch.arange(T))
        for b in self.h:
            x = b(x)
        logits = self.ln_f(x) @ self.wte.weight.t()
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    V, T, L, NH, C = 4096, 256, 6, 6, 192
    model = GPT(V, T, L, NH, C)
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=1e-4, betas=(0.9, 0.95), eps=1e-8)
    x = torch.randint(0, V, (a.batch, T))
    y = torch.randint(0, V, (a.batch, T))

    def step():
        loss = model(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        return loss.item()

    step()  # warm up
    t0 = time.perf_counter()
    for _ in range(a.steps):
        step()
    dt = (time.perf_counter() - t0) / a.steps
    load = os.getloadavg()[0]
    print(f"pytorch {torch.__version__} threads {torch.get_num_threads()}: {dt:.3f} s/step, "
          f"{a.batch * T / dt:.0f} tokens/s (batch {a.batch} x {T}, load {load:.2f})")


if __name__ == "__main__":
    main()
