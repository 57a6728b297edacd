"""A class session on one machine, measured (`make bench-class`; a script, not a test).

A real JupyterHub (tests/hub_harness.py: Debian's 3.0, deploy/jupyterhub_config.py in test
mode) on loopback; students join one after another, each logs in (user, token, server), opens a
gptnotes kernel through their server's REST and websocket API and works through a notebook, with
a seeded think time between cells: notebook 00's cells, then the shipped model loaded and
stepped through, trivial cells among the heavy ones. One student runs a cell that allocates
without end (the kernel's memory limit stops it); one runs a loop that never ends and
interrupts it. The whole run is capped at --limit seconds (10 minutes).

It prints: login to ready kernel (p50/p95); trivial and heavy cell times (p50/p95) by how many
students were working when the cell started; peak RSS per kernel and per single-user server,
and the hub's; the machine's memory and CPU; and what the other students saw while the two bad
cells ran.

    GPTNOTES_BIN=bin/gptnotes /usr/bin/python3 tests/bench_class.py --students 20 --seed 1
"""
import argparse
import asyncio
import json
import os
import pathlib
import random
import shutil
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from hub_harness import ROOT, Hub, KernelSocket, code_cells, marked_pids  # noqa: E402

T, H, S = "trivial", "heavy", "sleeping"

# The notebook each student works through: notebooks/00 (the plot counts as heavy), then the
# shipped model, as notebook 04 uses it.
MODEL_CELLS = [
    (H, 'import "github.com/gptnotes/gptnotes/gpt"\n'
        'model, tok, about, err := gpt.Pretrained()\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(about)'),
    (T, 'prompt := tok.Encode("func main() {\\n\\tfmt.Println(")\nfmt.Println(len(prompt), "tokens")'),
    (T, 'fmt.Println(model.Config.Layers, "blocks, width", model.Config.Channels)'),
    (H, 'slow, _ := gpt.NewGenerator(model, prompt, gpt.Greedy, false)\n'
        'steps, err := slow.Steps(48)\nfmt.Println(len(steps), err, slow.Positions(), "positions")'),
    (T, 'fmt.Println(tok.Decode(slow.Generated()[:8]))'),
    (H, 'fast, _ := gpt.NewGenerator(model, prompt, gpt.Greedy, true)\n'
        'steps2, err := fast.Steps(200)\nfmt.Println(len(steps2), err, fast.Positions(), "positions")'),
    (T, 'fmt.Println(slow.Positions() / fast.Positions(), "times fewer positions with the cache")'),
    (T, 'uncached, cached := gpt.Positions(11, 256)\nfmt.Println(uncached, cached)'),
    (H, 'hot, _ := gpt.NewGenerator(model, prompt, gpt.Policy{Temperature: 0.8, TopK: 40, Seed: 1}, true)\n'
        'hotSteps, err := hot.Steps(200)\nfmt.Println(len(hotSteps), err)'),
    (T, 'fmt.Println("done:", x*y)'),
]

# The runaway fills what it allocates (bytes.Repeat, compiled), so its pages are resident.
RUNAWAY = ('import "bytes"\nfunc() {\n\tvar hog [][]byte\n\tfor {\n'
           '\t\thog = append(hog, bytes.Repeat([]byte{1}, 1<<20))\n\t}\n}()')
ENDLESS = "n := 0\nfor {\n\tn++\n}"


def kind_of(code):
    """The plot is heavy; the progress bar sleeps 21 × 50 ms by design, a cell of its own kind."""
    if "plot.New()" in code:
        return H
    if "time.Sleep" in code:
        return S
    return T


def notebook():
    cells = [(kind_of(code), code, tags)
             for code, tags in code_cells(ROOT / "notebooks" / "00-go-in-a-notebook.ipynb")]
    return cells + [(kind, code, []) for kind, code in MODEL_CELLS]


def pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


