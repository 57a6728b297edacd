"""Every exercise check of the course, on the real kernel: with the blank (it must fail), with
each mistake students make (it must fail, saying what differs), and with the solution (it must
pass). A check fails by raising: its cell ends in an error whose value starts "not yet: ", which
a grader (`gptnotes grade`, nbgrader) counts as not passed.

The cells come from notebooks/src/*.md through notebooks/build.py: the solutions notebook's
cells run in order in one kernel (for the walk-through notebooks, only the cells the exercises
need: SETUP names them); before each answer cell's solution, the blank and then each mistake (a
substitution into the solution) run with the check cell after them. The checks of package
gpt/check (check.CachedLoop, check.BF16, …) have their own Go tests for every mistake they
recognise; here they run end to end through the kernel with one mistake each."""
import importlib.util

import pytest

from kernel_harness import ROOT, Kernel

SOURCES = ROOT / "notebooks" / "src"

# The cells of a walk-through notebook that its exercises need besides their own (any cell
# whose source contains one of the texts); a source not named here runs every cell.
SETUP = {
    "00-go-in-a-notebook": ['fmt.Println("Hello from Go!")', "\ngpt.Greedy"],
    "01-tokenizer": ["gpt.Pretrained()", "small, err := tokenizer.Train(paragraph", "gpt2 := tokenizer.MustGPT2()"],
    "03-training-is-one-call": ["gpt.Pretrained()", "gpt.OpenTokenized(", "gpt.NewTrainer("],
    "04-the-generation-loop": ["gpt.Pretrained()", "prompt := tok.Encode(text)[:11]"],
    "05-same-weights-different-bugs": ["gpt.Pretrained()"],
    "06-sampling-policy": ["gpt.Pretrained()", "greedyText, err := gpt.NewGenerator("],
}

