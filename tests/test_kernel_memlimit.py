"""The kernel's own memory limit (kernel/memlimit.go), on a real kernel through jupyter_client:
a cell that allocates without end is stopped past GPTNOTES_MEMORY_LIMIT with an error naming the
limit and what used the memory; the kernel and the session's variables stay."""
import os
import time

import pytest

from kernel_harness import Kernel

LIMIT = "300MiB"

RUNAWAY_IN_A_FUNCTION = """
func() {
	var hog [][]byte
	for {
		hog = append(hog, make([]byte, 1<<20))
	}
}()
"""

RUNAWAY_INTO_A_VARIABLE = """
var kept [][]byte
for {
	kept = append(kept, make([]byte, 1<<20))
}
"""


@pytest.fixture(scope="module")
def k():
    kernel = Kernel(env=dict(os.environ, GPTNOTES_MEMORY_LIMIT=LIMIT))
    yield kernel
    kernel.shutdown()


def stopped(k, code):
    start = time.monotonic()
    reply, outs = k.execute(code, timeout=60)
    seconds = time.monotonic() - start
    assert reply["status"] == "error", reply
    errors = [m for m in outs if m["msg_type"] == "error"]
    assert len(errors) == 1, outs
    assert reply["ename"] == "MemoryLimit", reply
    assert "300 MiB" in reply["evalue"] and "GPTNOTES_MEMORY_LIMIT" in reply["evalue"], reply["evalue"]
    assert "this cell added" in reply["evalue"], reply["evalue"]
    assert seconds < 30, f"the runaway cell ran {seconds:.1f} s before it was stopped"
    return reply


def test_runaway_cell_is_stopped_and_the_session_lives(k):
    assert k.stdout("import \"fmt\"\nanswer := 41") == ""
    reply = stopped(k, RUNAWAY_IN_A_FUNCTION)
    assert "the cell's memory was freed" in reply["traceback"][-1], reply["traceback"]
    assert k.alive()
    assert k.stdout("fmt.Println(answer + 1)") == "42\n"


def test_memory_kept_in_a_variable_is_named_and_can_be_freed(k):
    reply = stopped(k, RUNAWAY_INTO_A_VARIABLE)
    assert "still holds" in reply["traceback"][-1] and "nil" in reply["traceback"][-1], reply["traceback"]
    # Over the limit, a cell that frees the memory still runs (the guard allows some slack).
    assert k.stdout("fmt.Println(len(kept) > 100); kept = nil") == "true\n"
    # Back under the limit, the next runaway is stopped again, and the kernel still answers.
    stopped(k, RUNAWAY_IN_A_FUNCTION)
    assert k.stdout("fmt.Println(answer)") == "41\n"


def test_a_bad_limit_is_refused_at_start():
    with pytest.raises(Exception):
        Kernel(env=dict(os.environ, GPTNOTES_MEMORY_LIMIT="lots")).shutdown()


# A millisecond a MiB: it passes the limit within a second, and would take seconds more to reach
# its cap (on a loaded machine, without the pause, it reached the cap before the guard's poll).
LEFTOVER = """
import "time"

var leftover [][]byte
go func() {
	for {
		leftover = append(leftover, make([]byte, 1<<20))
		if len(leftover) > 4000 {
			leftover = leftover[:4000]
		}
		time.Sleep(time.Millisecond)
	}
}()
"""


def test_a_goroutine_past_the_limit_between_cells_is_reported(k):
    """Issue 48: the guard watches between cells too; a goroutine that outlives its cell and
    grows past the limit is stopped and reported under that cell, with the figures; the session
    goes on, and freeing the variable brings the kernel back under its limit."""
    parent = k.kc.execute(LEFTOVER)
    reply = k.shell_reply(parent, 60)["content"]
    assert reply["status"] == "ok", reply
    deadline = time.monotonic() + 30
    seen = []
    while time.monotonic() < deadline:
        try:
            m = k.kc.get_iopub_msg(timeout=1)
        except Exception:  # queue.Empty
            continue
        if m["msg_type"] == "stream" and "between cells" in m["content"]["text"]:
            seen.append(m)
            break
    assert seen, "no report of the goroutine's growth within 30 s"
    text = seen[0]["content"]["text"]
    assert seen[0]["parent_header"].get("msg_id") == parent, seen[0]["parent_header"]
    assert seen[0]["content"]["name"] == "stderr" and "300 MiB" in text and "GPTNOTES_MEMORY_LIMIT" in text, text
    assert "the kernel stopped the goroutines" in text, text
    # Stopped: the slice no longer grows (4000 MiB would be its cap), and the session goes on.
    time.sleep(1)
    first = k.stdout("fmt.Println(len(leftover))")
    time.sleep(1)
    assert k.stdout("fmt.Println(len(leftover))") == first, "the goroutine still runs"
    assert int(first) < 4000, first
    assert k.stdout("leftover = nil\nfmt.Println(answer)") == "41\n"
    assert k.alive()
