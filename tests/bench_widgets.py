"""Responsiveness of the sampling explorer (package live) on the model gpt.Pretrained opens:
replays --n temperature changes at --rate per second through jupyter_client, as a dragged slider
sends them in widget protocol 2.1 (ipywidgets 8's front end: JupyterLab 4, Notebook 7), and prints the percentiles of the time from sending a change to receiving the last
output of its callback (the figure's update), with the machine's load.

Coalesced changes (a newer one already queued when the kernel served it) run no callback; they
are counted, not timed. Not a pytest test (the file name keeps pytest from collecting it). Run:
    GPTNOTES_BIN=bin/gptnotes /usr/bin/python3 tests/bench_widgets.py [--n 100] [--rate 10]
"""
import argparse
import os
import queue
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_harness import Kernel  # noqa: E402

SETUP = '''import (
	"fmt"
	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/live"
)
model, tok, about, err := gpt.Pretrained()
if err != nil {
	panic(err)
}
e := live.Sampling(model, tok, "// The")
fmt.Println(e.Temperature.ModelID(), e.Figure.ModelID())
fmt.Println(about)
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--rate", type=float, default=10)
    args = ap.parse_args()
    k = Kernel()
    try:
        reply, outs = k.execute(SETUP, timeout=120)
        assert reply["status"] == "ok", reply
        text = "".join(m["content"].get("text", "") for m in outs if m["msg_type"] == "stream")
        ids, about = text.split("\n", 1)
        temp, figure = ids.split()
        sent, done, coalesced = {}, {}, 0
        idle = set()
        t0 = time.monotonic()
        i = 0
        while i < args.n or len(idle) < args.n:
            now = time.monotonic()
            if i < args.n and now >= t0 + i / args.rate:
                T = round(0.2 + (i % 30) * 0.05, 2)
                msg = k.kc.session.msg("comm_msg", {"comm_id": temp, "data": {
                    "method": "update", "state": {"value": T}, "buffer_paths": []}})
                k.kc.shell_channel.send(msg)
                sent[msg["header"]["msg_id"]] = time.monotonic()
                i += 1
                continue
            try:
                m = k.kc.get_iopub_msg(timeout=0.005)
            except queue.Empty:
                continue
            parent = m["parent_header"].get("msg_id")
            if parent not in sent:
                continue
            if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == figure \
                    and m["content"]["data"].get("method") == "update":
                done[parent] = time.monotonic() - sent[parent]
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                idle.add(parent)
                if parent not in done:
                    coalesced += 1
        lat = sorted(v * 1000 for v in done.values())
        q = statistics.quantiles(lat, n=100) if len(lat) > 1 else lat * 99
        print(f"model: {about.strip()}")
        print(f"{args.n} changes at {args.rate:g}/s: {len(lat)} computed, {coalesced} coalesced")
        print(f"change sent -> figure received: p50 {q[49]:.1f} ms, p95 {q[94]:.1f} ms, max {lat[-1]:.1f} ms")
        print("load average (1, 5, 15 min): %.2f %.2f %.2f on %d cores" % (*os.getloadavg(), os.cpu_count()))
    finally:
        k.shutdown()


if __name__ == "__main__":
    main()