class Sampler:
    """Every --every seconds: each process of the hub's RSS by role and student, the machine's
    used memory, and its CPU use."""

    def __init__(self, hub, every=1.0):
        self.hub, self.every = hub, every
        self.peak = {}  # (role, who) -> bytes
        self.used_peak = 0
        self.marked_peak = 0
        self.cpu = []  # (t, busy fraction of all cores, procs running)
        self.load = []

    def classify(self, pid):
        try:
            cmd = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            env = pathlib.Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            return None
        home = next((e[5:].decode() for e in env if e.startswith(b"HOME=")), "")
        who = pathlib.Path(home).name if home.startswith(str(self.hub.homes)) else "-"
        if " kernel " in cmd and "gptnotes" in cmd:
            return "kernel", who
        if "jupyterhub-singleuser" in cmd:
            return "server", who
        if "configurable-http-proxy" in cmd:
            return "proxy", "-"
        if "jupyterhub" in cmd:
            return "hub", "-"
        return "other", who

    @staticmethod
    def rss(pid):
        try:
            for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        except OSError:
            pass
        return 0

    @staticmethod
    def cpu_times():
        f = pathlib.Path("/proc/stat").read_text().splitlines()
        v = [int(x) for x in f[0].split()[1:]]
        running = next(int(l.split()[1]) for l in f if l.startswith("procs_running"))
        idle = v[3] + v[4]
        return sum(v), idle, running

    @staticmethod
    def mem_used():
        m = {l.split(":")[0]: int(l.split()[1]) * 1024 for l in pathlib.Path("/proc/meminfo").read_text().splitlines()}
        return m["MemTotal"] - m["MemAvailable"]

    async def run(self, t0):
        last = self.cpu_times()
        while True:
            await asyncio.sleep(self.every)
            total = 0
            for pid in marked_pids(self.hub.run):
                role = self.classify(pid)
                if role is None:
                    continue
                r = self.rss(pid)
                total += r
                self.peak[(role, pid)] = max(self.peak.get((role, pid), 0), r)
            self.marked_peak = max(self.marked_peak, total)
            self.used_peak = max(self.used_peak, self.mem_used())
            now = self.cpu_times()
            busy = 1 - (now[1] - last[1]) / max(1, now[0] - last[0])
            self.cpu.append((time.monotonic() - t0, busy, now[2]))
            self.load.append(os.getloadavg()[0])
            last = now


class Student:
    def __init__(self, hub, name, rng, bad=None):
        self.hub, self.name, self.rng, self.bad = hub, name, rng, bad
        self.ready = None  # seconds from login to a ready kernel
        self.cells = []  # (kind, start (s since t0), seconds, status, active students)
        self.errors = []  # what went wrong that should not have
        self.finished = False
        self.bad_window = None  # (start, end) of the bad cell

    async def session(self, t0, cells, think, active):
        start = time.monotonic()
        token = await asyncio.to_thread(self.hub.add_student, self.name)
        await asyncio.to_thread(self.hub.start_server, self.name, 300)
        k = await KernelSocket(self.hub, self.name, token).start(timeout=120)
        self.ready = time.monotonic() - start
        active.add(self.name)
        try:
            bad_at = len(cells) // 2
            for i, (kind, code, tags) in enumerate(cells):
                if self.bad and i == bad_at:
                    await self.misbehave(k, t0)
                await asyncio.sleep(self.rng.uniform(*think))
                s = time.monotonic()
                reply, outs = await k.execute(code, timeout=300)
                secs = time.monotonic() - s
                want = "error" if "raises-exception" in tags else "ok"
                if reply["status"] != want:
                    self.errors.append(f"cell {i}: {reply.get('ename')}: {reply.get('evalue')}"[:300])
                self.cells.append((kind, s - t0, secs, reply["status"], len(active)))
            self.finished = True
        finally:
            active.discard(self.name)
            await k.close()

    async def misbehave(self, k, t0):
        s = time.monotonic()
        if self.bad == "runaway":
            reply, _ = await k.execute(RUNAWAY, timeout=300)
            self.bad_result = f"{reply.get('ename')}: {reply.get('evalue')}"
        else:
            task = asyncio.ensure_future(k.execute(ENDLESS, timeout=300))
            await asyncio.sleep(20)
            await k.interrupt()
            reply, _ = await task
            self.bad_result = f"{reply.get('ename')}: {reply.get('evalue')}"
        self.bad_window = (s - t0, time.monotonic() - t0)
        reply, outs = await k.execute('fmt.Println("after the bad cell:", x*y)', timeout=120)
        self.bad_after = "".join(m["content"].get("text", "") for m in outs).strip() or reply.get("evalue")


