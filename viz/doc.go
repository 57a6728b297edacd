// Package viz draws the study's figures with gonum.org/v1/plot: one file per figure, each a
// function that takes the measured values from package gpt and returns something a notebook
// cell can show.
//
// Values show themselves in a cell by their type alone; viz never imports the kernel:
//   - a *plot.Plot renders as an image;
//   - a *Grid (several plots side by side) and *HeatMaps (maps on one colour scale) have PNG();
//   - a *Slider (an interactive figure) has HTML().
//
// Read figure.go first (the size and colours of every figure, Grid, HeatMaps, Save) and
// style.go (axes, ticks, Ratio); then the figures, in the order of the study (package study):
//
//	residual.go    residual-stream norm by depth, scaled vs plain init (gpt.ResidualGrowth)
//	positions.go   positions pushed through the stack, cached vs uncached, and the time ratio
//	budget.go      KV-cache bytes × batch against the weights, Small…XL, fp32/bf16 (gpt.Budget)
//	divergence.go  fp32 vs bf16 greedy divergence; cached vs uncached logit differences
//	               (gpt.ComparePrecision, gpt.CompareCaching)
//	nucleus.go     top-p set size vs temperature, top-k 40/200 mass, entropy in bits
//	topn.go        the next-token distribution, top n candidates (gpt.Ranked)
//	loss.go        the training loss curve (a Trainer's History)
//	attention.go   attention patterns: one head's (T, T) map, every head of a layer, and where
//	               each head looks from one position, each beside its colour bar
//	layermap.go    a gpt.LayerMap: head ablation, activation patching, direct logit attribution
//	logitlens.go   the logit lens: the token each stage of the residual stream predicts (gpt.LogitLens)
//	headscores.go  head scores, layer × head for each kind of head (interp.ScoreHeadsAll)
//	repeated.go    the loss per position on random tokens seen twice, each run a curve (notebook 3c)
//	roofline.go    achieved FLOP/s against FLOPs a byte under the measured ceilings (gpt/bench)
//	slider.go      the interactive versions: SliderPositions, SliderBudget, SliderTemperature
//
// One numbering convention runs through every figure, the one of the hook names
// (blocks.3.attn.hook_pattern): layers, heads and positions count from 0, so a 6-block model
// has layers 0…5 and a 18-token prompt positions 0…17. The residual-stream figures count how
// many blocks have been applied instead: 0 is the embedding alone and l is the output of
// layer l-1 (blocks.{l-1}.hook_resid_post). Steps, tokens, sequences and sizes are counts and
// are ticked at whole numbers; a log axis says so in its label.
//
// The interactive figures of slider.go are each a self-contained HTML value — SVG frames drawn in Go and a few lines of plain JavaScript
// behind a range input — that needs no network and works in the classic notebook, JupyterLab and
// nbconvert's HTML. In an untrusted notebook, where scripts do not run, the first frame stays.
//
// Every figure has an Example that is also its golden-image test (testdata/*_golden.png,
// compared with gonum's cmpimg); regenerate them with
//
//	go test ./viz -regen
//
// The Examples draw stored measurements, testdata/*.json, from real runs (freshly initialised
// models for the residual stream; the shipped model for the rest; a short training run for the
// loss), so each golden shows what its figure teaches and does not depend on the arithmetic of
// the machine that draws it. They were written once by
//
//	go run -tags openblas ./viz/internal/goldendata
//
// Usage in a cell:
//
//	var gs []gpt.Growth
//	for _, L := range []int{12, 48} {
//		cfg := gpt.Config{VocabSize: 1024, BlockSize: 1024, Layers: L, Heads: 12, Channels: 768}
//		g, _ := gpt.ResidualGrowth(cfg, 1, true, 64) // the model's measurement
//		gs = append(gs, g)
//	}
//	viz.ResidualNorms(gs) // the figure, as the cell's value
//
//	viz.SliderBudget(gpt.Budget(1, 1024), 16) // an interactive figure
//
// The whole set, measured on this machine: `gptnotes reproduce`.
package viz
