"""Memory of a long session: the kernel's resident set as a student runs many small cells.

Starts a gptnotes kernel through jupyter_client, loads the shipped model in one cell (as every
notebook does), then runs N trivial cells `xK := K * 2` and prints the kernel's RSS (from
/proc, each time after debug.FreeOSMemory) before and after, and the growth per cell. A measurement, not a test:

    GPTNOTES_BIN=bin/gptnotes /usr/bin/python3 tests/bench_memory.py --cells 1000
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from kernel_harness import Kernel  # noqa: E402
from bench_kernel import rss_mib  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", type=int, default=1000, help="trivial cells to run")
    args = ap.parse_args()
    k = Kernel()
    pid = k.km.provisioner.process.pid
    _, err = run(k, 'import "github.com/gptnotes/gptnotes/gpt"\nm, tok, about, err := gpt.Pretrained()\n_, _, _ = m, tok, err\nabout')
    if err:
        sys.exit(f"loading the model failed: {err}")
    time.sleep(1)
    before = settled_rss(k, pid)
    marks = {}
    t0 = time.perf_counter()
    for i in range(args.cells):
        _, err = run(k, f"x{i} := {i} * 2")
        if err:
            sys.exit(f"cell {i} failed: {err}")
        if i + 1 in (100, 300, 1000, 3000):
            marks[i + 1] = settled_rss(k, pid)
    took = time.perf_counter() - t0
    after = settled_rss(k, pid)
    print(f"RSS with the shipped model loaded: {before:.1f} MiB; after {args.cells} cells: {after:.1f} MiB")
    for n, rss in sorted(marks.items()):
        print(f"  after {n:5d} cells: {rss:.1f} MiB ({(rss - before) * 1024 / n:.1f} KB a cell)")
    print(f"growth: {(after - before) * 1024 / args.cells:.1f} KB a cell; {took / args.cells * 1e3:.1f} ms a cell")
    k.km.shutdown_kernel(now=True)


def settled_rss(k, pid):
    """The kernel's RSS after a garbage collection that returns free memory to the system, so
    that what is measured is what the session keeps, not what the collector has not yet freed."""
    _, err = run(k, 'import "runtime/debug"\ndebug.FreeOSMemory()')
    if err:
        sys.exit(f"FreeOSMemory failed: {err}")
    return rss_mib(pid)


def run(k, code):
    """Executes code; returns (outputs, error text or None)."""
    msg_id = k.kc.execute(code)
    msgs = k.iopub_until_idle(msg_id)
    errs = [m["content"] for m in msgs if m["msg_type"] == "error"]
    return msgs, (errs[0]["evalue"] if errs else None)


if __name__ == "__main__":
    main()
