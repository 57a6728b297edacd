"""Notebook 3a on a GPT-2-shaped model in Hugging Face's layout, as it runs where OpenAI's GPT-2
is installed: a small random model with GPT-2's vocabulary (50,257) and context (1,024), but
only 3 blocks of width 128, written as model.safetensors with a config.json beside it (the
hub's plain keys and h.N.attn.bias buffers, no gptnotes metadata), found through $GPT2_WEIGHTS
in the kernel's environment. The notebook must run clean (its check cells pass: the solutions
run on whatever model is loaded) and say which model it ran, not calling this one OpenAI's.

The weights are random, so nothing here is about what the model predicts: this is the code path
of the real GPT-2 (LoadHF, GPT-2's tokenizer and its prompt, more or fewer heads and blocks than
the shipped model's) without its 500 MB."""
import json
import os

import nbformat
import numpy as np
from nbclient import NotebookClient

from kernel_harness import KERNEL_NAME, ROOT
from make_reference import write_safetensors
from test_notebooks import code_cells, pngs, text

NOTEBOOK = ROOT / "notebooks" / "03a-attention-step-by-step-solutions.ipynb"
VOCAB, BLOCK, LAYERS, HEADS, WIDTH = 50257, 1024, 3, 4, 128  # GPT-2's V and block; HS 32


def write_model(dir):
    """A random GPT-2 of the shape above in Hugging Face's layout; returns the file's path."""
    rng = np.random.default_rng(19)
    C = WIDTH

    def normal(std, *shape):
        return rng.normal(0, std, shape).astype(np.float32)

    w = {"wte.weight": normal(0.02, VOCAB, C), "wpe.weight": normal(0.01, BLOCK, C)}
    for l in range(LAYERS):
        p = f"h.{l}."
        w[p + "ln_1.weight"] = 1 + normal(0.1, C)
        w[p + "ln_1.bias"] = normal(0.02, C)
        w[p + "attn.c_attn.weight"] = normal(0.2, C, 3 * C)  # large enough for patterns that differ
        w[p + "attn.c_attn.bias"] = normal(0.02, 3 * C)
        w[p + "attn.c_proj.weight"] = normal(0.02, C, C)
        w[p + "attn.c_proj.bias"] = normal(0.02, C)
        w[p + "ln_2.weight"] = 1 + normal(0.1, C)
        w[p + "ln_2.bias"] = normal(0.02, C)
        w[p + "mlp.c_fc.weight"] = normal(0.02, C, 4 * C)
        w[p + "mlp.c_fc.bias"] = normal(0.02, 4 * C)
        w[p + "mlp.c_proj.weight"] = normal(0.02, 4 * C, C)
        w[p + "mlp.c_proj.bias"] = normal(0.02, C)
        w[p + "attn.bias"] = np.tril(np.ones((BLOCK, BLOCK), np.float32))[None, None]  # the hub's mask buffer
    w["ln_f.weight"] = 1 + normal(0.1, C)
    w["ln_f.bias"] = normal(0.02, C)
    path = dir / "model.safetensors"
    write_safetensors(path, w, {"format": "pt"})
    (dir / "config.json").write_text(json.dumps({
        "model_type": "gpt2", "vocab_size": VOCAB, "n_positions": BLOCK, "n_ctx": BLOCK,
        "n_layer": LAYERS, "n_head": HEADS, "n_embd": WIDTH,
        "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5}))
    return path


def test_03a_on_a_gpt2_shaped_hf_model(tmp_path):
    weights = write_model(tmp_path)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, kernel_name=KERNEL_NAME, timeout=300, allow_errors=True,
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute(
        env=dict(os.environ, GPT2_WEIGHTS=str(weights)))
    cells = code_cells(nb)
    for c in cells:
        errors = [o for o in c.outputs if o.output_type == "error"]
        assert not errors, f"error in cell\n{c.source}\n→ {errors[0].ename}: {errors[0].evalue}"
        stderr = [o.text for o in c.outputs if o.output_type == "stream" and o.name == "stderr"]
        assert not stderr, f"stderr in cell\n{c.source}\n→ {stderr}"
    first = text(cells[0])
    assert first.startswith(f"A GPT-2-shaped model that is not one of OpenAI's four sizes ({LAYERS} blocks, "
                            f"width {WIDTH}, {HEADS} heads, {VOCAB}-token vocabulary,") and str(weights) in first, first
    assert f"{LAYERS} blocks (layers 0 … {LAYERS - 1}), {HEADS} heads of {WIDTH // HEADS} channels" in first, first
    prompt = text(next(c for c in cells if "prompt := " in c.source))
    assert prompt.startswith("12 tokens: [\"The\" \" cat\""), prompt  # GPT-2's tokenizer and prompt
    for c in cells:
        if c.metadata.get("nbgrader", {}).get("grade"):
            assert text(c).startswith("right: "), (c.source, text(c))
    share = text(next(c for c in cells if "best, bestShare, sinks := 0, 0.0, 0" in c.source))
    assert share.count("of its weight on the previous token") == HEADS, share
    assert f"block {LAYERS - 1}" in text(next(c for c in cells if "cache.LogitLens(tok, 1)" in c.source))
    assert len(pngs(nb)) == 3  # every head, the one head, the ablation map (the brace head is a table)