async def main_async(args):
    binary = os.environ.get("GPTNOTES_BIN") or str(ROOT / "bin" / "gptnotes")
    work = tempfile.mkdtemp(prefix="gptnotes-class-")
    hub = Hub(work, binary, kernel_memory=args.kernel_memory)
    rng = random.Random(args.seed)
    cells = notebook()
    names = [f"student{i:02d}" for i in range(1, args.students + 1)]
    bad = {names[-1]: "runaway", names[-2]: "endless"} if args.students >= 3 else {}
    students = [Student(hub, n, random.Random(rng.random()), bad.get(n)) for n in names]
    active = set()
    t0 = time.monotonic()
    sampler = Sampler(hub)
    sampling = asyncio.ensure_future(sampler.run(t0))
    load_before = os.getloadavg()
    timed_out = False
    try:
        async def join(i, st):
            await asyncio.sleep(i * args.join_every)
            try:
                await st.session(t0, cells, (args.think_min, args.think_max), active)
            except Exception as e:  # noqa: BLE001  (a student's failure is a figure, not a crash)
                st.errors.append(f"{type(e).__name__}: {e}"[:300])

        try:
            await asyncio.wait_for(asyncio.gather(*(join(i, s) for i, s in enumerate(students))),
                                   timeout=args.limit)
        except asyncio.TimeoutError:
            timed_out = True
    finally:
        sampling.cancel()
        elapsed = time.monotonic() - t0
        stop_start = time.monotonic()
        killed = hub.stop(timeout=60)
        stop_secs = time.monotonic() - stop_start
        left = marked_pids(hub.run)
        shutil.rmtree(work, ignore_errors=True)
    report(args, students, sampler, elapsed, timed_out, load_before, stop_secs, killed, left)


