"""An interleaved A/B benchmark of one Go benchmark between two revisions: is a change
free where it should be? Issue 16 uses it to show that Forward, with no hook and no cache,
costs what it cost before the hooks existed.

Not a test (pytest does not collect bench_*.py). From the repository root:

    /usr/bin/python3 tests/bench_ab.py [--base main] [--pairs 8] [--bench BenchmarkForwardSmall1024] [--benchtime 1x]

It compiles gpt's test binary (go test -c -tags openblas) twice, from --base (a git revision,
exported with git archive) and from the working tree, then runs them in turns, one
benchmark process each (-test.benchtime 1x by default: one warm-up forward, one timed;
--benchtime 5x times five and reports their mean), swapping which
goes first in every pair so that neither always meets the machine in the same state. It
prints every pair with the load average, each side's median and range, and the median of
the per-pair ratios (B/A), the figure to compare with the pairs' own spread.
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile


def build(src, out):
    subprocess.run(["go", "test", "-c", "-tags", "openblas", "-o", out, "./gpt"], cwd=src, check=True)


def run(binary, bench, benchtime):
    res = subprocess.run([binary, "-test.run", "^$", "-test.bench", "^" + bench + "$", "-test.benchtime", benchtime],
                         cwd=os.path.dirname(binary), capture_output=True, text=True, check=True)
    m = re.search(r"\s(\d+(?:\.\d+)?) ns/op", res.stdout)
    if not m:
        raise SystemExit("no ns/op in:\n" + res.stdout)
    return float(m.group(1)) / 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main")
    parser.add_argument("--pairs", type=int, default=8)
    parser.add_argument("--bench", default="BenchmarkForwardSmall1024")
    parser.add_argument("--benchtime", default="1x",
                        help="each run's -test.benchtime: 1x is one timed forward; 5x averages five, less noisy")
    args = parser.parse_args()
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True).stdout.strip()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True, cwd=root).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        base_src = os.path.join(tmp, "base")
        os.makedirs(base_src)
        archive = subprocess.run(["git", "archive", args.base], cwd=root, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", base_src], input=archive, check=True)
        a, b = os.path.join(tmp, "a.test"), os.path.join(tmp, "b.test")
        build(base_src, a)
        build(root, b)
        print(f"A = {args.base}, B = working tree at {head}; {args.bench}, {args.pairs} pairs, benchtime {args.benchtime}, seconds per op")
        times = {a: [], b: []}
        ratios = []
        for i in range(args.pairs):
            order = (a, b) if i % 2 == 0 else (b, a)
            for binary in order:
                times[binary].append(run(binary, args.bench, args.benchtime))
            load = open("/proc/loadavg").read().split()[0]
            ratios.append(times[b][-1] / times[a][-1])
            print(f"pair {i + 1}: A {times[a][-1]:.3f}  B {times[b][-1]:.3f}  B/A {ratios[-1]:.3f}  "
                  f"({'A' if order[0] == a else 'B'} first, load {load})")
        for name, binary in (("A", a), ("B", b)):
            ts = times[binary]
            print(f"{name}: median {statistics.median(ts):.3f} s, range {min(ts):.3f} … {max(ts):.3f}")
        print(f"B/A: median {statistics.median(ratios):.3f}, range {min(ratios):.3f} … {max(ratios):.3f}")


if __name__ == "__main__":
    main()