# grade_id of the check → [(mistake, text in the solution, its replacement, what the message must
# say)]; every occurrence of the text is replaced, and a second pair of texts may follow.
MISTAKES = {
    # 00: a function the later cells use.
    "commas": [
        ("the minus sign counted as a digit", "if n < 0 {\n\t\treturn \"-\" + commas(-n)\n\t}\n\t", "",
         'not yet: commas(-123456) should be "-123,456"; you have "-,123,456"'),
        ("a comma before the first group", "i > 0; i -= 3", "i >= 0; i -= 3",
         'not yet: commas(999) should be "999"; you have ",999"'),
    ],
    # 01: encoding one chunk by replaying the merges, and decoding by undoing them.
    "encode-chunk": [
        ("the last-learned merge first", "(best < 0 || r < best)", "(best < 0 || r > best)",
         "not yet: the paragraph's tokenizer, chunk \" gopher\": Encode gives [278]; you have [275 104 282]"),
        ("characters, not bytes", "for _, b := range []byte(chunk)", "for _, b := range chunk",
         "not yet: the paragraph's tokenizer, chunk \" héllo\": Encode gives [32 104 195 169 108 108 111]; you have [32 104 233 108 108 111]"),
    ],
    "decode": [
        ("the right part first", "append(unfold(m.Left), unfold(m.Right)...)", "append(unfold(m.Right), unfold(m.Left)...)",
         "not yet: the paragraph's tokenizer, the ids [279 "),
        ("the ids taken for the bytes", "return []byte{byteOf[id]}", "return []byte{byte(id)}",
         "not yet: GPT-2's tokenizer, the ids [15496 995 0 383 16985 877 338 22642 13]: Decode gives \"Hello world! The gardener's tunnels.\"; you have"),
    ],
    # 03: one position's loss, and the learning-rate schedule.
    "cross-entropy": [
        ("the max not subtracted", ("math.Exp(float64(v) - maxLogit)", "- maxLogit - math.Log(sum)"),
         ("math.Exp(float64(v))", "- math.Log(sum)"),
         "not yet: the logits [1000 999 990 0], target 1: the loss is 1.31329; you have +Inf"),
        ("the max subtracted but not added back", "- maxLogit - math.Log(sum)", "- math.Log(sum)",
         "not yet: position 0, after \"func\", the next token \" main\": Forward's loss is"),
        ("log p, not −log p", "return -logProb", "return logProb", "not yet: position 0, after \"func\", the next token \" main\": Forward's loss is"),
    ],
    "lr-schedule": [
        ("the warm-up from 0", "float64(step+1) / float64(warmup+1)", "float64(step) / float64(warmup)",
         "not yet: lr 0.0006 warmup 100 steps, cosine to 6e-05 at step 1000, step 0: the rate is 5.9406e-06; you have 0"),
        ("the cosine down to 0, not to the floor", "minLR + 0.5*(1+math.Cos(math.Pi*p))*(maxLR-minLR)",
         "0.5 * (1 + math.Cos(math.Pi*p)) * maxLR",
         "not yet: lr 0.0006 warmup 100 steps, cosine to 6e-05 at step 1000, step 550: the rate is 0.00033; you have 0.0003"),
        ("the cosine over every step, warm-up included", "float64(step-warmup) / float64(decay-warmup)",
         "float64(step) / float64(decay)",
         "not yet: lr 0.0006 warmup 100 steps, cosine to 6e-05 at step 1000, step 100: the rate is 0.0006; you have 0.00058679"),
    ],
    "ex01-count-pairs": [
        ("overlapping pairs skipped", "i+1 < len(ids); i++", "i+1 < len(ids); i += 2",
         "the pairs of [1 2 3 1 2] are map[{1 2}:2 {2 3}:1 {3 1}:1]; you have map[{1 2}:1 {3 1}:1]"),
    ],
    "ex02-merge-pair": [
        ("the merged pair's second id kept", "out = append(out, id)\n\t\t\ti++", "out = append(out, id)",
         "[1 2 3 1 2] with (1, 2) → 256 gives [256 3 256]; you have [256 2 3 256 2]"),
    ],
    "ex03-param-count": [
        ("the final LayerNorm forgotten", "L*block + 2*C", "L*block",
         "GPT-2 small (L 12, C 768, V 50257, block 1024) has 124,439,808 parameters; you have 124,438,272"),
    ],
    "ex04-untied": [
        ("a bias counted", "gpt.Small.VocabSize * gpt.Small.Channels",
         "gpt.Small.VocabSize*gpt.Small.Channels + gpt.Small.VocabSize",
         "you have 38,647,633; the output layer maps C channels to V scores"),
    ],
    "ex05-softmax": [
        ("softmax without max-subtraction", "math.Exp(float64(l)/T - maxv)", "math.Exp(float64(l)/T)",
         "at T = 1, the logits [1000 999 990 0]: your probabilities add up to NaN; want 1"),
        ("temperature applied after the softmax", ("float64(l)/T", "probs[i] /= sum\n"),
         ("float64(l)", "probs[i] /= sum * T\n"),
         "at T = 0.5, the logits after \"func main() {\": your probabilities add up to 2; want 1"),
        ("temperature ignored", "float64(l)/T", "float64(l)",
         "at T = 0.5, the logits after \"func main() {\": token"),
    ],
    "ex06-argmax": [
        ("the last of equal logits", "if l > logits[best]", "if l >= logits[best]",
         "argmax([1 3 3]) is 1 (on a tie, the lowest index); you have 2"),
    ],
    "ex07-nucleus": [
        ("temperature ignored", "softmaxT(logits, T)", "softmaxT(logits, 1)",
         "at T = 0.5, p = 0.9 the set after \"func main() {\" has"),
    ],
    "ex08-entropy": [
        ("temperature ignored", "softmaxT(logits, T)", "softmaxT(logits, 1)",
         "after \"func main() {\" the entropy at T = 0.5 is"),
        ("nats, not bits", "math.Log2(q)", "math.Log(q)",
         "after \"func main() {\" the entropy at T = 1 is"),
    ],
    "ex09-positions": [
        ("cached positions off by one", "cached = prompt + newTokens - 1", "cached = prompt + newTokens",
         "11 prompt tokens and 256 new ones: 35,456 positions uncached and 266 cached; you have 35,456 and 267"),
        ("uncached positions off by one", "uncached += prompt + i", "uncached += prompt + i + 1",
         "11 prompt tokens and 256 new ones: 35,456 positions uncached and 266 cached; you have 35,712 and 266"),
    ],
    "ex10-cache-bytes": [
        ("the budget hard-coded to 1,024 positions", "2 * cfg.Layers * positions * cfg.Channels",
         "2 * cfg.Layers * 1024 * cfg.Channels",
         "GPT-2 small with positions = 1 and 2 bytes a number needs 36,864 bytes (2·L·positions·C·bytes); you have 37,748,736"),
    ],
    "ex11-greedy-loop": [
        ("one step too many", "i < n; i++", "i <= n; i++", "twelve greedy steps after"),
    ],
    "ex12-divergence": [
        ("steps counted from 0", "return i + 1", "return i",
         "[1 2 3] and [1 2 4] part at step 3 (counting from 1; 0 if never); you have 2"),
    ],
    # 04: the cached loop (gpt/check), and the window loop against the Generator.
    "cached-loop": [
        ("a fresh cache for every token", "if logits, err = m.ForwardCached(cache, []int{argmax(logits)})",
         "cache = m.NewCache()\n\t\t\tif logits, err = m.ForwardCached(cache, []int{argmax(logits)})",
         "It gives what a known mistake gives: a fresh cache for each new token"),
        ("the prompt forwarded again at each step", "m.ForwardCached(cache, []int{argmax(logits)})",
         "m.ForwardCached(cache, append(append([]int(nil), prompt...), argmax(logits)))",
         "differs first at step 1, token"),
    ],
    "window-loop": [
        ("one token too many kept", "ids = ids[len(ids)-keep:]", "ids = ids[len(ids)-keep-1:]",
         "not yet: window "),
        ("the cache not refilled after the crop", "cache = m.NewCache()\n\t\t\tlogits, err = m.ForwardCached(cache, ids)",
         "logits, err = m.ForwardCached(cache, []int{next})", "not yet: window 24, keep 24: "),
    ],
    # 05: rounding to bf16 (gpt/check), and a split-K sum.
    "bf16-round": [
        ("truncation", "b += 0x7fff + (b>>16)&1", "b += 0",
         "It gives what a known mistake gives: truncation"),
        ("ties away from zero", "b += 0x7fff + (b>>16)&1", "b += 0x8000",
         "It gives what a known mistake gives: ties away from zero"),
    ],
    "split-k": [
        ("the parts ignored", "size := K / parts", "size, parts := K, 1",
         "not yet: K = 768, parts = 4: the split-K sum is"),
        ("the sums in float64", ("var partial float32", "partial += a[k] * b[k]", "total += partial"),
         ("var partial float64", "partial += float64(a[k] * b[k])", "total += float32(partial)"),
         "not yet: K = 768, parts = "),
    ],
    # 06: a seeded sampler (gpt/check), and FirstRepeat.
    "sampler": [
        ("temperature ignored", "probs[v] = math.Exp((float64(l) - float64(logits[best])) / p.Temperature)",
         "probs[v] = math.Exp(float64(l) - float64(logits[best]))",
         "It gives what a known mistake gives: the temperature ignored"),
    ],
    "first-repeat": [
        ("an overlapping earlier occurrence missed", "for j := 0; j < i; j++", "for j := 0; j+n <= i; j++",
         "not yet: in "),
    ],
    "ex13-causal-mask": [
        ("the mask on the wrong triangle", "for j := t + 1; j < len(scores[t]); j++", "for j := 0; j < t; j++",
         "T = 4: query 0 must not see key 1 (a later token), but its score is 1; want -Inf"),
        ("the diagonal masked too", "for j := t + 1;", "for j := t;",
         "T = 1: query 0 sees key 0 (itself or an earlier token), so its score stays 0; you have -Inf"),
    ],
}


