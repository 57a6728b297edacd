// Package bench measures the machine's ceilings and how close the model comes to them:
// what `gptnotes bench` prints, and what viz.Roofline draws.
//
// Two ceilings bound every step of the model. A step that reads more bytes than it does
// arithmetic per byte (a cached decode step reads every weight once for two FLOPs each) can go
// no faster than memory delivers them: the stream bandwidth, bytes a second. A step that
// reuses each byte many times (a prompt's products reuse each weight once per position) can
// go no faster than the cores multiply and add: the FMA peak, FLOPs a second, or for a BF16
// model on a CPU with AVX-512 BF16 the bf16 peak (its products run on VDPBF16PS, two
// multiply-adds a lane, twice an FMA lane's work). Between them the roofline: a step of
// intensity I FLOPs a byte can reach min(peak, I·bandwidth), and each figure here is reported
// as a fraction of that, naming the ceiling that binds.
//
// Read the files in this order:
//
//	machine.go   the load average, the last-level cache, what the machine is
//	ceilings.go  Ceilings: the stream bandwidth, the FMA peak and the bf16 peak, per core and in total
//	roofline.go  the roofline: which ceiling bounds a step of given FLOPs and bytes
//	speed.go     prompt processing (pp) and generation (tg) of a model: Row
//	products.go  the forward's products, attention and a decode step, one point each
//	report.go    Options, Run, Report: everything above in one run, as a table or JSON
//
// The probes themselves, StreamRead, FMAPeak and BF16Peak, are in gpt/internal/fast beside
// the kernels whose speed they bound. Usage:
//
//	r, err := bench.Run(bench.Options{})     // the defaults: about a minute on two cores
//	r.WriteTable(os.Stdout)                  // llama-bench's pp/tg table, with fractions
//	viz.Roofline(r)                          // achieved FLOP/s against FLOPs a byte
package bench
