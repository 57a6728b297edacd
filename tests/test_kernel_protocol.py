"""The Jupyter messaging protocol (5.3) as gptnotes speaks it, driven by the real
jupyter_client against the built binary. Each test names the rule of the protocol it checks."""
import json
import os
import pathlib
import signal
import struct
import subprocess
import time

import pytest

from kernel_harness import BIN, COMMAND, EXEC, KERNELSPEC_DIR, Kernel, host_path


@pytest.fixture(scope="module")
def k():
    kern = Kernel()
    yield kern
    kern.shutdown()


def test_kernel_info_reply(k):
    msg_id = k.kc.kernel_info()
    reply = k.shell_reply(msg_id)
    c = reply["content"]
    assert c["status"] == "ok"
    assert c["protocol_version"].startswith("5.")
    assert c["implementation"] == "gptnotes"
    assert c["implementation_version"]
    li = c["language_info"]
    assert li["name"] == "go"
    assert li["mimetype"] == "text/x-go"
    assert li["file_extension"] == ".go"
    assert li["pygments_lexer"] == "go"
    assert li["codemirror_mode"] == "go"
    assert li["version"][0].isdigit()
    assert c["banner"] and isinstance(c["help_links"], list)
    assert reply["header"]["session"] and reply["header"]["version"] == c["protocol_version"]


def test_busy_outputs_reply_idle(k):
    msg_id = k.kc.execute('import "fmt"\nfmt.Println("hi")')
    reply = k.shell_reply(msg_id)
    msgs = k.iopub_until_idle(msg_id)
    types = [m["msg_type"] for m in msgs]
    assert msgs[0]["msg_type"] == "status" and msgs[0]["content"]["execution_state"] == "busy"
    assert types[1] == "execute_input"
    assert "stream" in types
    # The reply is sent after the outputs and before idle.
    assert msgs[-2]["header"]["date"] <= reply["header"]["date"] <= msgs[-1]["header"]["date"]


def test_execution_count_counts_store_history(k):
    reply, _ = k.execute("1")
    n = reply["execution_count"]
    reply, outs = k.execute("2")
    assert reply["execution_count"] == n + 1
    assert outs[-1]["msg_type"] == "execute_result" and outs[-1]["content"]["execution_count"] == n + 1
    reply, _ = k.execute("3", store_history=False)
    assert reply["execution_count"] == n + 1
    reply, outs = k.execute('import "fmt"\nfmt.Println("quiet")', silent=True)
    assert reply["status"] == "ok" and outs == []
    reply, _ = k.execute("4")
    assert reply["execution_count"] == n + 2


def test_execute_input_carries_code_and_count(k):
    code = "5 * 5"
    msg_id = k.kc.execute(code)
    reply = k.shell_reply(msg_id)
    inputs = [m for m in k.iopub_until_idle(msg_id) if m["msg_type"] == "execute_input"]
    assert len(inputs) == 1
    assert inputs[0]["content"] == {"code": code, "execution_count": reply["content"]["execution_count"]}


def test_error_is_one_output_and_in_reply(k):
    reply, outs = k.execute('panic("boom")')
    assert reply["status"] == "error"
    assert [m["msg_type"] for m in outs] == ["error"]
    err = outs[0]["content"]
    assert "boom" in err["evalue"] + "".join(err["traceback"])
    assert isinstance(err["traceback"], list) and all(isinstance(s, str) for s in err["traceback"])
    assert reply["ename"] == err["ename"] and reply["traceback"] == err["traceback"]


def test_stop_on_error_aborts_queued_executes(k):
    failing = 'import "time"\ntime.Sleep(300 * time.Millisecond)\npanic("first fails")'
    ids = [k.kc.execute(failing), k.kc.execute("1 + 1"), k.kc.execute("2 + 2")]
    statuses = [k.shell_reply(i)["content"]["status"] for i in ids]
    assert statuses == ["error", "aborted", "aborted"]
    for i in ids:  # every request, aborted or not, gets busy … idle
        k.iopub_until_idle(i)
    # A cell failing at once (a syntax error) aborts what was sent right behind it too.
    ids = [k.kc.execute("x := )"), k.kc.execute("1 + 1")]
    assert [k.shell_reply(i)["content"]["status"] for i in ids] == ["error", "aborted"]
    for i in ids:
        k.iopub_until_idle(i)
    # stop_on_error=False lets the next one run.
    ids = [k.kc.execute(failing, stop_on_error=False), k.kc.execute("1 + 1")]
    assert [k.shell_reply(i)["content"]["status"] for i in ids] == ["error", "ok"]
    for i in ids:
        k.iopub_until_idle(i)


def test_pager_payload_for_help_syntax(k):
    reply, _ = k.execute("?fmt.Println")
    assert reply["status"] == "ok"
    [page] = reply["payload"]
    assert page["source"] == "page" and "text/plain" in page["data"]


