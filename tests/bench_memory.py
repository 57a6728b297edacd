"""Memory of a long session: the kernel's resident set as a student runs many small cells.

Starts a gptnotes kernel through jupyter_client, loads the shipped model and generates 200 tokens
with it (as the notebooks do), then runs N trivial cells `xK := K * 2` and reads the kernel's RSS
from /proc twice: immediately after the last reply, and after the shell has been idle long enough
for the kernel to give freed memory back to the system (kernel/idle.go). Both are reported as
growth per cell over the same settled starting point. A measurement, not a test:

    GPTNOTES_BIN=bin/gptnotes /usr/bin/python3 tests/bench_memory.py --cells 1000
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from kernel_harness import Kernel  # noqa: E402
from bench_kernel import rss_mib  # noqa: E402

# How long the bench waits for the idle kernel to release memory: the kernel waits 300 ms after a
# reply (kernel/idle.go idleRelease), then collects; a second more covers a loaded machine.
IDLE_WAIT = 1.5

SETUP = """import (
	"context"

	"github.com/gptnotes/gptnotes/gpt"
)
m, tok, about, err := gpt.Pretrained()
if err != nil {
	panic(err)
}
g, err := gpt.Generate(context.Background(), m, m.Config.BlockSize, tok, "Once upon a time", 200, gpt.Greedy)
if err != nil {
	panic(err)
}
_, _ = about, g"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", type=int, default=1000, help="trivial cells to run")
    args = ap.parse_args()
    k = Kernel()
    pid = k.km.provisioner.process.pid
    _, err = run(k, SETUP)
    if err:
        sys.exit(f"loading the model and generating failed: {err}")
    before = idle_rss(pid)
    marks = {}
    took = 0.0  # the cells' own time, without the idle waits at the marks
    for i in range(args.cells):
        t0 = time.perf_counter()
        _, err = run(k, f"x{i} := {i} * 2")
        took += time.perf_counter() - t0
        if err:
            sys.exit(f"cell {i} failed: {err}")
        if i + 1 in (100, 300, 3000) or i + 1 == args.cells:
            now = rss_mib(pid)  # immediately after the reply
            marks[i + 1] = (now, idle_rss(pid))
    print(f"RSS with the shipped model loaded and 200 tokens generated (idle): {before:.1f} MiB")
    for n, (now, idle) in sorted(marks.items()):
        print(f"  after {n:5d} cells: {now:.1f} MiB right after the reply ({per_cell(now, before, n):.1f} KB a cell), "
              f"{idle:.1f} MiB idle ({per_cell(idle, before, n):.1f} KB a cell)")
    now, idle = marks[args.cells]
    print(f"growth over {args.cells} cells: {per_cell(now, before, args.cells):.1f} KB a cell right after the last "
          f"reply, {per_cell(idle, before, args.cells):.1f} KB a cell idle; {took / args.cells * 1e3:.1f} ms a cell")
    k.km.shutdown_kernel(now=True)


def per_cell(rss, before, n):
    return (rss - before) * 1024 / n


def idle_rss(pid):
    """The kernel's RSS once it has been idle long enough to return freed memory to the system:
    what the system (a class server) sees of a kernel nobody is typing into."""
    time.sleep(IDLE_WAIT)
    return rss_mib(pid)


def run(k, code):
    """Executes code; returns (outputs, error text or None)."""
    msg_id = k.kc.execute(code)
    msgs = k.iopub_until_idle(msg_id)
    errs = [m["content"] for m in msgs if m["msg_type"] == "error"]
    return msgs, (errs[0]["evalue"] if errs else None)


if __name__ == "__main__":
    main()
