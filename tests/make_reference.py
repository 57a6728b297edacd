#!/usr/bin/python3
"""Write a small random GPT-2 in Hugging Face's layout and what a GPT-2 computes from it.

The Go test TestReference in gpt/modelfile_test.go loads the checkpoint with gpt.LoadHF and compares its
Forward against the logits and loss written here. This file has its own GPT-2, in numpy,
computed in float64 from the float32 weights it saves, so the two implementations share
nothing but the file format and the definition of GPT-2:

    x = wte[ids] + wpe[positions]
    for each block:  x = x + attn(ln_1(x));  x = x + mlp(ln_2(x))
    logits = ln_f(x) @ wte.T

with pre-LayerNorm (eps 1e-5), causal multi-head attention, GELU in its tanh form, and
Conv1D weights stored [in, out] (y = x @ W + b).

Output, in --out (default gpt/testdata/reference):
    model.safetensors           plain keys (wte.weight, h.0.ln_1.weight, ...) plus the
                                h.N.attn.bias mask buffers, as on the Hugging Face hub
    model-prefixed.safetensors  the same weights as GPT2LMHeadModel saves them: keys with a
                                "transformer." prefix, h.N.attn.masked_bias buffers, and a
                                tied lm_head.weight
    config.json                 the Hugging Face config beside them
    reference.json              the batch (ids, targets) and the mean cross-entropy loss
    logits.safetensors          "logits": (B, T, V) float32
    activations.safetensors     block 1's activations under TransformerLens's names, float32:
                                blocks.1.attn.hook_pattern (B, NH, T, T), blocks.1.attn.hook_z
                                (B, T, NH, HS), blocks.1.attn.hook_result (B, T, NH, C),
                                blocks.1.mlp.hook_pre (B, T, 4C), blocks.1.hook_resid_post (B, T, C)

Run: /usr/bin/python3 tests/make_reference.py [--out DIR]. The same seed writes the same bytes.
"""

import argparse
import json
import math
import os
import struct

import numpy as np

# The model: small enough that the files stay under 200 kB, with two heads so the head
# split is exercised, and a vocabulary that is not a power of two.
VOCAB, BLOCK, LAYERS, HEADS, WIDTH = 300, 32, 2, 2, 16
BATCH, STEPS = 2, 12  # the reference batch: 2 sequences of 12 positions
SEED = 20241129
EPS = 1e-5


class SplitMix64:
    """A tiny random generator written out here, so the same seed gives the same bytes
    whatever numpy's version (numpy does not promise its Generator streams stay fixed)."""

    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def uniform(self):  # in [0, 1), 53 bits
        return (self.next() >> 11) * 2.0 ** -53

    def normal(self, std, *shape):  # Box-Muller, rounded to float32
        n = int(np.prod(shape, dtype=np.int64))
        x = [std * math.sqrt(-2 * math.log(1 - self.uniform())) * math.cos(2 * math.pi * self.uniform())
             for _ in range(n)]
        return np.array(x, dtype=np.float32).reshape(shape)

    def integers(self, high, *shape):  # in [0, high)
        n = int(np.prod(shape, dtype=np.int64))
        return np.array([self.next() % high for _ in range(n)], dtype=np.int64).reshape(shape)


def random_weights(rng):
    """The parameters in checkpoint order, float32. Biases are non-zero and LayerNorm
    weights are not 1, so a loader that drops or swaps any tensor changes the logits."""
    C = WIDTH
    normal = rng.normal

    w = {"wte.weight": normal(0.3, VOCAB, C), "wpe.weight": normal(0.1, BLOCK, C)}
    for l in range(LAYERS):
        p = f"h.{l}."
        w[p + "ln_1.weight"] = 1 + normal(0.2, C)
        w[p + "ln_1.bias"] = normal(0.1, C)
        w[p + "attn.c_attn.weight"] = normal(0.3, C, 3 * C)
        w[p + "attn.c_attn.bias"] = normal(0.1, 3 * C)
        w[p + "attn.c_proj.weight"] = normal(0.2, C, C)
        w[p + "attn.c_proj.bias"] = normal(0.1, C)
        w[p + "ln_2.weight"] = 1 + normal(0.2, C)
        w[p + "ln_2.bias"] = normal(0.1, C)
        w[p + "mlp.c_fc.weight"] = normal(0.3, C, 4 * C)
        w[p + "mlp.c_fc.bias"] = normal(0.1, 4 * C)
        w[p + "mlp.c_proj.weight"] = normal(0.15, 4 * C, C)
        w[p + "mlp.c_proj.bias"] = normal(0.1, C)
    w["ln_f.weight"] = 1 + normal(0.2, C)
    w["ln_f.bias"] = normal(0.1, C)
    return w


# ---- the numpy GPT-2, float64 throughout ----

def layer_norm(x, gain, shift):
    centred = x - x.mean(axis=-1, keepdims=True)
    spread = np.sqrt((centred ** 2).mean(axis=-1, keepdims=True) + EPS)
    return centred / spread * gain + shift