def load_build():
    spec = importlib.util.spec_from_file_location("build", ROOT / "notebooks" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    return build


def substitute(code, old, new):
    """code with old replaced by new; old and new are a text or a tuple of texts."""
    old, new = (old, new) if isinstance(old, tuple) else ((old,), (new,))
    for o, n in zip(old, new, strict=True):
        assert o in code, f"{o!r} is not in the solution"
        code = code.replace(o, n)
    return code


def source(cell):
    return "".join(cell["source"])


def grade_id(cell):
    return cell["metadata"].get("nbgrader", {}).get("grade_id")


def outcome(k, code):
    """(ok, text): whether the cell ran without error, and its stdout or its error's value."""
    reply, outs = k.execute(code, timeout=120)
    if reply["status"] == "ok":
        return True, "".join(m["content"]["text"] if m["msg_type"] == "stream" else m["content"]["data"].get("text/plain", "")
                             for m in outs if m["msg_type"] in ("stream", "execute_result"))
    return False, f"{reply['ename']}: {reply['evalue']}"


def exercise_sources():
    """The names of the sources with exercises: those with a check cell."""
    return sorted(p.stem for p in SOURCES.glob("*.md") if "```go check=" in p.read_text())


@pytest.fixture(scope="module")
def verdicts():
    """{(grade_id, case): (ok, text)}, case being "blank", "solution" or a mistake's name."""
    out = {}
    for name in exercise_sources():
        if name in ("02-five-decisions", "03a-attention-step-by-step"):
            continue  # their checks are gpt/check's, tested in Go; test_notebooks runs both versions
        out.update(source_verdicts(name))
    return out


def source_verdicts(name):
    build = load_build()
    text = (SOURCES / f"{name}.md").read_text()
    solution = build.cells(f"{name}-solutions", text, "solution")
    blank = build.cells(name, text, "blank")
    assert len(solution) == len(blank)
    setup = SETUP.get(name)
    out = {}
    k = Kernel()
    try:
        answer = None
        for i, cell in enumerate(solution):
            if cell["cell_type"] != "code":
                continue
            meta = cell["metadata"].get("nbgrader", {})
            if meta.get("solution"):
                answer = i  # run once its check cell is known
                continue
            if meta.get("grade"):
                check = source(cell)
                gid = meta["grade_id"]
                cases = [("blank", source(blank[answer]))]
                for name, old, new, _ in MISTAKES.get(gid, []):
                    cases.append((name, substitute(source(solution[answer]), old, new)))
                cases.append(("solution", source(solution[answer])))
                for name, code in cases:
                    ok, why = outcome(k, code)
                    assert ok, f"{gid}, {name}: the answer cell itself fails: {why}"
                    out[gid, name] = outcome(k, check)
                continue
            if setup is not None and not any(t in source(cell) for t in setup):
                continue
            ok, why = outcome(k, source(cell))
            assert ok, f"{name}, cell {i} fails: {why}"
    finally:
        k.shutdown()
    return out


CHECKS = sorted(MISTAKES)


def test_every_check_has_its_mistakes():
    build = load_build()
    ids = []
    for name in exercise_sources():
        if name in ("02-five-decisions", "03a-attention-step-by-step"):
            continue
        cells = build.cells(f"{name}-solutions", (SOURCES / f"{name}.md").read_text(), "solution")
        ids += [grade_id(c) for c in cells if c["metadata"].get("nbgrader", {}).get("grade")]
    assert sorted(ids) == CHECKS


@pytest.mark.parametrize("gid", CHECKS)
def test_solution_passes(verdicts, gid):
    ok, text = verdicts[gid, "solution"]
    assert ok, text
    if gid.startswith("ex"):  # 07's checks say which exercise
        assert text.strip() == f"Exercise {int(gid[2:4])}: right.", text
    else:
        assert text.startswith("right"), text


@pytest.mark.parametrize("gid", CHECKS)
def test_blank_fails(verdicts, gid):
    ok, text = verdicts[gid, "blank"]
    assert not ok and text.startswith("Panic: not yet: "), text


@pytest.mark.parametrize("gid,name,expected", [(g, m[0], m[3]) for g in CHECKS for m in MISTAKES[g]])
def test_mistake_fails_saying_what_differs(verdicts, gid, name, expected):
    ok, text = verdicts[gid, name]
    assert not ok, f"{gid} passes with the mistake {name!r}: {text}"
    assert text.startswith("Panic: not yet: ") and expected in text, text
