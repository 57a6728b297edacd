"""Our bf16 model against PyTorch's, op by op: reads what the Go test TestExportBF16Compare
wrote (the fp32 weights, every activation of one forward in fp32 and in bf16, and for the
shipped model our greedy continuations of ten prompts), loads the weights into
tests/torch_gpt2.py's GPT, runs it in fp32 and cast with .to(torch.bfloat16) on the CPU,
and prints, for every activation, the median |ours bf16 - torch bf16| beside the median
|torch bf16 - torch fp32|, and whether the first is at most a quarter of the second; then,
for the shipped model, how many greedy tokens each pair of models agrees on per prompt.

    GPTNOTES_BF16_EXPORT=/tmp/bf16 go test ./gpt -run TestExportBF16Compare -count=1
    /usr/bin/python3 tests/bf16_compare.py /tmp/bf16

A benchmark script, like bench_*.py: it needs Debian's python3-torch, which `make test`
does not install.
"""
import json
import math
import os
import struct
import sys

import torch_gpt2  # noqa: F401  (sets OMP_WAIT_POLICY before torch loads)
from torch_gpt2 import GPT, setup_torch
import torch
import torch.nn.functional as F

DTYPES = {"F32": torch.float32, "BF16": torch.bfloat16}


def read_safetensors(path):
    """Every tensor of a safetensors file, as float32 torch tensors, by name."""
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        lo, hi = t["data_offsets"]
        x = torch.frombuffer(bytearray(data[lo:hi]), dtype=DTYPES[t["dtype"]])
        out[name] = x.reshape(t["shape"]).float()
    return out


def load_gpt(path, cfg):
    """tests/torch_gpt2.py's GPT with the weights of a Save'd file (Conv1D [in, out] → Linear)."""
    w = read_safetensors(path)
    model = GPT(V=cfg["VocabSize"], block_size=cfg["BlockSize"], L=cfg["Layers"], NH=cfg["Heads"], C=cfg["Channels"])
    rename = {"attn.c_attn": "c_attn", "attn.c_proj": "attn_proj", "mlp.c_fc": "c_fc", "mlp.c_proj": "mlp_proj"}
    state = {}
    for name, x in w.items():
        for ours, theirs in rename.items():
            if ours in name:
                name = name.replace(ours, theirs)
                if name.endswith(".weight"):
                    x = x.T.contiguous()
        state[name] = x
    model.load_state_dict(state)
    return model.eval()


@torch.no_grad()
def activations(model, idx):
    """Block.forward of tests/torch_gpt2.py step by step (the same ops), keeping each output."""
    acts = {}
    T = idx.shape[1]
    x = model.wte(idx) + model.wpe(torch.arange(T))
    acts["embed"] = x[0]
    for l, b in enumerate(model.h):
        p = f"h.{l}."
        C = x.shape[-1]
        HS = C // b.NH
        h = b.ln_1(x)
        qkv = b.c_attn(h)
        q, k, v = (t.view(1, T, b.NH, HS).transpose(1, 2) for t in qkv.split(C, dim=2))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(HS)
        att = att.masked_fill(~model.causal[:T, :T], float("-inf"))
        pattern = F.softmax(att, dim=-1)
        z = (pattern @ v).transpose(1, 2).reshape(1, T, C)
        attn_out = b.attn_proj(z)
        x = x + attn_out
        resid_mid = x
        h2 = b.ln_2(x)
        pre = b.c_fc(h2)
        post = F.gelu(pre, approximate="tanh")
        mlp_out = b.mlp_proj(post)
        x = x + mlp_out
        for name, t in [("ln_1", h), ("qkv", qkv), ("pattern", pattern), ("z", z), ("attn_out", attn_out),
                        ("resid_mid", resid_mid), ("ln_2", h2), ("pre", pre), ("post", post),
                        ("mlp_out", mlp_out), ("resid_post", x)]:
            acts[p + name] = t[0]
    acts["ln_f"] = model.ln_f(x)[0]
    acts["logits"] = (model.ln_f(x) @ model.wte.weight.T)[0]
    assert torch.equal(acts["logits"], model(idx)[0]), "the step-by-step forward is not GPT.forward"
    return {k: v.float() for k, v in acts.items()}


@torch.no_grad()
def op_by_op(model, ours, dtype):
    """Each op of model applied to OUR bf16 inputs of that op (cast to dtype): the op's own
    rounding, free of what the ops before it did. Keys as in activations()."""
    x = lambda k: ours["bf16." + k].to(dtype)[None]  # noqa: E731
    out = {}
    T = ours["bf16.embed"].shape[0]
    for l, b in enumerate(model.h):
        p = f"h.{l}."
        resid = x("embed") if l == 0 else x(f"h.{l - 1}.resid_post")
        C = resid.shape[-1]
        HS = C // b.NH
        out[p + "ln_1"] = b.ln_1(resid)
        out[p + "qkv"] = b.c_attn(x(p + "ln_1"))
        q, k, v = (t.view(1, T, b.NH, HS).transpose(1, 2) for t in x(p + "qkv").split(C, dim=2))
        att = ((q @ k.transpose(-2, -1)) / math.sqrt(HS)).masked_fill(~model.causal[:T, :T], float("-inf"))
        pattern = F.softmax(att, dim=-1)
        out[p + "pattern"] = pattern
        out[p + "z"] = (pattern @ v).transpose(1, 2).reshape(1, T, C)
        out[p + "attn_out"] = b.attn_proj(x(p + "z"))
        out[p + "resid_mid"] = resid + x(p + "attn_out")
        out[p + "ln_2"] = b.ln_2(x(p + "resid_mid"))
        out[p + "pre"] = b.c_fc(x(p + "ln_2"))
        out[p + "post"] = F.gelu(x(p + "pre"), approximate="tanh")
        out[p + "mlp_out"] = b.mlp_proj(x(p + "post"))
        out[p + "resid_post"] = x(p + "resid_mid") + x(p + "mlp_out")
    out["ln_f"] = model.ln_f(x(f"h.{len(model.h) - 1}.resid_post"))
    out["logits"] = x("ln_f") @ model.wte.weight.T
    return {k: v[0].float() for k, v in out.items()}