def test_every_reply_carries_status(k):
    kc = k.kc
    requests = {
        "kernel_info_reply": kc.kernel_info(),
        "complete_reply": kc.complete("fm", 2),
        "inspect_reply": kc.inspect("fmt.Println", 11),
        "is_complete_reply": kc.is_complete("x := 1"),
        "history_reply": kc.history(hist_access_type="tail", n=1),
        "comm_info_reply": kc.comm_info(),
    }
    for want, msg_id in requests.items():
        reply = k.shell_reply(msg_id)
        assert reply["msg_type"] == want
        assert "status" in reply["content"], want
        k.iopub_until_idle(msg_id)  # busy and idle for these too


def test_is_complete_statuses(k):
    def status(code):
        msg_id = k.kc.is_complete(code)
        return k.shell_reply(msg_id)["content"]

    assert status("x := 1")["status"] == "complete"
    inc = status("func f() {")
    assert inc["status"] == "incomplete" and isinstance(inc["indent"], str)


def test_complete_reply_in_code_points(k):
    code = 's := "héllo"; fm'
    msg_id = k.kc.complete(code, len(code))
    c = k.shell_reply(msg_id)["content"]
    assert c["status"] == "ok"
    assert 0 <= c["cursor_start"] <= c["cursor_end"] <= len(code)
    assert isinstance(c["matches"], list)


def test_history_tail_range_search(k):
    codes = ["100 + 1", "100 + 2", "200 + 3"]
    for c in codes:
        k.execute(c)
    h = k.shell_reply(k.kc.history(hist_access_type="tail", n=3, output=True, raw=True))["content"]["history"]
    assert [e[2][0] for e in h] == codes
    assert [e[2][1] for e in h] == ["101", "102", "203"]
    session, line = h[0][0], h[0][1]
    r = k.shell_reply(k.kc.history(hist_access_type="range", session=session, start=line, stop=line + 2,
                                   output=False, raw=True))["content"]["history"]
    assert [e[2] for e in r] == codes[:2] and [e[1] for e in r] == [line, line + 1]
    s = k.shell_reply(k.kc.history(hist_access_type="search", pattern="100 + ?", output=False,
                                   raw=True, n=10))["content"]["history"]
    assert [e[2] for e in s][-2:] == codes[:2] and all(e[2].startswith("100 + ") for e in s)
    u = k.shell_reply(k.kc.history(hist_access_type="search", pattern="*+ 3", unique=True,
                                   output=False, raw=True))["content"]["history"]
    assert [e[2] for e in u] == ["200 + 3"]


def test_comm_info_and_open_to_unknown_target(k):
    c = k.shell_reply(k.kc.comm_info())["content"]
    assert c == {"status": "ok", "comms": {}}
    msg = k.kc.session.msg("comm_open", {"comm_id": "c-unknown", "target_name": "no-such-target", "data": {}})
    k.kc.shell_channel.send(msg)
    msgs = k.iopub_until_idle(msg["header"]["msg_id"])
    closes = [m for m in msgs if m["msg_type"] == "comm_close"]
    assert len(closes) == 1 and closes[0]["content"]["comm_id"] == "c-unknown"
    assert "no target" in k.log()


def test_heartbeat_beats_during_a_cell(k):
    assert k.kc.hb_channel.is_beating()
    msg_id = k.kc.execute('import "time"\ntime.Sleep(2 * time.Second)')
    time.sleep(1)
    assert k.kc.hb_channel.is_beating()
    assert k.shell_reply(msg_id)["content"]["status"] == "ok"
    k.iopub_until_idle(msg_id)


