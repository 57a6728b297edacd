"""Every exercise check of the course, on the real kernel: with the blank (it must fail), with
each mistake students make (it must fail, saying what differs), and with the solution (it must
pass). A check fails by raising: its cell ends in an error whose value starts "not yet: ", which
a grader (`gptnotes grade`, nbgrader) counts as not passed.

The cells come from notebooks/src/*.md through notebooks/build.py: the solutions notebook's
cells run in order in one kernel (for the walk-through notebooks, only the cells the exercises
need: SETUP names them); before each answer cell's solution, the blank and then each mistake (a
substitution into the solution), then any other right answer (ALSO_RIGHT, which must pass),
run with the check cell after them, each check RUNS times: a check gives one answer the same
verdict every time. Every graded check has at least three mistakes, the ones students make. The
checks of package gpt/check (check.CachedLoop, check.BF16, …) have their own Go tests for every
mistake they recognise; here they run end to end through the kernel."""
import importlib.util
import os

import pytest

from kernel_harness import ROOT, Kernel

SOURCES = ROOT / "notebooks" / "src"

# The cells of a walk-through notebook that its exercises need besides their own (any cell
# whose source contains one of the texts); a source not named here runs every cell.
SETUP = {
    "00-go-in-a-notebook": ['fmt.Println("Hello from Go!")', "\ngpt.Greedy"],
    "01-tokenizer": ["gpt.Pretrained()", "small, err := tokenizer.Train(paragraph", "gpt2 := tokenizer.MustGPT2()"],
    "02-five-decisions": ["gpt.Pretrained()"],
    "03-training-is-one-call": ["gpt.Pretrained()", "gpt.OpenTokenized(", "gpt.NewTrainer("],
    "03a-attention-step-by-step": ["gpt.Pretrained()", "ids := tok.Encode(prompt)", "_, attn, err := model.RunWithCache(",
                                   "func headOf("],
    "03b-your-gpt2": ["gpt.Pretrained()", "func layerNorm("],
    "03c-induction-heads": ["gpt.Lesson()"],
    "04-the-generation-loop": ["gpt.Pretrained()", "prompt := tok.Encode(text)[:11]"],
    "05-same-weights-different-bugs": ["gpt.Pretrained()"],
    "06-sampling-policy": ["gpt.Pretrained()", "greedyText, err := gpt.NewGenerator("],
}

# mergePair's loop, and the loop that merges overlapping occurrences twice ("aaa" → [aa aa]):
# a pair starting at i becomes id, and an id that ends a pair is dropped.
MERGE_LOOP = """
	for i := 0; i < len(ids); i++ {
		if i+1 < len(ids) && ids[i] == pair.Left && ids[i+1] == pair.Right {
			out = append(out, id)
			i++ // the pair's right id is used up
		} else {
			out = append(out, ids[i])
		}
	}"""
OVERLAPPING_MERGE_LOOP = """
	starts := func(i int) bool { return i >= 0 && i+1 < len(ids) && ids[i] == pair.Left && ids[i+1] == pair.Right }
	for i := range ids {
		if starts(i) {
			out = append(out, id)
		} else if !starts(i - 1) {
			out = append(out, ids[i])
		}
	}"""

# trainLoop's update and its clipping, which two of its mistakes move and leave out.
UPDATE = "_, err = opt.Update(m.Params, m.Grads, schedule.LR(step))\n\t\tdisplay.Check(err)"
CLIP = """
		if norm := gpt.GradNorm(m.Grads.Data); norm > o.ClipNorm {
			scale := float32(o.ClipNorm / norm)
			for i := range m.Grads.Data {
				m.Grads.Data[i] *= scale
			}
		}"""

