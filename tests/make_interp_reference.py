#!/usr/bin/python3
"""Write a tiny random GPT-2 and what package interp's tools compute from it, in numpy.

The Go tests in interp/reference_test.go load the checkpoint and compare each tool with
the numbers written here. This script shares nothing with package interp but the file
format and the definitions, which it writes out in float64 from the float32 weights:

  head scores       TransformerLens's detector ("mul"): Σ pattern·detection / Σ pattern,
                    for the previous-token, duplicate-token and induction patterns
  processing        LayerNorm folded into the matrix it feeds (W ← diag(g)·W, b ← β·W + b,
                    W's columns centred), writing weights centred over C (wte, wpe, both
                    c_proj's rows and biases), the unembedding W_U = diag(g_f)·wteᵀ,
                    b_U = β_f·wteᵀ, centred over V; the logits before and after
  circuits          every head's OV = W_V·W_O and QK = W_Q·W_Kᵀ as full C × C matrices: their
                    Frobenius norms and singular values; Q-, K- and V-composition scores
                    ‖OV₁·QK₂‖, ‖OV₁·QK₂ᵀ‖, ‖OV₁·OV₂‖ over the product of norms; the full OV
                    circuit W_E·OV·W_U as a V × V matrix and its copying score Σλ / Σ|λ|

The model's forward, the random generator and the safetensors writer are
tests/make_reference.py's (imported, with this file's sizes).

Output, in --out (default interp/testdata/reference):
    model.safetensors   the weights, as on the Hugging Face hub (plain keys)
    config.json         the Hugging Face config beside them
    processed.safetensors  the processed weights (plain keys, and unembed.W_U, unembed.b_U),
                        and the logits of the repeated sequence before and after (logits.before,
                        logits.after)
    reference.json      the inputs and every tool's numbers

Run: /usr/bin/python3 tests/make_interp_reference.py [--out DIR]. The same seed writes the same bytes.
"""

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_reference as ref  # noqa: E402

# Three layers of four heads, so that every kind of composition has pairs and the
# attribution-patching correlation runs over twelve heads; a vocabulary of 64 keeps the
# file small.
ref.VOCAB, ref.BLOCK, ref.LAYERS, ref.HEADS, ref.WIDTH = 64, 24, 3, 4, 16
SEED = 20261203
L, NH, C, V = ref.LAYERS, ref.HEADS, ref.WIDTH, ref.VOCAB
HS = C // NH


# ---- a forward that records and replaces, per head ----

