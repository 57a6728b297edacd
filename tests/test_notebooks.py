"""The walk-through notebooks, executed end to end with nbclient on the gptnotes kernel (as
Jupyter's Run All does), then checked: no error outputs (except in cells tagged
raises-exception), the figures are there, and the study's exact figures appear where a notebook
computes them. The executed notebooks and their run times are written to test-output/."""
import base64
import json
import pathlib
import re
import subprocess
import sys
import time

import nbformat
import pytest
from nbclient import NotebookClient

from kernel_harness import KERNEL_NAME, ROOT

NOTEBOOKS = ROOT / "notebooks"
OUT = ROOT / "test-output"
LIMIT = 300  # seconds per notebook; each takes well under 2 minutes on an idle 2-core machine

_executed = {}


def run(name):
    """Executes notebooks/NAME once per test session and returns (notebook, seconds)."""
    if name not in _executed:
        nb = nbformat.read(NOTEBOOKS / name, as_version=4)
        start = time.monotonic()
        NotebookClient(nb, kernel_name=KERNEL_NAME, timeout=LIMIT, allow_errors=True,
                       resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
        seconds = time.monotonic() - start
        OUT.mkdir(exist_ok=True)
        nbformat.write(nb, OUT / name)
        # The session's first notebook starts the file afresh; a run that executes none
        # leaves the last one's times in place.
        with open(OUT / "notebook-times.txt", "a" if _executed else "w") as f:
            f.write(f"{name}\t{seconds:.1f} s\n")
        _executed[name] = (nb, seconds)
    return _executed[name]


def code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def text(cell):
    """Everything a cell showed as text: streams and the text/plain of results."""
    parts = []
    for o in cell.outputs:
        if o.output_type == "stream":
            parts.append(o.text)
        elif o.output_type in ("execute_result", "display_data"):
            parts.append(o.data.get("text/plain", ""))
    return "".join(parts)


def cell(nb, snippet):
    """The code cell whose source is snippet, or else the one cell that contains it."""
    found = [c for c in code_cells(nb) if c.source == snippet] or \
        [c for c in code_cells(nb) if snippet in c.source]
    assert len(found) == 1, f"{len(found)} cells contain {snippet!r}"
    return found[0]


def pngs(nb):
    out = []
    for c in code_cells(nb):
        for o in c.outputs:
            if o.output_type in ("execute_result", "display_data") and "image/png" in o.data:
                png = base64.b64decode(o.data["image/png"])
                assert png[:8] == b"\x89PNG\r\n\x1a\n"
                out.append(png)
    return out


def sliders(nb):
    return [o for c in code_cells(nb) for o in c.outputs
            if o.output_type in ("execute_result", "display_data")
            and "gptnotes-slider" in o.data.get("text/html", "")]


def widgets(nb):
    """The live widgets shown (package live's explorers), as their text fallbacks."""
    return [o.data["text/plain"] for c in code_cells(nb) for o in c.outputs
            if o.output_type in ("execute_result", "display_data")
            and "application/vnd.jupyter.widget-view+json" in o.data]


def assert_clean(name):
    """Runs the notebook and checks that only cells tagged raises-exception show errors, and
    that it opens by saying which model it uses."""
    nb, seconds = run(name)
    assert seconds < LIMIT
    for c in code_cells(nb):
        if "raises-exception" in c.metadata.get("tags", []):
            continue
        errors = [o for o in c.outputs if o.output_type == "error"]
        assert not errors, f"{name}: error in cell\n{c.source}\n→ {errors[0].ename}: {errors[0].evalue}"
        stderr = [o.text for o in c.outputs if o.output_type == "stream" and o.name == "stderr"]
        assert not stderr, f"{name}: stderr in cell\n{c.source}\n→ {stderr}"
    first = text(code_cells(nb)[0])
    if name.startswith("03c-"):  # the lesson model of notebook 3c, gpt.Lesson's
        assert first.startswith("The lesson model: 2 attention-only blocks"), first
    else:
        assert "OpenAI's GPT-2 (" in first or "GPT-2 was not found, so this is the small model shipped" in first, first
    return nb


def test_committed_notebooks_are_built_from_their_sources():
    r = subprocess.run([sys.executable, str(NOTEBOOKS / "build.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for path in NOTEBOOKS.glob("*.ipynb"):
        meta = json.loads(path.read_text())["metadata"]
        assert meta["kernelspec"]["name"] == "gptnotes", path  # what `gptnotes install` writes
        assert meta["kernelspec"]["language"] == "go", path


def test_01_tokenizer():
    nb, seconds = run("01-tokenizer-solutions.ipynb")
    assert seconds < 120, seconds  # the notebooks' two-minute budget
    nb = assert_clean("01-tokenizer-solutions.ipynb")
    assert "[256 97 98 100 256 97 98 97 99]" in text(cell(nb, "merged := mergePair(ids"))
    assert "40 merges, vocabulary 296" in text(cell(nb, "small, err := tokenizer.Train(paragraph"))
    assert len(pngs(nb)) == 1  # the merge counts
    gpt2 = text(cell(nb, "gpt2 := tokenizer.MustGPT2()"))
    assert "vocabulary: 50257 end token: 50256" in gpt2 and '15496:"Hello" 995:" world"' in gpt2
    roundtrip = text(cell(nb, "round trip equal"))
    assert roundtrip.count("round trip equal: true") == 4, roundtrip
    assert "html" in str(cell(nb, "small.EncodeTrace(\"The gopher").outputs[0].data.keys())
    split = text(cell(nb, "tokenizer.Split(\"The gopher's"))
    assert '"The" " gopher" "\'s" " 3" " tunnels" ","' in split, split
    last = text(cell(nb, "learned[len(learned)-6:]"))
    assert last.count("merge ") == 6 and "merge 40/40" in last, last
    [explorer] = widgets(nb)
    assert explorer.startswith('VBox of 2 widgets: Textarea "text"'), explorer[:200]
    # The student's pair count, merge and trainer, the trainer checked against Train and
    # then run on the paragraph; the encoder, checked against Encode, then used on a sentence.
    assert [(gid, ok) for gid, ok, _ in checks(nb)] == [
        ("count-pairs", True), ("merge-pair", True), ("bpe-train", True), ("encode-chunk", True), ("decode", True)]
    assert "40 merges; the same as Train's: true" in text(cell(nb, "mine := train(paragraph, 40)"))
    special = text(cell(nb, "gpt2.EncodeWithSpecial(docs"))
    assert "EncodeWithSpecial: [26495 257 50256 26495 275]" in special, special
    assert "the end token is 296" in text(cell(nb, "withEnd, err := tokenizer.Train("))
    mine = text(cell(nb, "myIDs = append(myIDs, encodeChunk("))
    yours, encoded = re.search(r"yours: +(\[.*\])\nEncode: +(\[.*\])", mine).groups()
    assert yours == encoded, mine


def test_02_five_decisions():
    nb = assert_clean("02-five-decisions-solutions.ipynb")
    counts = text(cell(nb, "small := gpt.Count(gpt.Small)"))
    assert "tied:   124,439,808" in counts and "untied: 163,037,184" in counts and "31%" in counts
    assert "wpe.weight [1024 768]" in text(cell(nb, 't.Name == "wte.weight" || t.Name == "wpe.weight"'))
    assert text(cell(nb, "long := make([]int, 1100)")).strip().endswith(
        "Cannot forward sequence of length 1100, block size is only 1024")
    init = text(cell(nb, "0.02/math.Sqrt(24)"))
    assert re.search(r"h\.0\.attn\.c_proj\.weight\s+std 0\.004[01]", init), init
    growth = text(cell(nb, "gpt.ResidualGrowth(cfg"))
    final = {(int(l), s == "true"): float(x) for l, s, x in
             re.findall(r"(\d+) blocks, scaled (true|false)\s*: the stream ends\s+([\d.]+)x", growth)}
    # The study (3 seeds, 64 positions): 10.7, 10.8 scaled; 54.3, 113.1 plain.
    assert 8 < final[12, True] < 13 and 8 < final[48, True] < 13, final
    assert 45 < final[12, False] < 62 and 95 < final[48, False] < 125, final
    assert len(pngs(nb)) == 1
    lns = text(cell(nb, 't.Name == "h.0.ln_1.weight"'))
    assert lns.split("\n")[:3] == ["h.0.ln_1.weight [768]", "h.0.ln_2.weight [768]", "ln_f.weight [768]"], lns
    walk = [float(x) for x in re.findall(r"after +\d+ writes: length ([\d.]+)", text(cell(nb, "for writes := 1; writes <= 48")))]
    assert len(walk) == 3 and 3.0 < walk[1] / walk[0] < 4.0 and 6.0 < walk[2] / walk[0] < 8.0, walk  # √12, √48
    for check in ("check.LayerNorm(layerNorm).Must()", "check.GELU(gelu).Must()"):
        assert text(cell(nb, check)).startswith("right: "), text(cell(nb, check))


def test_02_exercises_fail_their_checks():
    nb = assert_clean("02-five-decisions.ipynb")
    for check in ("check.LayerNorm(layerNorm).Must()", "check.GELU(gelu).Must()"):
        [err] = [o for o in cell(nb, check).outputs if o.output_type == "error"]
        assert "not yet: " in err.evalue, err.evalue


def test_03_training_is_one_call():
    nb, seconds = run("03-training-is-one-call-solutions.ipynb")
    assert seconds < 120, seconds  # the notebooks' two-minute budget
    nb = assert_clean("03-training-is-one-call-solutions.ipynb")
    fwd = text(cell(nb, "untrained.Init(1, true)"))
    assert "logits (1, 92, 50257), loss" in fwd
    loss = float(re.search(r"loss ([\d.]+)", fwd).group(1))
    assert 10.5 < loss < 11.2, fwd  # ≈ ln 50257 = 10.825
    by_hand = text(cell(nb, "mean += crossEntropy(out.Row(0, t), targets[t])"))
    m = re.search(r"mean over 92 positions: ([\d.]+); Forward said ([\d.]+)", by_hand)
    assert m and abs(float(m.group(1)) - float(m.group(2))) < 2e-3, by_hand
    assert "logits (1, 1, 50257), no loss (no targets)" in text(cell(nb, "untrained.Forward([][]int{inputs}, nil)"))
    run_cell = cell(nb, "trainer.Run(context.Background())")
    assert "80 steps in" in text(run_cell)
    assert len(pngs(nb)) == 1  # the loss curve, updated in place: one output
    step = text(cell(nb, "x, y := trainer.Train.Next()"))
    assert "batch of 8 sequences of 64 tokens" in step and "forward: logits (8, 64, " in step, step
    assert "update at learning rate" in step, step
    again = re.search(r"loss ([\d.]+) before the update, ([\d.]+) after", text(cell(nb, "again, err := student.Forward(x, y)")))
    assert again and float(again.group(2)) < float(again.group(1)), again
    gap = text(cell(nb, "trainLoss, valLoss := meanLoss(corpus.Train), meanLoss(corpus.Val)"))
    m = re.search(r"training files ([\d.]+), held-out files ([\d.]+): a gap of ([-\d.]+)", gap)
    assert m and float(m.group(2)) > float(m.group(1)), gap  # the held-out files are harder
    assert "held out: [" in gap and ".go" in gap, gap
    assert re.search(r"\d+ cached generation steps: .*\(\d+x\)", text(cell(nb, "oneCall := time.Since(t0)")))
    assert [(gid, ok) for gid, ok, _ in checks(nb)] == [("cross-entropy", True), ("train-loop", True), ("lr-schedule", True)]
    # The student's loop on the corpus: the Trainer's first five losses (the same warm-up), then
    # another schedule's.
    mine = text(cell(nb, "myLosses, myVal := trainLoop(mine, corpus.Train, corpus.Val, o)"))
    pairs = re.findall(r"step (\d): yours ([\d.]+), the Trainer's ([\d.]+)", mine)
    assert len(pairs) == 7 and all(a == b for _, a, b in pairs[:5]) and pairs[6][1] != pairs[6][2], mine
    assert re.search(r"held out: [\d.]+ after step 5, [\d.]+ after step 10", mine), mine
    held = re.search(r"held out: \[(.*)\]", gap).group(1).split()
    assert len(held) > 1, gap  # more than one file held out, so the gap means something
    assert not any("What the ML engineer watches" in c.source for c in nb.cells)  # at the end of 06


def test_03a_attention_step_by_step():
    nb, seconds = run("03a-attention-step-by-step-solutions.ipynb")
    assert seconds < 120, seconds  # the budget for this notebook, on the shipped model
    nb = assert_clean("03a-attention-step-by-step-solutions.ipynb")
    steps = text(cell(nb, "for i := 0; i < 9; i++"))
    assert steps.startswith("0 hook_embed [1 ") and "blocks.0.ln1.hook_scale" in steps, steps
    assert "blocks.0.attn.hook_q" in steps, steps
    # The student's first two steps, checked against the model's tensor of this prompt.
    for name in ("attn.scores", "hook_attn_scores"):
        verdict = text(cell(nb, {"attn.scores": "check.Head(scores(qh, kh), raw.Output, head)",
                                 "hook_attn_scores": "check.Head(mask(scores(qh, kh))"}[name]))
        assert verdict.startswith("right: head 0 of blocks.") and name in verdict, verdict
    # The softmax and z: against this prompt's tensor (Must panics if not), then the functions on
    # the checker's own inputs, the verdict the cell shows.
    assert text(cell(nb, "pattern := softmaxRows(mask(scores(qh, kh)))")).startswith("right: the masked softmax")
    assert text(cell(nb, "z := weightedSum(")).startswith("right: attention of one head")
    assert len(pngs(nb)) == 3  # every head's pattern, the one head, the ablation map
    braces = text(cell(nb, "bestL, bestH, bestScore := 0, 0, 0.0"))
    m = re.search(r"(\d+) brace pairs; the head that looks most from a \} to its \{: layer \d head \d, (\d+)% of its weight", braces)
    # "the best head puts about a tenth of its weight there on average"
    assert m and int(m.group(1)) == 3 and 7 <= int(m.group(2)) <= 15, braces
    # The cropped map: a row per "}", a column per "{", each pair marked; "a few times the even share".
    table = text(cell(nb, "closes := map[int]int{}"))
    rows = re.findall(r"\} at (\d+) +((?:[\d.]+%[* ] +)+)([\d.]+)%", table)
    assert len(rows) == 3 and table.count("*") == 3, table
    own = [float(re.search(r"([\d.]+)%\*", r[1]).group(1)) for r in rows]
    even = [float(r[2]) for r in rows]
    assert sum(own) / 3 > 2 * sum(even) / 3, table
    share = text(cell(nb, "best, bestShare, sinks := 0, 0.0, 0"))
    assert share.count("of its weight on the previous token") == 8, share  # the shipped model's 8 heads
    # "about a fifth of its weight one token back, not far above what spreading evenly would give"
    prev = [float(x) for x in re.findall(r"([\d.]+)% of its weight on the previous token", share)]
    m = re.search(r"spread evenly: ([\d.]+)% on any one position; (\d) of 8 heads put more than that on position 0", share)
    assert m and 17 <= max(prev) <= 27 and max(prev) - float(m.group(1)) < 12, share
    assert 3 <= int(m.group(2)) <= 6, share  # "about half the heads of this layer"
    lens = text(cell(nb, "cache.LogitLens(tok, 1)"))
    assert "block 7" in lens, lens[:300]  # the last of the shipped model's 8 blocks
    ablation = text(cell(nb, "model.HeadAblation(ids, gpt.ZeroAblation, -1)"))
    m = re.search(r"the largest change: layer (\d) head (\d), loss ([+-][\d.]+) nats", ablation)
    assert m and float(m.group(3)) != 0, ablation


def test_03a_exercises_fail_their_checks():
    nb = assert_clean("03a-attention-step-by-step.ipynb")
    checks = [c for c in code_cells(nb) if "check.Head(" in c.source]
    assert len(checks) == 4 and all(c.metadata["nbgrader"]["grade"] for c in checks)
    for c in checks:
        [err] = [o for o in c.outputs if o.output_type == "error"]
        assert "not yet: " in err.evalue, err.evalue


def test_03b_your_gpt2():
    nb, seconds = run("03b-your-gpt2-solutions.ipynb")
    assert seconds < 120, seconds  # the budget for this notebook, on the shipped model
    nb = assert_clean("03b-your-gpt2-solutions.ipynb")
    # Why the products are compiled: the cell's own loop against gpt.MatMul, the same numbers.
    why = text(cell(nb, "fast := gpt.MatMul(x, w, 3*C)"))
    m = re.search(r"the loop .* gpt\.MatMul .* \(([\d.]+) times faster\); largest difference ([\de.+-]+)", why)
    assert m and float(m.group(1)) > 5 and float(m.group(2)) < 1e-4, why
    assert [(gid, ok) for gid, ok, _ in checks(nb)] == [
        ("embed", True), ("attention-layer", True), ("mlp", True), ("block", True), ("forward", True)]
    forward = text(cell(nb, "check.Forward(forward).Must()"))
    assert forward.startswith("right: the forward matches ForwardAll's to 1e-04"), forward
    m = re.search(r"the mean loss over its \d+ next tokens: yours ([\d.]+), Forward's ([\d.]+)", forward)
    assert m and abs(float(m.group(1)) - float(m.group(2))) <= 1e-4, forward
    # The student's forward generates greedily, token for token the library's generator.
    gen = text(cell(nb, "steps := 12"))
    assert "12 of 12 tokens the same" in gen, gen


def test_03b_exercises_fail_their_checks():
    """The student's notebook runs top to bottom: only the five check cells fail, each saying
    what differs, and the generation cell says the forward is not finished rather than failing."""
    nb = assert_clean("03b-your-gpt2.ipynb")
    verdicts = checks(nb)
    assert [gid for gid, _, _ in verdicts] == ["embed", "attention-layer", "mlp", "block", "forward"]
    for gid, ok, message in verdicts:
        assert not ok and "not yet: " in message, (gid, message)
    assert "your forward does not pass its check yet" in text(cell(nb, "steps := 12"))


LESSON = ROOT / "testdata" / "induction.safetensors"


def need_lesson():
    if not LESSON.exists():
        pytest.skip(f"notebook 3c runs on the lesson model, {LESSON}, which is absent")


def test_03c_induction_heads():
    """Notebook 3c on the lesson model, which passes the induction gate of `gptnotes evalmodel`:
    the second copy far cheaper, the induction head in layer 1 fed by a previous-token head of
    layer 0 that the K-composition finds too, its ablation costing more than a random head's;
    and on the shipped model, none of it."""
    need_lesson()
    nb, seconds = run("03c-induction-heads-solutions.ipynb")
    assert seconds < 120, seconds  # the budget for this notebook
    nb = assert_clean("03c-induction-heads-solutions.ipynb")
    assert [(gid, ok) for gid, ok, _ in checks(nb)] == [
        ("previous-token-score", True), ("induction-score", True), ("head-ablation", True)]
    assert len(pngs(nb)) == 6  # the loss, two layers' patterns, the scores, the ablations, the shipped model's scores
    loss = text(cell(nb, "clean := lossAt(out, seq)"))
    m = re.search(r"first copy ([\d.]+) nats, second copy ([\d.]+) \((\d+)% of the first\); .* = ([\d.]+)", loss)
    assert m and float(m.group(2)) <= float(m.group(1)) / 2, loss  # the gate's half
    heads = text(cell(nb, "indL, indH, indScore := best(indMap, 0, L)"))
    ind = re.search(r"the best induction head: (\d)\.(\d), score ([\d.]+)", heads)
    prev = re.search(r"the best previous-token head: (\d)\.(\d), score ([\d.]+)", heads)
    assert ind and prev and ind.group(1) == "1" and prev.group(1) == "0", heads  # "expect ... layer 1 ... layer 0"
    assert float(ind.group(3)) >= 0.5 and float(prev.group(3)) >= 0.5, heads
    lost = text(cell(nb, "advantageLost := func("))
    shares = [int(x) for x in re.findall(r"(-?\d+)% of the advantage lost", lost)]
    assert len(shares) == 2 and shares[0] > shares[1], lost  # the induction head's, then the random one's
    weights = text(cell(nb, "kL, kH, kScore := fromL, 0, 0.0"))
    assert "the same head: true" in weights, weights  # the K-composition finds the previous-token head
    k = re.search(r"K-composition ([\d.]+); the median over all \d+ pairs of heads is ([\d.]+)", weights)
    assert k and float(k.group(1)) > float(k.group(2)), weights
    # The shipped model has no such circuit: "above the uniform guess", "only a little cheaper",
    # no induction score near the lesson model's, no head mostly on the previous token.
    shipped = text(cell(nb, "shippedPath, err := gpt.ShippedModelPath()"))
    m = re.search(r"first copy ([\d.]+) nats, second copy ([\d.]+) \((\d+)% of the first\)", shipped)
    assert m and float(m.group(1)) > 8.32 and int(m.group(3)) > 80, shipped  # ln 4096 = 8.32
    s = re.search(r"best induction head \d\.\d, score ([\d.]+); best previous-token head \d\.\d, score ([\d.]+)", shipped)
    assert s and float(s.group(1)) < 0.25 and float(s.group(2)) < 0.5, shipped


def test_03c_exercises_fail_their_checks():
    """The student's notebook runs top to bottom: only the three check cells fail, each saying
    what differs."""
    need_lesson()
    nb = assert_clean("03c-induction-heads.ipynb")
    verdicts = checks(nb)
    assert [gid for gid, _, _ in verdicts] == ["previous-token-score", "induction-score", "head-ablation"]
    for gid, ok, message in verdicts:
        assert not ok and "not yet: " in message, (gid, message)


def test_04_the_generation_loop():
    nb = assert_clean("04-the-generation-loop-solutions.ipynb")
    assert "35,456 positions without a cache, 266 with one: 133 times fewer" in text(cell(nb, "gpt.Positions(11, 256)"))
    counted = text(cell(nb, "countPositions(false)"))
    assert "uncached: counted 2720 formula 2720" in counted and "cached:   counted 74 formula 74" in counted
    assert len(pngs(nb)) == 3  # positions vs time, the cache budget, the roofline
    assert len(sliders(nb)) == 2
    # The roofline of this machine: a decode step under the memory's slope, a 512-token prompt
    # under the cores' peak (its intensity, 172 FLOP/byte, is far past any machine's ridge).
    roof = text(cell(nb, "viz.Roofline(report)"))
    assert "## ceilings, the better of the run's start and end (load " in roof, roof[:500]
    assert re.search(r"\| decode step fp32 tg16 \| 0\.50 \| [\d.]+ \| memory stream \| \d+% \|", roof), roof
    assert re.search(r"\| prompt fp32 pp512 \| 171\.60 \| [\d.]+ \| FMA peak \| \d+% \|", roof), roof
    [stepper] = widgets(nb)  # the live stepper beside the precomputed slider
    assert "Button \"Step\"" in stepper, stepper
    cache = text(cell(nb, "cache := fast.Cache()"))
    allocated = re.search(r"allocated: ([\d,]+) bytes", cache).group(1)
    assert f"2·L·T·C·4 = {allocated} bytes" in cache
    assert "73,728 bytes; at 1,024 positions: 75.5 MB" in cache
    crop = text(cell(nb, "cropping.Window, cropping.Keep = 24, 16"))
    assert crop.count("same token as the uncached loop: true") == 24, crop
    assert crop.count("window moved") == 2, crop
    # The student's own cached loop matches the full forward on the logits, and the Generator's tokens.
    own = text(cell(nb, "mine, myCache := myCachedLoop(model, prompt, 20)"))
    assert float(re.search(r"over 20 steps: (\S+) ", own).group(1)) < 1e-4, own
    assert "cache holds 30 positions: the prompt's 11 and 19 fed back" in own, own
    mine = re.search(r"my first 5 tokens: +(\[.*\])", own).group(1)
    assert f"the Generator's 5:    {mine}" in own, own
    assert [(gid, ok) for gid, ok, _ in checks(nb)] == [("cached-loop", True), ("window-loop", True)]
    seed = text(cell(nb, "gpt.GenerateChan(model, model.Config.BlockSize"))
    assert "GenerateText at T = 0 is the greedy Generator's text: true" in seed, seed
    assert re.search(r"\b(\d+) ids streamed, the prompt's included", seed), seed
    # The stale cache, broken on purpose: equal before the first crop, wrong after, no error.
    stale = text(cell(nb, "gpt.CompareCrop(model, prompt, 60, 24)"))
    m = re.search(r"first crop at step (\d+): max \|Δlogit\| (\S+) before it, (\S+) after", stale)
    assert m and m.group(2) == "0" and float(m.group(3)) > 1e-3, stale
    keep = text(cell(nb, "for _, keep := range []int{24, 16, 8}"))
    counts = [int(x) for x in re.findall(r"keep +\d+: +(\d+) positions", keep)]
    assert len(counts) == 3 and counts[0] > counts[1] > counts[2], keep
    rows = text(cell(nb, "study.Select(study.Rows(), []string{\"positions\", \"kv-cache\"})"))
    assert rows.count("the study:") == 2 and "35,456" in rows, rows
    timing = text(cell(nb, "bestOf3 := func(f func()) time.Duration"))
    assert "load average before:" in timing and "load average after:" in timing, timing


def test_05_same_weights_different_bugs():
    nb = assert_clean("05-same-weights-different-bugs-solutions.ipynb")
    caching = text(cell(nb, "gpt.CompareCaching(model, prompt, 60)"))
    assert float(re.search(r"largest logit difference ([\d.e+-]+);", caching).group(1)) < 1e-3, caching
    assert "T = 0: [NaN NaN NaN]" in text(cell(nb, "naive(logits, 0)"))
    assert "picked id 0 with probability 1" in text(cell(nb, "gpt.Policy{Temperature: 0}"))
    seeds = text(cell(nb, "sample40(42), sample40(42), sample40(7)"))
    assert "seed 42 twice, same 40 tokens: true" in seeds and "seed 42 vs seed 7, same 40 tokens: false" in seeds
    batch = text(cell(nb, "gpt.CompareBatch(model, prompt, 8)"))
    assert "tokens kept" in batch and batch.endswith("max |Δlogit| 0"), batch
    # The batch lesson: ours exactly 0 over the prompt, a split-K product not.
    inv = text(cell(nb, "gpt.CompareBatchInvariance(model, prompt, 8)"))
    m = re.search(r"ours max \|Δlogit\| (\S+) .*batched\) (\S+),", inv)
    assert m and m.group(1) == "0" and float(m.group(2)) > 0, inv
    assert len(pngs(nb)) == 2
    # One step by hand, then the same step of CompareCaching.
    hand = re.search(r"step 2: max \|Δ\| (\S+), mean Δ \S+, max \|Δ − mean\| \S+; top-2 gap (\S+) uncached",
                     text(cell(nb, "cachedRow, err := model.ForwardCached(cache, []int{best})")))
    assert hand and float(hand.group(1)) < 1e-3 < float(hand.group(2)), hand
    assert f"its step 2: max |Δ| {hand.group(1)}," in text(cell(nb, "s2 := caching.Steps[1]"))
    rounded = text(cell(nb, "for _, x := range []float32{math.Pi"))
    assert "3.1415927    → 3.140625" in rounded and "301          → 300" in rounded, rounded
    assert [(gid, ok) for gid, ok, _ in checks(nb)] == [("bf16-round", True), ("split-k", True)]
    # "On the shipped model the loops after this prompt split at step 9"
    split = text(cell(nb, "gpt.ComparePrecision(model, bf16, tok.Encode(bf16Text), 40)"))
    assert "tokens split at step 9 (0 = never)" in split, split
    parts = text(cell(nb, "s := sumSplitK(a, b, parts)"))
    assert len(set(re.findall(r"bits ([0-9a-f]{8})", parts))) > 1, parts  # the parts move the last bits


def test_06_sampling_policy():
    nb = assert_clean("06-sampling-policy-solutions.ipynb")
    assert len(pngs(nb)) == 3 and len(sliders(nb)) == 1
    [explorer] = widgets(nb)  # the live sampling explorer beside the precomputed slider
    assert 'FloatSlider "temperature" = 1' in explorer, explorer
    table = text(cell(nb, "gpt.NucleusSize(l, 1, 0.9)"))
    assert table.count("entropy") == 4
    assert "temperature 0.8, top-k 200, top-p off, seed 1337" in text(cell(nb, "gpt.NanoGPT"))
    logged = text(cell(nb, "gpt.Generate(context.Background()"))
    assert logged.count("[temperature") == 3, logged  # each text printed with its policy
    # The student's sampler agrees with the library's, draw for draw, under four policies.
    draws = text(cell(nb, "draw, rng := mySampler(logits, p), gpt.NewRand(p.Seed)"))
    assert draws.count("100 of 100 draws equal") == 4, draws
    topk1 = text(cell(nb, "gpt.Policy{Temperature: 1, TopK: 1, Seed: 9}"))
    picks = re.findall(r"top-k 1 picks (.*?) +greedy picks (.*)", topk1)
    assert len(picks) == 4 and all(a.strip() == b.strip() for a, b in picks), topk1
    loop = text(cell(nb, "gpt.FirstRepeat(out, 8)"))
    assert "repeats what it wrote at token" in loop or "no span of 8 tokens repeats" in loop, loop
    assert [(gid, ok) for gid, ok, _ in checks(nb)] == [("sampler", True), ("first-repeat", True)]
    # The habits of notebooks 3 to 6 close the last walk-through, after what they refer to.
    headings = [line for c in nb.cells if c.cell_type == "markdown" for line in c.source.splitlines()
                if line.startswith("## ")]
    assert headings[-1] == "## What the ML engineer watches", headings


@pytest.mark.parametrize("name,ids", [
    ("01-tokenizer.ipynb", ["count-pairs", "merge-pair", "bpe-train", "encode-chunk", "decode"]),
    ("03-training-is-one-call.ipynb", ["cross-entropy", "train-loop", "lr-schedule"]),
    ("04-the-generation-loop.ipynb", ["cached-loop", "window-loop"]),
    ("05-same-weights-different-bugs.ipynb", ["bf16-round", "split-k"]),
    ("06-sampling-policy.ipynb", ["sampler", "first-repeat"]),
])
def test_exercises_run_and_fail_their_checks(name, ids):
    """The student's notebooks run top to bottom (only the check cells fail, each saying
    what differs; tests/test_exercises.py checks the mistakes one by one). Notebook 00's is
    tests/test_notebook_00.py's."""
    nb = assert_clean(name)
    verdicts = checks(nb)
    assert [gid for gid, _, _ in verdicts] == ids
    for gid, ok, message in verdicts:
        assert not ok and "not yet: " in message, (gid, message)


def checks(nb):
    """The verdicts of the exercise check cells (nbgrader grade cells), in order:
    (grade_id, right?, message): the cell's output when right, its error's value when not."""
    out = []
    for c in code_cells(nb):
        meta = c.metadata.get("nbgrader", {})
        if not meta.get("grade"):
            continue
        errors = [o for o in c.outputs if o.output_type == "error"]
        out.append((meta["grade_id"], not errors, errors[0].evalue if errors else text(c)))
    return out


def test_07_solutions_pass_every_check():
    nb = assert_clean("07-exercises-solutions.ipynb")
    verdicts = checks(nb)
    assert len(verdicts) == 13
    for n, (gid, ok, message) in enumerate(verdicts, 1):
        assert ok and message == f"Exercise {n}: right.\n", (gid, message)
    # Exercise 12's real case: the fp32 and bf16 loops after prompt12 part (at step 9).
    assert text(cell(nb, "bf16run.Split")).strip() == "9", text(cell(nb, "bf16run.Split"))


def test_07_exercises_fail_every_check_saying_what_differs():
    """Each check cell of the student's notebook fails (tests/test_exercises.py checks the
    messages, and the named mistakes, one by one)."""
    nb = assert_clean("07-exercises.ipynb")
    verdicts = checks(nb)
    assert len(verdicts) == 13
    for gid, ok, message in verdicts:
        assert not ok, f"{gid} passes with its blank"
        assert message.startswith("not yet: ") and ("you have" in message or "want" in message), (gid, message)