def report(args, students, sampler, elapsed, timed_out, load_before, stop_secs, killed, left):
    p = print
    p(f"# gptnotes class benchmark: {args.students} students, seed {args.seed}, "
      f"joining every {args.join_every:g} s, think {args.think_min:g}–{args.think_max:g} s, "
      f"kernel memory limit {args.kernel_memory}")
    p(f"machine: {os.cpu_count()} cores, {mem_total() / 2**30:.1f} GiB; "
      f"load before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
      f"after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    p(f"ran {elapsed:.0f} s{' (stopped at the time limit)' if timed_out else ''}; "
      f"hub stopped in {stop_secs:.1f} s, {len(killed)} processes killed after it, {len(left)} left")
    done = [s for s in students if s.finished]
    p(f"notebooks finished: {len(done)} of {len(students)}")
    ready = [s.ready for s in students if s.ready is not None]
    p(f"login → ready kernel: p50 {pct(ready, 50):.1f} s, p95 {pct(ready, 95):.1f} s, max {max(ready, default=float('nan')):.1f} s")
    good = [s for s in students if not s.bad]
    p("\ncell times by students working when the cell started (the well-behaved students):")
    p("| students | trivial n | trivial p50 | trivial p95 | heavy n | heavy p50 | heavy p95 |")
    p("|---|---|---|---|---|---|---|")
    step = max(1, args.students // 4)
    for lo in range(1, args.students + 1, step):
        hi = min(lo + step - 1, args.students)
        row = [f"{lo}–{hi}"]
        for kind in (T, H):
            xs = [c[2] for s in good for c in s.cells if c[0] == kind and lo <= c[4] <= hi]
            row += [str(len(xs)), f"{pct(xs, 50):.2f} s", f"{pct(xs, 95):.2f} s"]
        p("| " + " | ".join(row) + " |")
    for kind in (T, H, S):
        xs = [c[2] for s in good for c in s.cells if c[0] == kind]
        p(f"all {kind}: n {len(xs)}, p50 {pct(xs, 50):.2f} s, p95 {pct(xs, 95):.2f} s, max {max(xs, default=float('nan')):.2f} s")

    p("\npeak RSS:")
    for role in ("kernel", "server"):
        xs = [v for (r, _), v in sampler.peak.items() if r[0] == role]
        p(f"  {role}: n {len(xs)}, p50 {pct(xs, 50) / 2**20:.0f} MiB, max {max(xs, default=0) / 2**20:.0f} MiB")
    bad_kernels = [v for (r, _), v in sampler.peak.items() if r[0] == "kernel" and r[1] in
                   [s.name for s in students if s.bad == "runaway"]]
    if bad_kernels:
        p(f"  the runaway student's kernel: {max(bad_kernels) / 2**20:.0f} MiB")
    for role in ("hub", "proxy"):
        xs = [v for (r, _), v in sampler.peak.items() if r[0] == role]
        p(f"  {role}: {max(xs, default=0) / 2**20:.0f} MiB")
    p(f"  all of the class's processes together: {sampler.marked_peak / 2**30:.2f} GiB at the peak; "
      f"machine's used memory at the peak (everything on it): {sampler.used_peak / 2**30:.2f} GiB")
    busy = [b for _, b, _ in sampler.cpu]
    p(f"\nCPU: busy p50 {pct(busy, 50) * 100:.0f}%, p95 {pct(busy, 95) * 100:.0f}%; "
      f"saturated (≥ 95% busy) {sum(b >= 0.95 for b in busy) / max(1, len(busy)) * 100:.0f}% of seconds; "
      f"runnable processes p50 {pct([r for _, _, r in sampler.cpu], 50):.0f}, "
      f"load average max {max(sampler.load, default=0):.1f}")

    p("\nthe bad two:")
    windows = []
    for s in students:
        if s.bad:
            p(f"  {s.name} ({s.bad}): {getattr(s, 'bad_result', 'did not run')}")
            p(f"    then: {getattr(s, 'bad_after', '-')}")
            if s.bad_window:
                windows.append(s.bad_window)
    inside = [c[2] for s in good for c in s.cells if c[0] == T and any(a <= c[1] <= b for a, b in windows)]
    outside = [c[2] for s in good for c in s.cells if c[0] == T and not any(a <= c[1] <= b for a, b in windows)]
    p(f"  others' trivial cells while a bad cell ran: n {len(inside)}, p50 {pct(inside, 50):.2f} s, "
      f"p95 {pct(inside, 95):.2f} s (otherwise p50 {pct(outside, 50):.2f} s, p95 {pct(outside, 95):.2f} s)")
    errs = [(s.name, e) for s in good for e in s.errors]
    p(f"  errors the others saw: {len(errs)}")
    for name, e in errs[:10]:
        p(f"    {name}: {e}")
    for s in students:
        if s.bad and s.errors:
            p(f"  {s.name}: {s.errors[:3]}")


def mem_total():
    for line in pathlib.Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) * 1024
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--students", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--join-every", type=float, default=4.0, help="seconds between two students joining")
    ap.add_argument("--think-min", type=float, default=2.0)
    ap.add_argument("--think-max", type=float, default=6.0)
    ap.add_argument("--kernel-memory", default="1536MiB", help="each kernel's GPTNOTES_MEMORY_LIMIT")
    ap.add_argument("--limit", type=float, default=570, help="seconds the class may run (the whole script stays under 10 minutes)")
    args = ap.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