# grade_id of the check → [(mistake, text in the solution, its replacement, what the message must
# say)]; every occurrence of the text is replaced, and a second pair of texts may follow.
MISTAKES = {
    # 00: a function the later cells use.
    "commas": [
        ("the minus sign counted as a digit", "if n < 0 {\n\t\treturn \"-\" + commas(-n)\n\t}\n\t", "",
         'not yet: commas(-123456) should be "-123,456"; you have "-,123,456"'),
        ("a comma before the first group", "i > 0; i -= 3", "i >= 0; i -= 3",
         'not yet: commas(999) should be "999"; you have ",999"'),
        ("the groups counted from the left", "for i := len(s) - 3; i > 0; i -= 3", "for i := 3; i < len(s); i += 4",
         'not yet: commas(1000) should be "1,000"; you have "100,0"'),
        ("one comma only", "i > 0; i -= 3", "i > 0 && i >= len(s)-4; i -= 3",
         'not yet: commas(1000000) should be "1,000,000"; you have "1000,000"'),
    ],
    # 01: the pair count and the merge, the trainer made of them (check.BPETrain names its
    # mistakes), encoding one chunk by replaying the merges, and decoding by undoing them.
    "count-pairs": [
        ("overlapping pairs skipped", "i+1 < len(ids); i++", "i+1 < len(ids); i += 2",
         "not yet: the pairs of [1 2 3 1 2] are map[{1 2}:2 {2 3}:1 {3 1}:1]; you have map[{1 2}:1 {3 1}:1]"),
        ("the last pair missed", "i+1 < len(ids); i++", "i+2 < len(ids); i++",
         "not yet: the pairs of [1 2 3 1 2] are map[{1 2}:2 {2 3}:1 {3 1}:1]; you have map[{1 2}:1 {2 3}:1 {3 1}:1]"),
        ("each pair counted once", "counts[tokenizer.Pair{Left: ids[i], Right: ids[i+1]}]++",
         "counts[tokenizer.Pair{Left: ids[i], Right: ids[i+1]}] = 1",
         "not yet: the pairs of [1 2 3 1 2] are map[{1 2}:2 {2 3}:1 {3 1}:1]; you have map[{1 2}:1 {2 3}:1 {3 1}:1]"),
    ],
    "merge-pair": [
        ("the merged pair's second id kept", "\n\t\t\ti++ // the pair's right id is used up", "",
         "not yet: [1 2 3 1 2] with (1, 2) → 256 gives [256 3 256]; you have [256 2 3 256 2]"),
        ("overlapping pairs merged twice", MERGE_LOOP, OVERLAPPING_MERGE_LOOP,
         "not yet: [5 5 5] with (5, 5) → 256 gives [256 5]; you have [256 256]"),
        ("the pair's ids the wrong way round", "ids[i] == pair.Left && ids[i+1] == pair.Right",
         "ids[i] == pair.Right && ids[i+1] == pair.Left",
         "not yet: [1 2 3 1 2] with (1, 2) → 256 gives [256 3 256]; you have [1 2 3 1 2]"),
        ("ids changed in place", "out := []int{}", "out := ids[:0]", "not yet: merging [1 2 3 1 2] changed ids to"),
    ],
    "bpe-train": [
        ("pairs counted across chunk boundaries", "range tokenizer.Split(text)", "range []string{text}",
         "It gives what a known mistake gives: pairs counted across chunk boundaries"),
        ("overlapping pairs merged twice", "chunks[i] = mergePair(ids, best, id)",
         "chunks[i] = func() []int {\n\tout := []int{}" + OVERLAPPING_MERGE_LOOP.replace("pair.", "best.").replace("\n\t", "\n\t\t\t\t")
         + "\n\t\t\t\treturn out\n\t\t\t}()",
         "It gives what a known mistake gives: overlapping pairs merged twice"),
        ("ranks off by one", "id := 256 + rank", "id := 257 + rank",
         "It gives what a known mistake gives: ranks off by one: merge r, counting from 0, makes token 256 + r (the first merge makes 256); yours makes 257 + r."),
        ("ranks counted from 1", "for rank := 0; rank < merges; rank++", "for rank := 1; rank <= merges; rank++",
         "It gives what a known mistake gives: ranks off by one"),
        ("ties broken differently", "p.Left < best.Left || p.Left == best.Left && p.Right < best.Right",
         "p.Left > best.Left || p.Left == best.Left && p.Right > best.Right",
         "It gives what a known mistake gives: ties broken differently: (256 97) and (97 98) both occur 2 times at merge 2"),
    ],
    # 01, continued: encoding one chunk by replaying the merges, and decoding by undoing them.
    "encode-chunk": [
        ("the last-learned merge first", "(best < 0 || r < best)", "(best < 0 || r > best)",
         "not yet: the paragraph's tokenizer, chunk \" gopher\": Encode gives [278]; you have [275 104 282]"),
        ("characters, not bytes", "for _, b := range []byte(chunk)", "for _, b := range chunk",
         "not yet: the paragraph's tokenizer, chunk \" héllo\": Encode gives [32 104 195 169 108 108 111]; you have [32 104 233 108 108 111]"),
        ("the most frequent pair first", ("ids := []int{}", "ok && (best < 0 || r < best)"),
         ("ids := []int{}\n\tpairOf := func(r int) tokenizer.Pair { return tokenizer.Pair{Left: merges[r].Left, Right: merges[r].Right} }",
          "ok && (best < 0 || tokenizer.PairCounts(ids)[pairOf(r)] > tokenizer.PairCounts(ids)[pairOf(best)] || tokenizer.PairCounts(ids)[pairOf(r)] == tokenizer.PairCounts(ids)[pairOf(best)] && r < best)"),
         "not yet: GPT-2's tokenizer, chunk \" possesses\": Encode gives [22194]; you have [1426 8448 8448]"),
        ("one merge only", "ids = tokenizer.Merge(ids, tokenizer.Pair{Left: m.Left, Right: m.Right}, m.ID)",
         "return tokenizer.Merge(ids, tokenizer.Pair{Left: m.Left, Right: m.Right}, m.ID)",
         "not yet: the paragraph's tokenizer, chunk \"The\": Encode gives [279]; you have [84 257]"),
    ],
    "decode": [
        ("the right part first", "append(unfold(m.Left), unfold(m.Right)...)", "append(unfold(m.Right), unfold(m.Left)...)",
         "Decode gives \"The gopher's tunnels sank under the garden.\"; you have \"ehTrehpog 'sslennut  snak nuedreht nedrag .\""),
        ("the ids taken for the bytes", "return []byte{byteOf[id]}", "return []byte{byte(id)}",
         "not yet: GPT-2's tokenizer, the ids [15496 995 0 383 16985 877 338 22642 13]: Decode gives \"Hello world! The gardener's tunnels.\"; you have"),
        ("one level unfolded only", "return append(unfold(m.Left), unfold(m.Right)...)",
         "return []byte{byteOf[m.Left], byteOf[m.Right]}",
         "Decode gives \"The gopher's tunnels sank under the garden.\"; you have \"T\\x00\\x00\\x00's\\x00s sank under"),
    ],
    # 02: LayerNorm and GELU (gpt/check names each mistake).
    "layernorm": [
        ("the unbiased variance", "variance /= float64(len(x))", "variance /= float64(len(x) - 1)",
         "It gives what a known mistake gives: the unbiased variance"),
        ("no epsilon", "math.Sqrt(variance+1e-5)", "math.Sqrt(variance)",
         "It gives what a known mistake gives: no epsilon"),
        ("epsilon outside the square root", "1 / math.Sqrt(variance+1e-5)", "1 / (math.Sqrt(variance) + 1e-5)",
         "It gives what a known mistake gives: epsilon outside the square root"),
        ("weight and bias left out", "*weight[i] + bias[i]", "",
         "It gives what a known mistake gives: weight and bias left out"),
    ],
    "gelu": [
        ("the exact GELU", "0.5 * v * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(v+0.044715*v*v*v)))",
         "0.5 * v * (1 + math.Erf(v/math.Sqrt2))", "It gives what a known mistake gives: the exact GELU"),
        ("the cubic term left out", "(v+0.044715*v*v*v)", "v",
         "It gives what a known mistake gives: the cubic term left out"),
        ("the ½ left out", "0.5 * v * (1", "v * (1", "It gives what a known mistake gives: the ½ left out"),
        ("ReLU", "return float32(0.5 * v * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(v+0.044715*v*v*v))))",
         "return float32(math.Max(0, v))", "It gives what a known mistake gives: ReLU"),
    ],
    # 03: one position's loss, and the learning-rate schedule.
    "cross-entropy": [
        ("the max not subtracted", ("math.Exp(float64(v) - maxLogit)", "- maxLogit - math.Log(sum)"),
         ("math.Exp(float64(v))", "- math.Log(sum)"),
         "not yet: the logits [1000 999 990 0], target 1: the loss is 1.31329; you have +Inf"),
        ("the max subtracted but not added back", "- maxLogit - math.Log(sum)", "- math.Log(sum)",
         "not yet: position 0, after \"func\", the next token \" main\": Forward's loss is"),
        ("log p, not −log p", "return -logProb", "return logProb", "not yet: position 0, after \"func\", the next token \" main\": Forward's loss is"),
        ("logits[0] for the max", "for _, v := range logits {\n\t\tmaxLogit = math.Max(maxLogit, float64(v))\n\t}", "",
         "not yet: the logits [0 990 999 1000], target 2: the loss is 1.31329; you have +Inf"),
        ("the max started at 0", "maxLogit := float64(logits[0])", "maxLogit := 0.0",
         "not yet: the logits [-1000 -999 -1010 -2000], target 0: the loss is 1.31327; you have -Inf"),
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
    # 03, continued: the training loop, against the Trainer (check.TrainLoop names its mistakes).
    "train-loop": [
        ("the rate of step + 1", "schedule.LR(step))", "schedule.LR(step+1))",
         "It gives what a known mistake gives: the rate of step + 1"),
        ("Update before Backward", ("\t\tdisplay.Check(m.Backward())\n", UPDATE + "\n\t\tlosses"),
         ("\t\t" + UPDATE + "\n\t\tdisplay.Check(m.Backward())\n", "\n\t\tlosses"),
         "It gives what a known mistake gives: Update before Backward"),
        ("a forward without targets", ("x, y := batches.Next()", "out, err := m.Forward(x, y)"),
         ("x, _ := batches.Next()", "out, err := m.Forward(x, nil)"),
         "It gives what a known mistake gives: a forward without targets"),
        ("evaluating on the training split", "gpt.Windows(val,", "gpt.Windows(train,",
         "It gives what a known mistake gives: evaluating on the training split"),
        ("gradient clipping skipped", CLIP, "",
         "It gives what a known mistake gives: gradient clipping skipped"),
    ],
    # 03a: one head's attention in four steps (check.Head on this prompt; MaskedSoftmax and
    # Attention on the checker's own).
    "attn-scores": [
        ("no 1/√HS", "s[i][j] = dot / float32(math.Sqrt(float64(HS)))", "s[i][j] = dot",
         "attn.scores, on this cell's 18 positions: differs first at query 0, key 0"),
        ("divided by HS, not √HS", "s[i][j] = dot / float32(math.Sqrt(float64(HS)))", "s[i][j] = dot / float32(HS)",
         "attn.scores, on this cell's 18 positions: differs first at query 0, key 0"),
        ("q and k swapped, the matrix transposed", "dot += q[i][c] * k[j][c]", "dot += q[j][c] * k[i][c]",
         "attn.scores, on this cell's 18 positions: differs first at query 0, key 1"),
    ],
    "attn-mask": [
        ("the mask on the wrong triangle", "if j > i {", "if j < i {",
         "attn.hook_attn_scores, on this cell's 18 positions"),
        ("the diagonal masked too", "if j > i {", "if j >= i {",
         "differs first at query 0, key 0: yours -Inf"),
        ("masked with 0", "s[i][j] = float32(math.Inf(-1))", "s[i][j] = 0",
         "differs first at query 0, key 1: yours 0, the model's -Inf"),
    ],
    "attn-softmax": [
        ("no max-subtraction", "e := math.Exp(float64(x) - maxScore)", "e := math.Exp(float64(x))",
         "It gives what a known mistake gives: no max-subtraction"),
        ("the max started at 0", "maxScore := math.Inf(-1)", "maxScore := 0.0",
         "every score minus 1000 (a shift softmax ignores, but exp(−1000) is 0 for every key): differs first at head 2, query 0, key 0: yours NaN"),
        ("the row not normalised", "p[i][j] = float32(float64(p[i][j]) / sum)", "p[i][j] = float32(float64(p[i][j]))",
         "attn.hook_pattern, on this cell's 18 positions: differs first at query 1"),
    ],
    "attn-z": [
        ("the pattern transposed", "for j, w := range p[i] {", "for j := range p[i] {\n\t\t\tw := p[j][i]",
         "attn.hook_z, on this cell's 18 positions: differs first at position 0"),
        ("the query's own position left out", "for j, w := range p[i] {", "for j, w := range p[i][:i] {",
         "attn.hook_z, on this cell's 18 positions: differs first at position 0"),
        ("the sum not accumulated", "z[i][c] += w * x", "z[i][c] = w * x",
         "attn.hook_z, on this cell's 18 positions: differs first at position 0"),
    ],
    # 03b: the whole forward, part by part (gpt/check runs each mistake on its reference forward
    # and names the one that gives the student's numbers).
    "embed": [
        ("positions not added", " + m.Params.Wpe[t*C+c]", "",
         "It gives what a known mistake gives: positions not added"),
        ("positions counted from 1", "m.Params.Wpe[t*C+c]", "m.Params.Wpe[(t+1)*C+c]",
         "It gives what a known mistake gives: positions counted from 1"),
        ("the token table read transposed", "m.Params.Wte[id*C+c]", "m.Params.Wte[c*m.Config.VocabSize+id]",
         "It gives what a known mistake gives: the token table read transposed"),
    ],
    "attention-layer": [
        ("heads concatenated out of order", "copy(z[t][h*HS:(h+1)*HS], zh[t])", "copy(z[t][(NH-1-h)*HS:(NH-h)*HS], zh[t])",
         "It gives what a known mistake gives: heads concatenated out of order"),
        ("the c_proj bias dropped", "out[t][i] += b.AttnCProjB[i]", "out[t][i] += 0",
         "It gives what a known mistake gives: the c_proj bias dropped: attn.c_proj"),
        ("HF's Conv1D weight used transposed", "gpt.MatMul(x, b.CAttnW, 3*C)", "gpt.MatMulT(x, b.CAttnW, 3*C)",
         "It gives what a known mistake gives: HF's Conv1D weight used transposed: c_attn"),
        ("the causal mask missing", "softmaxRows(mask(scores(q, k)))", "softmaxRows(scores(q, k))",
         "It gives what a known mistake gives: the causal mask missing"),
    ],
    "mlp": [
        ("HF's Conv1D weight used transposed", "gpt.MatMul(x, b.CFcW, 4*C)", "gpt.MatMulT(x, b.CFcW, 4*C)",
         "It gives what a known mistake gives: HF's Conv1D weight used transposed: c_fc"),
        ("no GELU", "gelu(h[t][i] + b.CFcB[i])", "h[t][i] + b.CFcB[i]",
         "It gives what a known mistake gives: no GELU"),
        ("GELU before c_fc's bias", "gelu(h[t][i] + b.CFcB[i])", "gelu(h[t][i]) + b.CFcB[i]",
         "It gives what a known mistake gives: GELU before c_fc's bias"),
        ("the c_proj bias dropped", "out[t][i] += b.MlpCProjB[i]", "out[t][i] += 0",
         "It gives what a known mistake gives: the c_proj bias dropped: mlp.c_proj"),
    ],
    "block": [
        ("post-LN instead of pre-LN",
         ("attention(m, l, norm(x, b.Ln1W, b.Ln1B))", "mid := add(x, attnOut)", "mlp(m, l, norm(mid, b.Ln2W, b.Ln2B))", "return add(mid, mlpOut)"),
         ("attention(m, l, x)", "mid := norm(add(x, attnOut), b.Ln1W, b.Ln1B)", "mlp(m, l, mid)", "return norm(add(mid, mlpOut), b.Ln2W, b.Ln2B)"),
         "It gives what a known mistake gives: post-LN instead of pre-LN"),
        ("a missing residual after the attention", "mid := add(x, attnOut)", "mid := attnOut",
         "It gives what a known mistake gives: a missing residual: the stream after the attention is its output alone"),
        ("a missing residual after the MLP", "return add(mid, mlpOut)", "return mlpOut",
         "It gives what a known mistake gives: a missing residual: the block returns the MLP's output alone"),
        ("the MLP reading the stream entering the block", "norm(mid, b.Ln2W, b.Ln2B)", "norm(x, b.Ln2W, b.Ln2B)",
         "It gives what a known mistake gives: the MLP reads the stream entering the block"),
        ("ln_1's weights for ln_2", "norm(mid, b.Ln2W, b.Ln2B)", "norm(mid, b.Ln1W, b.Ln1B)",
         "It gives what a known mistake gives: ln_1's weight and bias used for ln_2 as well"),
    ],
    "forward": [
        ("the unembedding transposed", "gpt.MatMulT(x, m.Params.Wte", "gpt.MatMul(x, m.Params.Wte",
         "It gives what a known mistake gives: the unembedding transposed"),
        ("ln_f left out", "x = norm(x, m.Params.LnFW, m.Params.LnFB)", "",
         "It gives what a known mistake gives: ln_f left out"),
        ("the blocks' outputs thrown away", "x = block(m, l, x)", "block(m, l, x)",
         "It gives what a known mistake gives: the blocks' outputs thrown away"),
    ],
    # 03c: a head's scores from its pattern, and a hook ablating one head (gpt/check, on the
    # lesson model, for every head).
    "previous-token-score": [
        ("the query's own token", "pattern[t][t-1]", "pattern[t][t]",
         "It gives what a known mistake gives: the diagonal off by one: pattern[t][t]"),
        ("two tokens back", ("t := 1; t < len(pattern)", "pattern[t][t-1]", "len(pattern)-1)"),
         ("t := 2; t < len(pattern)", "pattern[t][t-2]", "len(pattern)-2)"),
         "It gives what a known mistake gives: the diagonal off by one the other way: pattern[t][t−2]"),
        ("query 0 counted", "float64(len(pattern)-1)", "float64(len(pattern))",
         "It gives what a known mistake gives: query 0 counted"),
        ("averaged over the keys too", "float64(len(pattern)-1)", "float64((len(pattern)-1)*len(pattern))",
         "It gives what a known mistake gives: averaged over the wrong axis"),
        ("the axes swapped", "pattern[t][t-1]", "pattern[t-1][t]",
         "It gives what a known mistake gives: the pattern's axes swapped"),
    ],
    "induction-score": [
        ("the earlier copy itself", "pattern[t][t-n+1]", "pattern[t][t-n]",
         "It gives what a known mistake gives: the diagonal off by one: pattern[t][t−n]"),
        ("two after the earlier copy", "pattern[t][t-n+1]", "pattern[t][t-n+2]",
         "It gives what a known mistake gives: the diagonal off by one the other way"),
        ("the first copy included", "float64(n)", "float64(len(pattern))",
         "It gives what a known mistake gives: the first copy included: the mean is over all 2n+1 queries"),
        ("the whole diagonal", ("t := n + 1;", "float64(n)"), ("t := n - 1;", "float64(n+2)"),
         "It gives what a known mistake gives: the first copy included: the whole diagonal"),
        ("averaged over the keys too", "float64(n)", "float64(n*len(pattern))",
         "It gives what a known mistake gives: averaged over the wrong axis"),
        ("the axes swapped", "pattern[t][t-n+1]", "pattern[t-n+1][t]",
         "It gives what a known mistake gives: the pattern's axes swapped"),
    ],
    "head-ablation": [
        ("the whole block", "start := (t*NH + head) * HS\n\t\t\tfor i := start; i < start+HS; i++", "for i := 0; i < T*NH*HS; i++",
         "It gives what a known mistake gives: every head of the block zeroed"),
        ("hook_z in the pattern's layout", ("T, NH, HS := a.Shape[1], a.Shape[2], a.Shape[3]", "start := (t*NH + head) * HS"),
         ("T, HS := a.Shape[1], a.Shape[3]", "start := (head*T + t) * HS"),
         "It gives what a known mistake gives: hook_z read in the pattern's order"),
        ("the next head", "start := (t*NH + head) * HS", "start := (t*NH + (head+1)%NH) * HS",
         "It gives what a known mistake gives: the wrong head"),
        ("the last position only", "for t := 0; t < T; t++", "for t := T - 1; t < T; t++",
         "It gives what a known mistake gives: one position only: the head's z zeroed at the last position"),
        ("the other block", '"blocks.%d.attn.hook_z", layer)', '"blocks.%d.attn.hook_z", 1-layer)',
         "It gives what a known mistake gives: the wrong block"),
        ("the queries", "attn.hook_z", "attn.hook_q",
         "It gives what a known mistake gives: the queries zeroed"),
    ],
    "ex01-count-pairs": [
        ("overlapping pairs skipped", "i+1 < len(ids); i++", "i+1 < len(ids); i += 2",
         "the pairs of [1 2 3 1 2] are map[{1 2}:2 {2 3}:1 {3 1}:1]; you have map[{1 2}:1 {3 1}:1]"),
        ("the last pair missed", "i+1 < len(ids); i++", "i+2 < len(ids); i++",
         "the pairs of [1 2 3 1 2] are map[{1 2}:2 {2 3}:1 {3 1}:1]; you have map[{1 2}:1 {2 3}:1 {3 1}:1]"),
        ("a pair and its reverse counted as one", "counts[tokenizer.Pair{Left: ids[i], Right: ids[i+1]}]++",
         "counts[tokenizer.Pair{Left: min(ids[i], ids[i+1]), Right: max(ids[i], ids[i+1])}]++",
         "the pairs of [1 2 3 1 2] are map[{1 2}:2 {2 3}:1 {3 1}:1]; you have map[{1 2}:2 {1 3}:1 {2 3}:1]"),
        ("each pair counted once", "counts[tokenizer.Pair{Left: ids[i], Right: ids[i+1]}]++",
         "counts[tokenizer.Pair{Left: ids[i], Right: ids[i+1]}] = 1",
         "the pairs of [1 2 3 1 2] are map[{1 2}:2 {2 3}:1 {3 1}:1]; you have map[{1 2}:1 {2 3}:1 {3 1}:1]"),
    ],
    "ex02-merge-pair": [
        ("the merged pair's second id kept", "out = append(out, id)\n\t\t\ti++", "out = append(out, id)",
         "[1 2 3 1 2] with (1, 2) → 256 gives [256 3 256]; you have [256 2 3 256 2]"),
        ("the last id dropped", "if i+1 < len(ids) && ids[i] == pair.Left && ids[i+1] == pair.Right {",
         "if i+1 >= len(ids) {\n\t\t\tbreak\n\t\t}\n\t\tif ids[i] == pair.Left && ids[i+1] == pair.Right {",
         "[5 5 5] with (5, 5) → 256 gives [256 5]; you have [256]"),
        ("the pair's ids the wrong way round", "ids[i] == pair.Left && ids[i+1] == pair.Right", "ids[i] == pair.Right && ids[i+1] == pair.Left",
         "[1 2 3 1 2] with (1, 2) → 256 gives [256 3 256]; you have [1 2 3 1 2]"),
        ("ids changed in place", "out := []int{}", "out := ids[:0]",
         "merging [1 2 3 1 2] changed ids to"),
    ],
    "ex03-param-count": [
        ("the final LayerNorm forgotten", "L*block + 2*C", "L*block",
         "GPT-2 small (L 12, C 768, V 50257, block 1024) has 124,439,808 parameters; you have 124,438,272"),
        ("the output layer counted again (untied)", "V*C + T*C", "2*V*C + T*C",
         "GPT-2 small (L 12, C 768, V 50257, block 1024) has 124,439,808 parameters; you have 163,037,184"),
        ("one LayerNorm a block", "block := 2*C + (C*3*C", "block := (C*3*C",
         "GPT-2 small (L 12, C 768, V 50257, block 1024) has 124,439,808 parameters; you have 124,421,376"),
        ("the biases forgotten", "(C*3*C + 3*C) + (C*C + C) + 2*C + (C*4*C + 4*C) + (4*C*C + C)",
         "(C*3*C) + (C*C) + 2*C + (C*4*C) + (4*C*C)",
         "GPT-2 small (L 12, C 768, V 50257, block 1024) has 124,439,808 parameters; you have 124,356,864"),
    ],
    "ex04-untied": [
        ("a bias counted", "gpt.Small.VocabSize * gpt.Small.Channels",
         "gpt.Small.VocabSize*gpt.Small.Channels + gpt.Small.VocabSize",
         "you have 38,647,633; the output layer maps C channels to V scores"),
        ("the block size for the vocabulary", "gpt.Small.VocabSize * gpt.Small.Channels",
         "gpt.Small.BlockSize * gpt.Small.Channels", "you have 786,432; the output layer"),
        ("the untied total, not the difference", "gpt.Small.VocabSize * gpt.Small.Channels",
         "gpt.Small.NumParamsUntied()", "you have 163,037,184; the output layer"),
    ],
    "ex05-softmax": [
        ("softmax without max-subtraction", "math.Exp(float64(l)/T - maxv)", "math.Exp(float64(l)/T)",
         "at T = 1, the logits [1000 999 990 0]: your probabilities add up to NaN; want 1"),
        ("temperature applied after the softmax", ("float64(l)/T", "probs[i] /= sum\n"),
         ("float64(l)", "probs[i] /= sum * T\n"),
         "at T = 0.5, the logits after \"func main() {\": your probabilities add up to 2; want 1"),
        ("temperature ignored", "float64(l)/T", "float64(l)",
         "at T = 0.5, the logits after \"func main() {\": token"),
        ("the max of the logits, not of logit/T", "maxv = math.Max(maxv, float64(l)/T)", "maxv = math.Max(maxv, float64(l))",
         "at T = 0.5, the logits [1000 999 990 0]: your probabilities add up to NaN; want 1"),
    ],
    "ex06-argmax": [
        ("the last of equal logits", "if l > logits[best]", "if l >= logits[best]",
         "argmax([1 3 3]) is 1 (on a tie, the lowest index); you have 2"),
        ("the smallest logit", "if l > logits[best]", "if l < logits[best]",
         "after \"func main() {\" the largest logit is token"),
        ("the largest compared with 0, not with the best so far", ("best := 0\n", "if l > logits[best]"),
         ("best, top := 0, float32(0)\n", "if l > top {\n\t\t\ttop = l\n\t\t}\n\t\tif l > top"),
         "after \"func main() {\" the largest logit is token 10's; you have 0"),
    ],
    "ex07-nucleus": [
        ("temperature ignored", "softmaxT(logits, T)", "softmaxT(logits, 1)",
         "at T = 0.5, p = 0.9 the set after \"func main() {\" has"),
        ("stopping before the token that reaches p", "n++\n\t\tmass += q\n\t\tif mass >= p {\n\t\t\tbreak\n\t\t}",
         "if mass+q >= p {\n\t\t\tbreak\n\t\t}\n\t\tn++\n\t\tmass += q",
         "at T = 1, p = 0.9 the set after \"func main() {\" has"),
        ("not sorted", "sort.Sort(sort.Reverse(sort.Float64Slice(probs)))", "",
         "at T = 1, p = 0.9 the set after \"func main() {\" has"),
        ("sorted smallest first", "sort.Sort(sort.Reverse(sort.Float64Slice(probs)))", "sort.Float64s(probs)",
         "at T = 1, p = 0.9 the set after \"func main() {\" has"),
    ],
    "ex08-entropy": [
        ("temperature ignored", "softmaxT(logits, T)", "softmaxT(logits, 1)",
         "after \"func main() {\" the entropy at T = 0.5 is"),
        ("nats, not bits", "math.Log2(q)", "math.Log(q)",
         "after \"func main() {\" the entropy at T = 1 is"),
        ("the sign left out", "h -= q * math.Log2(q)", "h += q * math.Log2(q)",
         "after \"func main() {\" the entropy at T = 1 is"),
    ],
    "ex09-positions": [
        ("cached positions off by one", "cached = prompt + newTokens - 1", "cached = prompt + newTokens",
         "11 prompt tokens and 256 new ones: 35,456 positions uncached and 266 cached; you have 35,456 and 267"),
        ("uncached positions off by one", "uncached += prompt + i", "uncached += prompt + i + 1",
         "11 prompt tokens and 256 new ones: 35,456 positions uncached and 266 cached; you have 35,712 and 266"),
        ("the cached loop counted as one position a token", "cached = prompt + newTokens - 1", "cached = newTokens",
         "11 prompt tokens and 256 new ones: 35,456 positions uncached and 266 cached; you have 35,456 and 256"),
        ("the uncached loop counted as the prompt each step", "uncached += prompt + i", "uncached += prompt",
         "11 prompt tokens and 256 new ones: 35,456 positions uncached and 266 cached; you have 2,816 and 266"),
    ],
    "ex10-cache-bytes": [
        ("the budget hard-coded to 1,024 positions", "2 * cfg.Layers * positions * cfg.Channels",
         "2 * cfg.Layers * 1024 * cfg.Channels",
         "GPT-2 small with positions = 1 and 2 bytes a number needs 36,864 bytes (2·L·positions·C·bytes); you have 37,748,736"),
        ("keys only, no values", "return 2 * cfg.Layers", "return cfg.Layers",
         "GPT-2 small with positions = 1 and 2 bytes a number needs 36,864 bytes (2·L·positions·C·bytes); you have 18,432"),
        ("the bytes a number left out", "* cfg.Channels * bytesPerNumber", "* cfg.Channels",
         "GPT-2 small with positions = 1 and 2 bytes a number needs 36,864 bytes (2·L·positions·C·bytes); you have 18,432"),
        ("the heads for the channels", "* cfg.Channels * bytesPerNumber", "* cfg.Heads * bytesPerNumber",
         "GPT-2 small with positions = 1 and 2 bytes a number needs 36,864 bytes (2·L·positions·C·bytes); you have 576"),
    ],
    "ex11-greedy-loop": [
        ("one step too many", "i < n; i++", "i <= n; i++", "twelve greedy steps after"),
        ("the last token alone as the context", "m.NextLogits(context)", "m.NextLogits(context[len(context)-1:])",
         "twelve greedy steps after"),
        ("the prompt as the context every step", "m.NextLogits(context)", "m.NextLogits(prompt)",
         "twelve greedy steps after"),
    ],
    "ex12-divergence": [
        ("steps counted from 0", "return i + 1", "return i",
         "[1 2 3] and [1 2 4] part at step 3 (counting from 1; 0 if never); you have 2"),
        ("the shorter one's end counted as a split", "\treturn 0\n}", "\treturn min(len(a), len(b)) + 1\n}",
         "[1 2] and [1 2 3] part at step 0 (counting from 1; 0 if never); you have 3"),
        ("the last difference, not the first", ("for i := 0; i < len(a) && i < len(b); i++ {", "return i + 1\n\t\t}\n\t}"),
         ("last := 0\n\tfor i := 0; i < len(a) && i < len(b); i++ {", "last = i + 1\n\t\t}\n\t}\n\tif last > 0 {\n\t\treturn last\n\t}"),
         "[1 2 3 4] and [1 9 3 8] part at step 2 (counting from 1; 0 if never); you have 4"),
    ],
    # 04: the cached loop (gpt/check), and the window loop against the Generator.
    "cached-loop": [
        ("a fresh cache for every token", "if logits, err = m.ForwardCached(cache, []int{argmax(logits)})",
         "cache = m.NewCache()\n\t\t\tif logits, err = m.ForwardCached(cache, []int{argmax(logits)})",
         "It gives what a known mistake gives: a fresh cache for each new token"),
        ("the prompt forwarded again at each step", "m.ForwardCached(cache, []int{argmax(logits)})",
         "m.ForwardCached(cache, append(append([]int(nil), prompt...), argmax(logits)))",
         "differs first at step 1, token"),
        ("a fresh cache and the whole context every step", ("logits, err := m.ForwardCached(cache, prompt)", "if logits, err = m.ForwardCached(cache, []int{argmax(logits)})"),
         ("ids := append([]int(nil), prompt...)\n\tlogits, err := m.ForwardCached(cache, prompt)",
          "ids = append(ids, argmax(logits))\n\t\t\tcache = m.NewCache()\n\t\t\tif logits, err = m.ForwardCached(cache, ids)"),
         "It gives what a known mistake gives: a fresh cache at every step, the whole context forwarded again into it"),
        ("the logits from NextLogits, the cache filled beside", ("logits, err := m.ForwardCached(cache, prompt)", "if logits, err = m.ForwardCached(cache, []int{argmax(logits)})"),
         ("ids := append([]int(nil), prompt...)\n\tlogits, err := m.ForwardCached(cache, prompt)",
          "ids = append(ids, argmax(logits))\n\t\t\tif _, err = m.ForwardCached(cache, ids[len(ids)-1:]); err != nil {\n\t\t\t\tpanic(err)\n\t\t\t}\n\t\t\tif logits, err = m.NextLogits(ids)"),
         "It gives what a known mistake gives: the logits taken from NextLogits"),
        ("the last token forwarded too", ("if i > 0 { // feed back", "stepLogits = append(stepLogits, logits)\n\t}"),
         ("if false { // feed back", "stepLogits = append(stepLogits, logits)\n\t\tif logits, err = m.ForwardCached(cache, []int{argmax(logits)}); err != nil {\n\t\t\tpanic(err)\n\t\t}\n\t}"),
         "one more than needed"),
    ],
    "window-loop": [
        ("one token too many kept", "ids = ids[len(ids)-keep:]", "ids = ids[len(ids)-keep-1:]",
         "not yet: window 24, keep 24: token 31 is 112 (\"p\"); you have 10"),
        ("the cache not refilled after the crop", "cache = m.NewCache()\n\t\t\tlogits, err = m.ForwardCached(cache, ids)",
         "logits, err = m.ForwardCached(cache, []int{next})", "not yet: window 24, keep 24: token 19 is 354"),
        ("the crop one token late", "if len(ids) > window {", "if len(ids) > window+1 {",
         "not yet: window 24, keep 16: token 19 is 698"),
    ],
    # 05: rounding to bf16 (gpt/check), and a split-K sum.
    "bf16-round": [
        ("truncation", "b += 0x7fff + (b>>16)&1", "b += 0",
         "It gives what a known mistake gives: truncation"),
        ("ties away from zero", "b += 0x7fff + (b>>16)&1", "b += 0x8000",
         "It gives what a known mistake gives: ties away from zero"),
        ("no case for NaN", "if b&0x7fffffff > 0x7f800000 {", "if false {",
         "It gives what a known mistake gives: ties to even without a case for NaN"),
    ],
    "split-k": [
        ("the parts ignored", "size := K / parts", "size, parts := K, 1",
         "not yet: K = 768, parts = 4: the split-K sum is"),
        ("the sums in float64", ("var partial float32", "partial += a[k] * b[k]", "total += partial"),
         ("var partial float64", "partial += float64(a[k] * b[k])", "total += float32(partial)"),
         "not yet: K = 768, parts = "),
        ("the rest of K dropped", "if p == parts-1 {\n\t\t\thi = K\n\t\t}", "",
         "not yet: K = 1000, parts = 3: the split-K sum is"),
    ],
    # 06: a seeded sampler (gpt/check), and FirstRepeat.
    "sampler": [
        ("temperature ignored", "probs[v] = math.Exp((float64(l) - float64(logits[best])) / p.Temperature)",
         "probs[v] = math.Exp(float64(l) - float64(logits[best]))",
         "It gives what a known mistake gives: the temperature ignored"),
        ("top-k keeping k+1 tokens", "kept = kept[:p.TopK]", "kept = kept[:p.TopK+1]",
         "It gives what a known mistake gives: top-k keeping k+1 tokens"),
        ("top-p stopping one token early", "kept = kept[:i+1]", "kept = kept[:max(i, 1)]",
         "It gives what a known mistake gives: top-p stopping one token early"),
        ("the draw not renormalised", "u, cum, last := rng.Float64()*mass, 0.0, kept[0]",
         "u, cum, last := rng.Float64(), 0.0, kept[0]",
         "It gives what a known mistake gives: the draw not renormalised"),
    ],
    "first-repeat": [
        ("an overlapping earlier occurrence missed", "for j := 0; j < i; j++", "for j := 0; j+n <= i; j++",
         "not yet: in [5 5 5 5], spans of 2 first repeat at 1, 1 back; you have 2, 2 back"),
        ("the span compared one token short", "for k := 0; k < n; k++", "for k := 0; k < n-1; k++",
         "spans of 1 first repeat at 9, 4 back; you have 1, 1 back"),
        ("the span's last position", "return i, i - j", "return i + n - 1, i - j",
         "spans of 2 first repeat at 9, 4 back; you have 10, 4 back"),
    ],
    "ex13-causal-mask": [
        ("the mask on the wrong triangle", "for j := t + 1; j < len(scores[t]); j++", "for j := 0; j < t; j++",
         "T = 4: query 0 must not see key 1 (a later token), but its score is 1; want -Inf"),
        ("the diagonal masked too", "for j := t + 1;", "for j := t;",
         "T = 1: query 0 sees key 0 (itself or an earlier token), so its score stays 0; you have -Inf"),
        ("masked with 0", "scores[t][j] = math.Inf(-1)", "scores[t][j] = 0",
         "T = 4: query 0 must not see key 1 (a later token), but its score is 0; want -Inf"),
        ("one key of the future left", "for j := t + 1;", "for j := t + 2;",
         "T = 4: query 0 must not see key 1 (a later token), but its score is 1; want -Inf"),
    ],
}

# grade_id of the check → [(answer, text in the solution, its replacement)]: other right answers,
# which must pass as the solution does.
ALSO_RIGHT = {
    "attn-mask": [("masked with −1e9", "s[i][j] = float32(math.Inf(-1))", "s[i][j] = -1e9")],
    "ex13-causal-mask": [("masked with −1e9", "scores[t][j] = math.Inf(-1)", "scores[t][j] = -1e9")],
    "head-ablation": [("the values zeroed", "attn.hook_z", "attn.hook_v"),
                      ("cleared with clear", "for i := start; i < start+HS; i++ {\n\t\t\t\ta.Data[i] = 0\n\t\t\t}",
                       "clear(a.Data[start : start+HS])")],
}

# Notebook 3c's checks run on the lesson model, which the lead commits beside the shipped one; where
# it is absent, its source is not run and its checks' tests skip, saying so.
LESSON = ROOT / "testdata" / "induction.safetensors"
NEEDS_LESSON = {"03c-induction-heads": ["previous-token-score", "induction-score", "head-ablation"]}


def lesson_params(rows):
    """The parameters of a check's test, each a gid or a row (gid, …): those of notebook 3c's
    checks marked to skip, before the kernels run, when the lesson model is absent."""
    skip = pytest.mark.skipif(not LESSON.exists(), reason=f"runs on the lesson model, {LESSON}, which is absent")
    lesson = {gid for ids in NEEDS_LESSON.values() for gid in ids}
    row = lambda r: r if isinstance(r, tuple) else (r,)
    return [pytest.param(*row(r), marks=skip) if row(r)[0] in lesson else r for r in rows]


# Each answer's check runs this many times in one kernel, and must give the same verdict each time:
# 5, or $GPTNOTES_CHECK_RUNS (make test runs 2, the least that can show a verdict change; make
# test-exercises runs 5).
RUNS = int(os.environ.get("GPTNOTES_CHECK_RUNS", "5"))


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


def runnable_sources():
    """The exercise sources whose models are here (notebook 3c's is the lesson model)."""
    return [n for n in exercise_sources() if n not in NEEDS_LESSON or LESSON.exists()]


@pytest.fixture(scope="module")
def runs():
    """{(grade_id, case): [(ok, text)] * RUNS}, case being "blank", "solution", a mistake's name or
    another right answer's: the check cell's outcome each of the RUNS times it ran."""
    out = {}
    for name in runnable_sources():
        out.update(source_verdicts(name))
    return out


@pytest.fixture(scope="module")
def verdicts(runs):
    """{(grade_id, case): (ok, text)}: each check's first outcome."""
    return {key: outcomes[0] for key, outcomes in runs.items()}


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
                for case, old, new, _ in MISTAKES.get(gid, []):
                    cases.append((case, substitute(source(solution[answer]), old, new)))
                for case, old, new in ALSO_RIGHT.get(gid, []):
                    cases.append((case, substitute(source(solution[answer]), old, new)))
                cases.append(("solution", source(solution[answer])))
                for case, code in cases:
                    ok, why = outcome(k, code)
                    if not ok:  # the substitution broke the cell: each test of it says so
                        out[gid, case] = [(False, f"{gid}, {case}: the answer cell itself fails: {why}")] * RUNS
                        continue
                    out[gid, case] = [outcome(k, check) for _ in range(RUNS)]
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
    """Every graded check of every notebook is here, with at least three mistakes."""
    build = load_build()
    ids = []
    for name in exercise_sources():
        cells = build.cells(f"{name}-solutions", (SOURCES / f"{name}.md").read_text(), "solution")
        ids += [grade_id(c) for c in cells if c["metadata"].get("nbgrader", {}).get("grade")]
    assert sorted(ids) == CHECKS
    for gid in CHECKS:
        assert len(MISTAKES[gid]) >= 3, f"{gid} has {len(MISTAKES[gid])} mistakes; every check needs three"


@pytest.mark.parametrize("gid", lesson_params(CHECKS))
def test_solution_passes(verdicts, gid):
    ok, text = verdicts[gid, "solution"]
    assert ok, text
    if gid.startswith("ex"):  # 07's checks say which exercise
        assert text.strip() == f"Exercise {int(gid[2:4])}: right.", text
    else:
        assert text.startswith("right"), text


@pytest.mark.parametrize("gid", lesson_params(CHECKS))
def test_blank_fails(verdicts, gid):
    ok, text = verdicts[gid, "blank"]
    assert not ok and text.startswith("Panic: not yet: "), text


@pytest.mark.parametrize("gid,name,expected", lesson_params([(g, m[0], m[3]) for g in CHECKS for m in MISTAKES[g]]))
def test_mistake_fails_saying_what_differs(verdicts, gid, name, expected):
    ok, text = verdicts[gid, name]
    assert not ok, f"{gid} passes with the mistake {name!r}: {text}"
    assert text.startswith("Panic: not yet: ") and expected in text, text


@pytest.mark.parametrize("gid,name", lesson_params([(g, m[0]) for g in ALSO_RIGHT for m in ALSO_RIGHT[g]]))
def test_another_right_answer_passes(verdicts, gid, name):
    ok, text = verdicts[gid, name]
    assert ok, f"{gid}: {name} is right, but the check says {text}"


def test_the_same_verdict_every_run(runs):
    """A check gives the same answer the same verdict on every run in one session: the blank,
    every mistake, every other right answer and the solution, RUNS times each."""
    assert len(runs) > 3 * len(CHECKS)
    for (gid, case), outcomes in runs.items():
        assert len(outcomes) == RUNS
        assert all(o == outcomes[0] for o in outcomes), (gid, case, outcomes)
