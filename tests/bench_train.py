"""Training throughput of PyTorch on the shipped configuration, to compare with
`go test -tags openblas -run '^$' -bench TrainStepMini ./gpt` (BenchmarkTrainStepMini).

Same model (tests/torch_gpt2.py: GPT-2 with learned positions, pre-LN, tied output layer, tanh
GELU), same config
(gpt.Mini: vocab 4096, block 256, 6 layers, 6 heads, width 192), batch 16 × 256, fp32,
AdamW (betas 0.9/0.95, weight decay 0.1 on matrices), gradient clipping at 1.0, two
threads. Run it as

    /usr/bin/python3 tests/bench_train.py [--steps 5]

(torch_gpt2 sets OMP_WAIT_POLICY=PASSIVE before torch loads.)

Not collected by pytest (the file name does not start with test_).
"""
import argparse
import os
import time

from torch_gpt2 import GPT, MINI, setup_torch  # first: it sets OMP_WAIT_POLICY for torch

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    print(setup_torch(a.threads))
    torch.manual_seed(1)
    V, T = MINI["V"], MINI["block_size"]
    model = GPT(**MINI)
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=1e-4, betas=(0.9, 0.95), eps=1e-8)
    x = torch.randint(0, V, (a.batch, T))
    y = torch.randint(0, V, (a.batch, T))

    def step():
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, V), y.view(-1))
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