def forward(w, ids, record=None, z_patch=None, unembed=None, mlp_patch=None):
    """The logits (T, V) of one sequence. record, a dict, receives every block's pattern
    (NH, T, T) and z (T, NH, HS) under TransformerLens's names; z_patch(l, z) may return
    a replacement for block l's z (T, NH, HS), mlp_patch(l, out) for its MLP's output
    (T, C); unembed, (W_U, b_U), replaces wteᵀ."""
    w = {k: t.astype(np.float64) for k, t in w.items()}
    T = len(ids)
    x = w["wte.weight"][ids] + w["wpe.weight"][np.arange(T)]
    for l in range(L):
        p = f"h.{l}."
        h = ref.layer_norm(x, w[p + "ln_1.weight"], w[p + "ln_1.bias"])
        q, k, v = np.split(h @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"], 3, axis=-1)
        q, k, v = (t.reshape(T, NH, HS).transpose(1, 0, 2) for t in (q, k, v))  # (NH, T, HS)
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(HS)
        scores = np.where(np.triu(np.ones((T, T), dtype=bool), k=1), -np.inf, scores)
        pattern = np.exp(scores - scores.max(axis=-1, keepdims=True))
        pattern /= pattern.sum(axis=-1, keepdims=True)
        z = (pattern @ v).transpose(1, 0, 2)  # (T, NH, HS)
        if z_patch is not None:
            z = z_patch(l, z)
        x = x + z.reshape(T, C) @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        h = ref.layer_norm(x, w[p + "ln_2.weight"], w[p + "ln_2.bias"])
        mlp = ref.gelu(h @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"]) @ w[p + "mlp.c_proj.weight"] \
            + w[p + "mlp.c_proj.bias"]
        if mlp_patch is not None:
            mlp = mlp_patch(l, mlp)
        if record is not None:
            record[f"blocks.{l}.attn.hook_pattern"] = pattern
            record[f"blocks.{l}.attn.hook_z"] = z
            record[f"blocks.{l}.hook_mlp_out"] = mlp
        x = x + mlp
    x = ref.layer_norm(x, w["ln_f.weight"], w["ln_f.bias"])
    if unembed is not None:
        return x @ unembed[0] + unembed[1]
    return x @ w["wte.weight"].T


# ---- head scores ----

def detection_patterns(ids):
    """TransformerLens's three detection patterns of a sequence, (T, T) each."""
    ids = np.asarray(ids)
    T = len(ids)
    prev = np.eye(T, k=-1)
    dup = np.tril((ids[:, None] == ids[None, :]).astype(float), k=-1)
    ind = np.zeros((T, T))
    ind[:, 1:] = dup[:, :-1]  # the key after each earlier copy
    return {"previous token": prev, "duplicate token": dup, "induction": np.tril(ind)}


def head_scores(w, ids):
    acts = {}
    forward(w, ids, acts)
    out = {}
    for name, det in detection_patterns(ids).items():
        out[name] = [[float((acts[f"blocks.{l}.attn.hook_pattern"][h] * det).sum()
                            / acts[f"blocks.{l}.attn.hook_pattern"][h].sum())
                      for h in range(NH)] for l in range(L)]
    return out


# ---- weight processing ----

def process(w, centre_unembed=True):
    """TransformerLens's default processing, float64: a new dict with the unembedding."""
    w = {k: t.astype(np.float64).copy() for k, t in w.items()}

    def centre_columns(m):
        return m - m.mean(axis=0, keepdims=True)

    def centre_rows(m):
        return m - m.mean(axis=-1, keepdims=True)

    for l in range(L):
        p = f"h.{l}."
        for ln, mat in (("ln_1", "attn.c_attn"), ("ln_2", "mlp.c_fc")):
            g, beta = w[p + ln + ".weight"], w[p + ln + ".bias"]
            w[p + mat + ".bias"] = w[p + mat + ".bias"] + beta @ w[p + mat + ".weight"]
            w[p + mat + ".weight"] = centre_columns(g[:, None] * w[p + mat + ".weight"])
            w[p + ln + ".weight"], w[p + ln + ".bias"] = np.ones(C), np.zeros(C)
        for mat in ("attn.c_proj", "mlp.c_proj"):
            w[p + mat + ".weight"] = centre_rows(w[p + mat + ".weight"])
            w[p + mat + ".bias"] = centre_rows(w[p + mat + ".bias"])
    wte = w["wte.weight"]
    wu = centre_columns(w["ln_f.weight"][:, None] * wte.T)
    bu = w["ln_f.bias"] @ wte.T
    if centre_unembed:
        wu, bu = centre_rows(wu), bu - bu.mean()
    w["ln_f.weight"], w["ln_f.bias"] = np.ones(C), np.zeros(C)
    w["wte.weight"], w["wpe.weight"] = centre_rows(wte), centre_rows(w["wpe.weight"])
    w["unembed.W_U"], w["unembed.b_U"] = wu, bu
    return w


def processing(w, ids, out_dir):
    full = process(w)
    before = forward(w, ids)
    folded = process(w, centre_unembed=False)
    after_fold = forward(folded, ids, unembed=(folded["unembed.W_U"], folded["unembed.b_U"]))
    after = forward(full, ids, unembed=(full["unembed.W_U"], full["unembed.b_U"]))
    shift = after - before
    tensors = dict(full)
    tensors["logits.before"], tensors["logits.after"] = before, after
    ref.write_safetensors(os.path.join(out_dir, "processed.safetensors"),
                          {k: t.astype(np.float32) for k, t in tensors.items()})
    return {"fold_max_diff": float(np.abs(after_fold - before).max()),
            "centre_shift_spread": float((shift.max(axis=-1) - shift.min(axis=-1)).max())}


# ---- circuits ----

def head_weights(w, l, h):
    """W_Q, W_K, W_V (C, HS) and W_O (HS, C) of head h in block l, float64."""
    attn = w[f"h.{l}.attn.c_attn.weight"].astype(np.float64)
    proj = w[f"h.{l}.attn.c_proj.weight"].astype(np.float64)
    q, k, v = (attn[:, i * C + h * HS:i * C + (h + 1) * HS] for i in range(3))
    return q, k, v, proj[h * HS:(h + 1) * HS]


def circuits(w):
    ov, qk = {}, {}
    for l in range(L):
        for h in range(NH):
            q, k, v, o = head_weights(w, l, h)
            ov[l, h], qk[l, h] = v @ o, q @ k.T
    fro = np.linalg.norm
    out = {"ov_norm": [[float(fro(ov[l, h])) for h in range(NH)] for l in range(L)],
           "qk_norm": [[float(fro(qk[l, h])) for h in range(NH)] for l in range(L)],
           "ov_singular": [[np.linalg.svd(ov[l, h], compute_uv=False)[:HS].tolist() for h in range(NH)] for l in range(L)],
           "qk_singular": [[np.linalg.svd(qk[l, h], compute_uv=False)[:HS].tolist() for h in range(NH)] for l in range(L)]}
    reads = {"Q": lambda l, h: qk[l, h], "K": lambda l, h: qk[l, h].T, "V": lambda l, h: ov[l, h]}
    for kind, r in reads.items():
        table = np.zeros((L * NH, L * NH))
        for l1 in range(L):
            for h1 in range(NH):
                for l2 in range(l1 + 1, L):
                    for h2 in range(NH):
                        table[l1 * NH + h1, l2 * NH + h2] = fro(ov[l1, h1] @ r(l2, h2)) / (fro(ov[l1, h1]) * fro(r(l2, h2)))
        out["composition_" + kind] = table.tolist()
    we = w["wte.weight"].astype(np.float64)
    copying = []
    for l in range(L):
        row = []
        for h in range(NH):
            lam = np.linalg.eigvals(we @ ov[l, h] @ we.T)  # V × V, rank HS: the rest are ~0
            row.append(float(lam.sum().real / np.abs(lam).sum()))
        copying.append(row)
    out["copying"] = copying
    return out


# ---- patching ----

def patching(w, clean, corrupted, right, wrong, sender, receiver):
    """Every head's z patched from the clean run into the corrupted one (all positions);
    the attribution-patching estimate of the same, Σ (z_clean − z_corrupted)·∂metric/∂z,
    with the gradient by central differences; and path patching of sender → receiver.
    Each normalised as (patched − corrupted) / (clean − corrupted) of the metric
    logit[right] − logit[wrong] at the last position."""
    def metric(logits):
        return logits[-1, right] - logits[-1, wrong]

    cc, rc = {}, {}
    m_clean, m_corr = metric(forward(w, clean, cc)), metric(forward(w, corrupted, rc))
    span = m_clean - m_corr

    def patch_head(l, h):
        def fn(layer, z):
            if layer == l:
                z = z.copy()
                z[:, h] = cc[f"blocks.{l}.attn.hook_z"][:, h]
            return z
        return (metric(forward(w, corrupted, z_patch=fn)) - m_corr) / span

    real = [[float(patch_head(l, h)) for h in range(NH)] for l in range(L)]

    eps = 1e-5
    estimate = []
    for l in range(L):
        row = []
        for h in range(NH):
            delta = cc[f"blocks.{l}.attn.hook_z"][:, h] - rc[f"blocks.{l}.attn.hook_z"][:, h]
            grad = np.zeros_like(delta)
            for idx in np.ndindex(*delta.shape):
                def nudge(sign):
                    def fn(layer, z):
                        if layer == l:
                            z = z.copy()
                            z[idx[0], h, idx[1]] += sign * eps
                        return z
                    return metric(forward(w, corrupted, z_patch=fn))
                grad[idx] = (nudge(1) - nudge(-1)) / (2 * eps)
            row.append(float((delta * grad).sum() / span))
        estimate.append(row)

    # Path patching: the sender's clean z, everything between it and the receiver frozen
    # at its corrupted value (the heads of the layers in between and the MLPs from the
    # sender's layer on), so that the change reaches the receiver only directly; then the
    # receiver's z from that run into the corrupted run.
    (ls, hs), (lr, hr) = sender, receiver

    def freeze(layer, z):
        z = z.copy()
        if layer == ls:
            z[:, hs] = cc[f"blocks.{ls}.attn.hook_z"][:, hs]
        elif ls < layer < lr:
            z = rc[f"blocks.{layer}.attn.hook_z"].copy()
        return z

    def freeze_mlp(layer, out):
        return rc[f"blocks.{layer}.hook_mlp_out"] if ls <= layer < lr else out

    sent = {}
    forward(w, corrupted, sent, z_patch=freeze, mlp_patch=freeze_mlp)
    received = sent[f"blocks.{lr}.attn.hook_z"][:, hr]

    def into_receiver(layer, z):
        if layer == lr:
            z = z.copy()
            z[:, hr] = received
        return z

    path = (metric(forward(w, corrupted, z_patch=into_receiver)) - m_corr) / span
    r, e = np.array(real).ravel(), np.array(estimate).ravel()
    return {"clean": clean, "corrupted": corrupted, "right": right, "wrong": wrong,
            "clean_metric": float(m_clean), "corrupted_metric": float(m_corr),
            "head_patching": real, "attribution": estimate, "pearson": float(np.corrcoef(r, e)[0, 1]),
            "sender": list(sender), "receiver": list(receiver), "path_patching": float(path)}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(here, "..", "interp", "testdata", "reference"))
    out = parser.parse_args().out
    os.makedirs(out, exist_ok=True)

    rng = ref.SplitMix64(SEED)
    w = ref.random_weights(rng)
    ref.write_safetensors(os.path.join(out, "model.safetensors"), w, {"format": "pt"})
    config = {"activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"],
              "layer_norm_epsilon": ref.EPS, "model_type": "gpt2", "n_embd": C, "n_head": NH,
              "n_layer": L, "n_positions": ref.BLOCK, "vocab_size": V}
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=2, sort_keys=True)
        f.write("\n")

    # A sequence with repeats: 6 random tokens three times, after token 0; one token is
    # doubled, so the induction pattern has a 1 on the diagonal too.
    r = rng.integers(V - 1, 6) + 1
    r[3] = r[2]
    repeated = [0] + [int(t) for t in r] * 3
    result = {"repeated": repeated, "head_scores": head_scores(w, repeated),
              "circuits": circuits(w), "processing": processing(w, repeated, out)}
    # Patching: the repeated sequence, and the same with two tokens of its last copy
    # changed; the answer, after the last token, is the token that followed it before
    # (an induction answer) against the one after that.
    corrupted = list(repeated)
    corrupted[14], corrupted[16] = (int(t) + 1 for t in rng.integers(V - 1, 2))
    result["patching"] = patching(w, repeated, corrupted, repeated[1], repeated[2], (0, 2), (2, 0))
    with open(os.path.join(out, "reference.json"), "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