def gelu(x):
    # the tanh approximation GPT-2 was trained with
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def self_attention(x, w, b, proj_w, proj_b, record=None):
    """Causal multi-head attention; with a dict record, also the pattern (B, NH, T, T),
    z (B, T, NH, HS) and each head's result (B, T, NH, C) under TransformerLens's names."""
    n_batch, n_steps, C = x.shape
    hs = C // HEADS
    q, k, v = np.split(x @ w + b, 3, axis=-1)  # each (B, T, C)

    def heads(t):  # (B, T, C) -> (B, NH, T, HS)
        return t.reshape(n_batch, n_steps, HEADS, hs).transpose(0, 2, 1, 3)

    q, k, v = heads(q), heads(k), heads(v)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hs)  # (B, NH, T, T)
    future = np.triu(np.ones((n_steps, n_steps), dtype=bool), k=1)
    scores = np.where(future, -np.inf, scores)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    mixed = (weights @ v).transpose(0, 2, 1, 3).reshape(n_batch, n_steps, C)
    if record is not None:
        z = mixed.reshape(n_batch, n_steps, HEADS, hs)
        record["attn.hook_pattern"] = weights
        record["attn.hook_z"] = z
        # head h's result: its z times its hs rows of the projection
        record["attn.hook_result"] = np.einsum("bthi,hic->bthc", z, proj_w.reshape(HEADS, hs, C))
    return mixed @ proj_w + proj_b


def gpt2_logits(w, ids, record=None, record_layer=LAYERS - 1):
    """The logits (B, T, V); with a dict record, block record_layer's activations too."""
    w = {name: t.astype(np.float64) for name, t in w.items()}
    n_steps = ids.shape[1]
    x = w["wte.weight"][ids] + w["wpe.weight"][np.arange(n_steps)]
    for l in range(LAYERS):
        p = f"h.{l}."
        h = layer_norm(x, w[p + "ln_1.weight"], w[p + "ln_1.bias"])
        here = {} if record is not None and l == record_layer else None
        x = x + self_attention(h, w[p + "attn.c_attn.weight"], w[p + "attn.c_attn.bias"],
                               w[p + "attn.c_proj.weight"], w[p + "attn.c_proj.bias"], here)
        h = layer_norm(x, w[p + "ln_2.weight"], w[p + "ln_2.bias"])
        pre = h @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"]
        x = x + gelu(pre) @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
        if here is not None:
            here["mlp.hook_pre"] = pre
            here["hook_resid_post"] = x
            record.update({f"blocks.{l}.{name}": t for name, t in here.items()})
    x = layer_norm(x, w["ln_f.weight"], w["ln_f.bias"])
    return x @ w["wte.weight"].T  # (B, T, V)


def mean_cross_entropy(logits, targets):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_probs, targets[..., None], axis=-1)
    return float(-picked.mean())


# ---- the safetensors format, written by hand ----

DTYPES = {np.dtype("float32"): "F32", np.dtype("float64"): "F64"}


def write_safetensors(path, tensors, metadata=None):
    """tensors: name -> array. Keys are written sorted, each tensor little-endian and
    row-major; the header is padded with spaces so the data starts 8-byte aligned."""
    header, chunks, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = metadata
    for name in sorted(tensors):
        t = np.ascontiguousarray(tensors[name])
        raw = t.astype(t.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": DTYPES[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-(8 + len(text)) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for raw in chunks:
            f.write(raw)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(here, "..", "gpt", "testdata", "reference"))
    out = parser.parse_args().out
    os.makedirs(out, exist_ok=True)

    rng = SplitMix64(SEED)
    w = random_weights(rng)
    ids = rng.integers(VOCAB, BATCH, STEPS)
    targets = rng.integers(VOCAB, BATCH, STEPS)

    # As on the hub: plain keys, and the causal mask buffers a loader must skip.
    mask = np.tril(np.ones((BLOCK, BLOCK), dtype=np.float32)).reshape(1, 1, BLOCK, BLOCK)
    plain = dict(w)
    for l in range(LAYERS):
        plain[f"h.{l}.attn.bias"] = mask
    write_safetensors(os.path.join(out, "model.safetensors"), plain, {"format": "pt"})

    # As GPT2LMHeadModel saves itself: "transformer." keys, masked_bias, a tied lm_head.
    prefixed = {"transformer." + name: t for name, t in w.items()}
    for l in range(LAYERS):
        prefixed[f"transformer.h.{l}.attn.masked_bias"] = np.array(-1e4, dtype=np.float32)
    prefixed["lm_head.weight"] = w["wte.weight"]
    write_safetensors(os.path.join(out, "model-prefixed.safetensors"), prefixed, {"format": "pt"})

    config = {"activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"],
              "layer_norm_epsilon": EPS, "model_type": "gpt2", "n_embd": WIDTH, "n_head": HEADS,
              "n_layer": LAYERS, "n_positions": BLOCK, "vocab_size": VOCAB}
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=2, sort_keys=True)
        f.write("\n")

    acts = {}
    logits = gpt2_logits(w, ids, acts)
    write_safetensors(os.path.join(out, "activations.safetensors"),
                      {name: t.astype(np.float32) for name, t in acts.items()})
    loss = mean_cross_entropy(logits, targets)
    write_safetensors(os.path.join(out, "logits.safetensors"), {"logits": logits.astype(np.float32)})
    with open(os.path.join(out, "reference.json"), "w") as f:
        json.dump({"ids": ids.tolist(), "targets": targets.tolist(), "loss": loss}, f, indent=1)
        f.write("\n")
    print(f"wrote {out}: logits {logits.shape}, loss {loss:.6f}, "
          f"max |logit| {np.abs(logits).max():.3f}")


if __name__ == "__main__":
    main()