def test_binds_only_the_connection_files_ip(k):
    info = k.km.get_connection_info()
    ports = {info[p] for p in ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")}
    listening = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in pathlib.Path(table).read_text().splitlines()[1:]:
            f = line.split()
            addr, port = f[1].rsplit(":", 1)
            if f[3] == "0A" and int(port, 16) in ports:  # 0A = LISTEN
                listening[int(port, 16)] = addr
    assert set(listening) == ports
    assert set(listening.values()) == {"0100007F"}, "every socket on 127.0.0.1 only"


def test_interrupt_request_stops_a_running_cell(k):
    k.execute("kept := 7")
    msg_id = k.kc.execute("for {}")
    time.sleep(0.5)
    t = time.monotonic()
    k.km.interrupt_kernel()  # interrupt_mode message: interrupt_request on control
    reply = k.shell_reply(msg_id, timeout=10)
    assert reply["content"]["status"] == "error"
    assert time.monotonic() - t < 2
    k.iopub_until_idle(msg_id)
    assert k.stdout('import "fmt"\nfmt.Println(kept)') == "7\n"


def test_sigint_is_trapped(k):
    msg_id = k.kc.execute("for {}")
    time.sleep(0.5)
    k.km.provisioner.process.send_signal(signal.SIGINT)
    assert k.shell_reply(msg_id, timeout=10)["content"]["status"] == "error"
    k.iopub_until_idle(msg_id)
    assert k.alive()
    assert k.stdout('import "fmt"\nfmt.Println("still here")') == "still here\n"


def test_shutdown_within_one_second_even_mid_cell():
    kern = Kernel()
    try:
        kern.kc.execute("for {}")
        time.sleep(0.3)
        proc = kern.km.provisioner.process
        t = time.monotonic()
        kern.kc.shutdown()
        proc.wait(timeout=5)
        took = time.monotonic() - t
        assert took < 1.0, f"kernel took {took:.2f} s to exit after shutdown_request"
        assert proc.returncode == 0
    finally:
        kern.kc.stop_channels()
        kern.km.cleanup_resources()


def test_install_writes_kernelspec_and_logo():
    spec = json.loads((KERNELSPEC_DIR / "kernel.json").read_text())
    argv = spec["argv"][len(EXEC):]
    assert [host_path(argv[0])] + argv[1:] == [os.path.realpath(BIN), "kernel", "{connection_file}"]
    assert spec["display_name"] == "Go (gptnotes)"
    assert spec["language"] == "go"
    assert spec["interrupt_mode"] == "message"
    png = (KERNELSPEC_DIR / "logo-64x64.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (64, 64)


@pytest.mark.parametrize("cmd", ["install", "kernel", "notebook", "version"])
def test_help_on_each_subcommand(cmd):
    r = subprocess.run(COMMAND + [cmd, "--help"], capture_output=True, text=True, timeout=10)
    assert r.returncode == 0, r.stderr
    assert f"gptnotes {cmd}" in r.stdout + r.stderr


def test_top_level_help_lists_commands():
    r = subprocess.run(COMMAND + ["--help"], capture_output=True, text=True, timeout=10)
    for cmd in ("install", "kernel", "notebook", "version"):
        assert cmd in r.stderr


def test_input_request_on_stdin(k):
    k.execute('import (\n\t"fmt"\n\t"github.com/gptnotes/gptnotes/kernel/display"\n)')
    prompts = []

    def answer(msg):
        prompts.append(msg["content"])
        k.kc.input("Ada")

    code = 'name, err := display.Input("your name? ")\nfmt.Println("hello,", name, err)'
    reply = k.kc.execute_interactive(code, allow_stdin=True, stdin_hook=answer, timeout=30,
                                     output_hook=lambda m: None)
    assert reply["content"]["status"] == "ok", reply["content"]
    assert prompts == [{"prompt": "your name? ", "password": False}]
    assert k.stdout("fmt.Println(name)") == "Ada\n"
    # A front end that does not accept input (allow_stdin false) gets an error, not a hang.
    out = k.stdout('_, err = display.Password("pin? ")\nfmt.Println(err)', allow_stdin=False)
    assert "does not accept input" in out


def test_comm_target_registered_by_a_cell(k):
    reply, _ = k.execute('import "github.com/gptnotes/gptnotes/kernel/comm"\n'
                         'comm.Register("echo", func(c *comm.Comm, data map[string]any) {\n'
                         '\tc.Send(map[string]any{"opened": data["hello"]})\n'
                         '\tc.OnMsg(func(d map[string]any) { c.Send(map[string]any{"echo": d["x"]}) })\n'
                         '})')
    assert reply["status"] == "ok", reply

    def send(msg_type, content):
        msg = k.kc.session.msg(msg_type, content)
        k.kc.shell_channel.send(msg)
        return [m for m in k.iopub_until_idle(msg["header"]["msg_id"]) if m["msg_type"].startswith("comm")]

    out = send("comm_open", {"comm_id": "c-echo", "target_name": "echo", "data": {"hello": "world"}})
    assert [(m["msg_type"], m["content"]["data"]) for m in out] == [("comm_msg", {"opened": "world"})]
    info = k.shell_reply(k.kc.comm_info(target_name="echo"))["content"]
    assert info["comms"] == {"c-echo": {"target_name": "echo"}}
    out = send("comm_msg", {"comm_id": "c-echo", "data": {"x": 42}})
    assert [(m["msg_type"], m["content"]["comm_id"], m["content"]["data"]) for m in out] == \
        [("comm_msg", "c-echo", {"echo": 42})]
    send("comm_close", {"comm_id": "c-echo", "data": {}})
    assert k.shell_reply(k.kc.comm_info())["content"]["comms"] == {}


def test_user_expressions(k):
    reply, outs = k.execute("ux := 20", user_expressions={"double": "ux * 2", "bad": "nosuchname + 1"})
    ue = reply["user_expressions"]
    assert ue["double"] == {"status": "ok", "data": {"text/plain": "40"}, "metadata": {}}
    assert ue["bad"]["status"] == "error" and "nosuchname" in ue["bad"]["evalue"]
    assert outs == [], "user expressions print nothing"