def table(title, keys, ours, t16, t32, last_layer):
    """Prints median |ours - t16| against median |t16 - t32| per activation (the first and last
    block, and the first dozen that fail) and returns the worst ratio and the failures."""
    print(f"\n{title}")
    print(f"{'activation':<16} {'|ours16-torch16|':>16} {'|torch16-torch32|':>17} {'ratio':>7}  ≤ 1/4")
    worst, fails = 0.0, []
    for key in keys:
        ours_d = median_abs(ours[key], t16[key], key)
        ref_d = median_abs(t16[key], t32[key], key)
        ratio = ours_d / ref_d if ref_d > 0 else (0.0 if ours_d == 0 else math.inf)
        worst = max(worst, ratio)
        ok = ratio <= 0.25
        if not ok:
            fails.append(key)
        if not key.startswith("h.") or key.startswith("h.0.") or key.startswith(f"h.{last_layer}.") or (not ok and len(fails) <= 12):
            print(f"{key:<16} {ours_d:16.3g} {ref_d:17.3g} {ratio:7.3f}  {'yes' if ok else 'NO'}")
    kinds = sorted({k.split(".")[-1] for k in fails})
    print(f"worst ratio {worst:.3f} over {len(keys)} activations; above 1/4: {len(fails)} ({', '.join(kinds) or 'none'})")
    return worst, fails


def median_abs(a, b, name):
    d = (a - b).abs()
    if name.endswith("pattern"):  # the causal half only: the rest is 0 in every model
        T = d.shape[-1]
        d = d[..., torch.ones(T, T, dtype=torch.bool).tril()]
    return d.flatten().median().item()


@torch.no_grad()
def greedy(model, prompt, steps):
    idx = torch.tensor([prompt])
    for _ in range(steps):
        nxt = model(idx[:, -model.causal.shape[0]:])[0, -1].float().argmax()
        idx = torch.cat([idx, nxt.view(1, 1)], dim=1)
    return idx[0, len(prompt):].tolist()


def agree(a, b):
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def compare(d, name):
    info = json.load(open(os.path.join(d, name + ".json")))
    cfg = info["config"]
    ours = read_safetensors(os.path.join(d, name + ".acts.safetensors"))
    fp32 = load_gpt(os.path.join(d, name + ".model.safetensors"), cfg)
    bf16 = load_gpt(os.path.join(d, name + ".model.safetensors"), cfg).to(torch.bfloat16)
    idx = torch.tensor([info["ids"]])
    t32, t16 = activations(fp32, idx), activations(bf16, idx)
    print(f"\n{name}: {cfg}, {idx.shape[1]} positions")
    e32 = max(median_abs(ours["fp32." + k], t32[k], k) for k in t32)
    print(f"our fp32 against torch fp32: largest median |diff| over the activations {e32:.3g}")
    last = cfg["Layers"] - 1
    ours16 = {k: ours["bf16." + k] for k in t32}
    table("whole forward: each activation after every op before it", list(t32), ours16, t16, t32, last)
    o16, o32 = op_by_op(bf16, ours, torch.bfloat16), op_by_op(fp32, ours, torch.float32)
    table("op by op: each op on our bf16 inputs to it", list(o16), ours16, o16, o32, last)
    if "prompts" in info:
        steps = info["steps"]
        rows = []
        for i, p in enumerate(info["prompts"]):
            g32, g16 = greedy(fp32, p, steps), greedy(bf16, p, steps)
            o32, o16 = info["greedy"]["fp32"][i], info["greedy"]["bf16"][i]
            rows.append((agree(o16, g16), agree(g16, g32), agree(o32, g32), agree(o16, o32)))
        print(f"\ngreedy agreement over {steps} tokens, {len(rows)} prompts (tokens before the first difference):")
        print("prompt  ours16~torch16  torch16~torch32  ours32~torch32  ours16~ours32")
        for i, r in enumerate(rows):
            print(f"{i:6d}  {r[0]:14d}  {r[1]:15d}  {r[2]:14d}  {r[3]:13d}")
        means = [sum(r[j] for r in rows) / len(rows) for j in range(4)]
        print(f"  mean  {means[0]:14.1f}  {means[1]:15.1f}  {means[2]:14.1f}  {means[3]:13.1f}")


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "/tmp/bf16"
    print(setup_torch(2))
    for name in ("small", "shipped"):
        if os.path.exists(os.path.join(d, name + ".json")):
            compare(d, name)


if __name__ == "__main__":
    main()
