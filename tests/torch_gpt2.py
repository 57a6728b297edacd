"""GPT-2 written in torch, the PyTorch side of the benchmark scripts (bench_forward.py,
bench_generate.py, bench_train.py): nanoGPT's model — learned positions, pre-LN blocks,
GELU in its tanh approximation, the token table tied to the output layer — with GPT-2's
init (N(0, 0.02), the two residual projections scaled by 1/√(2L)) and an optional KV cache
for the cached decode loop, and the torch set-up the three scripts share (setup_torch).
Import it before torch: it sets OMP_WAIT_POLICY=PASSIVE first, which libgomp reads when
torch loads it (without it Debian's torch spin-waits against OpenBLAS's threads on two
cores). Not a test (pytest collects test_*.py only).
"""
import math
import os

os.environ["OMP_WAIT_POLICY"] = "PASSIVE"

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def setup_torch(threads):
    """Runs torch on threads threads and returns the line that says so, with the load."""
    torch.set_num_threads(threads)
    return (f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
            f"OMP_WAIT_POLICY={os.environ['OMP_WAIT_POLICY']}, load {os.getloadavg()[0]:.2f}")


class Block(torch.nn.Module):
    """Pre-LN attention and MLP, each added to the residual stream."""

    def __init__(self, block_size, NH, C):
        super().__init__()
        self.block_size, self.NH = block_size, NH
        self.ln_1 = torch.nn.LayerNorm(C)
        self.c_attn = torch.nn.Linear(C, 3 * C)
        self.attn_proj = torch.nn.Linear(C, C)
        self.ln_2 = torch.nn.LayerNorm(C)
        self.c_fc = torch.nn.Linear(C, 4 * C)
        self.mlp_proj = torch.nn.Linear(4 * C, C)
        self.cache = None  # keys and values of the positions so far: (2, NH, block_size, HS)

    def forward(self, x, causal, pos0=0, cached=False):
        """x (B, T, C) at positions pos0…pos0+T-1; causal: the (block_size, block_size) lower
        triangle of True. cached (B = 1): append this step's keys and values to the cache and
        attend over all of it; otherwise attend within x (pos0 = 0)."""
        B, T, C = x.shape
        HS = C // self.NH
        q, k, v = self.c_attn(self.ln_1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.NH, HS).transpose(1, 2) for t in (q, k, v))  # (B, NH, T, HS)
        if cached:
            if self.cache is None:
                self.cache = torch.zeros(2, self.NH, self.block_size, HS, dtype=x.dtype)
            self.cache[0, :, pos0:pos0 + T] = k[0]
            self.cache[1, :, pos0:pos0 + T] = v[0]
            k, v = self.cache[0, :, :pos0 + T][None], self.cache[1, :, :pos0 + T][None]
        att = (q @ k.transpose(-2, -1)) / math.sqrt(HS)  # (B, NH, T, pos0+T)
        if T > 1:
            att = att.masked_fill(~causal[pos0:pos0 + T, :pos0 + T], float("-inf"))
        y = (F.softmax(att, dim=-1) @ v).transpose(1, 2).reshape(B, T, C)
        x = x + self.attn_proj(y)
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class GPT(torch.nn.Module):
    def __init__(self, V, block_size, L, NH, C):
        super().__init__()
        self.wte = torch.nn.Embedding(V, C)
        self.wpe = torch.nn.Embedding(block_size, C)
        self.h = torch.nn.ModuleList(Block(block_size, NH, C) for _ in range(L))
        self.ln_f = torch.nn.LayerNorm(C)
        self.causal = torch.ones(block_size, block_size, dtype=torch.bool).tril()  # made once
        for name, p in self.named_parameters():
            if name.endswith("proj.weight"):
                torch.nn.init.normal_(p, std=0.02 / math.sqrt(2 * L))
            elif p.dim() == 2:
                torch.nn.init.normal_(p, std=0.02)
            elif name.endswith("bias"):
                torch.nn.init.zeros_(p)

    def forward(self, idx, pos0=0, cached=False, last=False):
        """Logits (B, T, V) of idx (B, T) at positions pos0…; last: of the last position only,
        (B, V). cached: see Block.forward."""
        x = self.wte(idx) + self.wpe(torch.arange(pos0, pos0 + idx.shape[1]))
        for b in self.h:
            x = b(x, self.causal, pos0, cached)
        if last:
            x = x[:, -1]
        return self.ln_f(x) @ self.wte.weight.T


SMALL = dict(V=50257, block_size=1024, L=12, NH=12, C=768)  # GPT-2 Small (124M)
MINI = dict(V=4096, block_size=256, L=6, NH=6, C=192)  # gpt.Mini, the teaching size
