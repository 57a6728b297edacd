"""Kernel benchmarks, gptnotes side by side with Debian's ipykernel, through jupyter_client:

  - start: KernelManager.start_kernel() until the first kernel_info_reply (median of --starts);
  - round trip of a trivial cell: execute_request sent → execute_reply received, and → idle on
    iopub (the whole request), median and p90 of --n executes;
  - RSS of the kernel process after 10 and after --n executes.

Both kernels run at once and are measured alternately, execute by execute, so the load of a
shared machine weighs on both alike.

Not a pytest test (the file name keeps pytest from collecting it). Run:
    GPTNOTES_BIN=bin/gptnotes /usr/bin/python3 tests/bench_kernel.py [--n 1000] [--starts 5]
"""
import argparse
import os
import queue
import subprocess
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_harness import KERNEL_NAME  # noqa: E402  (installs the kernelspec)

from jupyter_client.manager import KernelManager  # noqa: E402

os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # quiet ipykernel's debugger warning
KERNELS = [(KERNEL_NAME, "gptnotes", "1"), ("python3", "ipykernel", "1")]


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def start(kernel_name):
    """Starts a kernel; returns (km, kc, seconds until kernel_info_reply)."""
    t0 = time.perf_counter()
    km = KernelManager(kernel_name=kernel_name)
    km.start_kernel(stderr=subprocess.DEVNULL)
    kc = km.client()
    kc.start_channels()
    msg_id = kc.kernel_info()
    while True:
        m = kc.get_shell_msg(timeout=60)
        if m["parent_header"].get("msg_id") == msg_id:
            break
    took = time.perf_counter() - t0
    return km, kc, took


def stop(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=False)


def execute_once(kc, code):
    """Returns (seconds to execute_reply, seconds to idle)."""
    t0 = time.perf_counter()
    msg_id = kc.execute(code)
    while True:
        m = kc.get_shell_msg(timeout=60)
        if m["parent_header"].get("msg_id") == msg_id:
            break
    t_reply = time.perf_counter() - t0
    while True:
        m = kc.get_iopub_msg(timeout=60)
        if (m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status"
                and m["content"]["execution_state"] == "idle"):
            break
    return t_reply, time.perf_counter() - t0


def bench(kernels, n, starts):
    """Measures every kernel in turn, interleaved start by start and execute by execute, so
    a change in the machine's load hits both sides alike."""
    res = {label: {"start": [], "reply": [], "idle": []} for _, label, _ in kernels}
    for _ in range(starts):
        for kernel_name, label, _ in kernels:
            km, kc, took = start(kernel_name)
            res[label]["start"].append(took)
            stop(km, kc)
    running = []
    for kernel_name, label, code in kernels:
        km, kc, _ = start(kernel_name)
        running.append((label, code, km, kc, km.provisioner.process.pid))
    time.sleep(0.5)
    for _, _, _, kc, _ in running:  # drain the startup chatter on iopub
        while True:
            try:
                kc.get_iopub_msg(timeout=0.1)
            except queue.Empty:
                break
    for i in range(n):
        for label, code, _, kc, pid in running:
            r, d = execute_once(kc, code)
            res[label]["reply"].append(r)
            res[label]["idle"].append(d)
            if i + 1 == 10:
                res[label]["rss10"] = rss_mib(pid)
    q = lambda xs, p: sorted(xs)[int(p * (len(xs) - 1))]
    out = {}
    for label, code, km, kc, pid in running:
        r = res[label]
        out[label] = {
            "start_ms": statistics.median(r["start"]) * 1e3,
            "reply_ms": statistics.median(r["reply"]) * 1e3,
            "idle_ms": statistics.median(r["idle"]) * 1e3,
            "idle_p90_ms": q(r["idle"], 0.9) * 1e3,
            "rss10": r["rss10"],
            "rss_n": rss_mib(pid),
        }
        stop(km, kc)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1000, help="executes per kernel")
    ap.add_argument("--starts", type=int, default=5, help="kernel starts to time")
    args = ap.parse_args()
    print(f"load before: {os.getloadavg()}")
    results = bench(KERNELS, args.n, args.starts)
    print(f"load after:  {os.getloadavg()}")
    print(f"\n{'':12} {'start→info':>11} {'rt→reply':>9} {'rt→idle':>8} {'p90 idle':>9} "
          f"{'RSS@10':>8} {'RSS@' + str(args.n):>9}")
    for label, r in results.items():
        print(f"{label:12} {r['start_ms']:9.0f}ms {r['reply_ms']:7.2f}ms {r['idle_ms']:6.2f}ms "
              f"{r['idle_p90_ms']:7.2f}ms {r['rss10']:6.1f}MiB {r['rss_n']:7.1f}MiB")
    g, p = results["gptnotes"], results["ipykernel"]
    print(f"\nround trip to idle, gptnotes / ipykernel = {g['idle_ms'] / p['idle_ms']:.2f} (goal ≤ 0.5); "
          f"RSS growth {g['rss_n'] - g['rss10']:+.1f} MiB over {args.n - 10} executes")


if __name__ == "__main__":
    main()
