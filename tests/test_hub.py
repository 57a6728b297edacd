"""A class on a real JupyterHub (Debian's 3.0 and its proxy, deploy/jupyterhub_config.py in test
mode, on loopback): three students made through the hub's REST API with an admin token, their
servers started, a gptnotes kernel started in each through the single-user server's REST and
websocket API, as the notebook page does, and the first notebook's cells run in each.

Every student here is the test's own Unix user (SimpleLocalProcessSpawner): the test shows that
each has their own server process, home, kernel and kernel key, and that one student's token
does not open another's server; it does not show isolation between them, which comes from the
Docker and Kubernetes spawners (docs/security.md). What it does show of a one-machine hub, where
every student is a Unix user: another user (nobody, through setpriv) can neither read a kernel's
connection file nor connect to its sockets (ipc, in a private runtime directory) with 73
hostile bytes, nor read its iopub, and the kernel goes on; students receive no solutions."""
import asyncio
import base64
import json
import os
import pathlib
import shutil
import tempfile

import pytest
import subprocess
import sys

from hub_harness import ROOT, Hub, KernelSocket, code_cells, marked_pids
from kernel_harness import BIN

STUDENTS = ["ada", "grace", "ken"]
NOTEBOOK = ROOT / "notebooks" / "00-go-in-a-notebook.ipynb"
STOP_LIMIT = 30  # seconds to stop the hub and every process it started


@pytest.fixture(scope="module")
def hub():
    work = tempfile.mkdtemp(prefix="gptnotes-hub-")
    os.chmod(work, 0o755)  # as /home is: the kernels' own directory and sockets must keep others out
    # ada already has her own version of the first notebook: the course copy must not replace it.
    mine = pathlib.Path(work) / "homes" / "ada" / "gptnotes" / NOTEBOOK.name
    mine.parent.mkdir(parents=True)
    mine.write_text('{"ada": "my own work"}')
    h = Hub(work, BIN)
    try:
        yield h
    finally:
        killed = h.stop(timeout=STOP_LIMIT)
        left = marked_pids(h.run)
        assert not left, f"processes of the hub still running: {left}"
        if killed:
            print(f"hub test: killed {len(killed)} processes the hub left: {killed}")
        shutil.rmtree(work, ignore_errors=True)


def check_first_notebook(outputs):
    """The outputs of notebooks/00's cells, as tests/test_notebook_00.py checks them."""
    (hello, out, html, celsius, progress, plot, _help, _import, error, after,
     check_fails, _check_passes, _loop, _slider, _commas, commas_check, _sizes) = outputs

    def data(msgs, kind):
        return [m["content"]["data"] for m in msgs if m["header"]["msg_type"] == kind]

    assert [m["content"]["text"] for m in hello] == ["Hello from Go!\n"]
    assert data(out, "execute_result")[0]["text/plain"] == "42"
    assert "<table>" in data(html, "display_data")[0]["text/html"]
    assert "31.5 °C" in data(celsius, "execute_result")[0]["text/html"]
    updates = data(progress, "update_display_data")
    assert data(progress, "display_data") and "step 20/20" in updates[-1]["text/html"]
    png = base64.b64decode(data(plot, "execute_result")[0]["image/png"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    [err] = error
    assert err["header"]["msg_type"] == "error" and "index out of range" in json.dumps(err["content"])
    assert [m["content"]["text"] for m in after] == ["still here: x * y = 42\n"]
    assert [m["header"]["msg_type"] for m in check_fails] == ["error"]
    assert [m["header"]["msg_type"] for m in commas_check] == ["error"]  # the exercise, still blank


# ATTACK runs as another Unix user against a kernel's files: it reads the connection file, then
# connects to each socket path and sends a ZMTP greeting with a frame header claiming 2^62 bytes,
# then subscribes to iopub for two seconds; it prints what each attempt got.
ATTACK = r"""
import json, socket, sys, zmq
conn_file, paths, iopub = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
got = {}
try:
    got["connection file"] = "read " + open(conn_file).read()[:20]
except OSError as e:
    got["connection file"] = type(e).__name__
greeting = b"\xff" + bytes(8) + b"\x7f\x03\x00NULL" + bytes(48)
for p in paths:
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(p)
        s.sendall(greeting + b"\x02\x40" + bytes(7))
        got[p] = "sent 73 bytes"
    except OSError as e:
        got[p] = type(e).__name__
    s.close()
sub = zmq.Context().socket(zmq.SUB)
sub.setsockopt(zmq.SUBSCRIBE, b"")
sub.connect("ipc://" + iopub)
got["iopub"] = "read %d messages" % sum(1 for _ in range(20) if sub.poll(100) and sub.recv_multipart())
print(json.dumps(got))
"""


def attack_as_nobody(conn_path):
    """Runs ATTACK as the user nobody against the kernel of conn_path; returns what it got."""
    conn = json.loads(conn_path.read_text())
    assert conn["transport"] == "ipc", conn  # the hub asks for ipc (deploy/jupyterhub_config.py)
    ports = [conn[k] for k in ("shell_port", "control_port", "stdin_port", "iopub_port", "hb_port")]
    paths = [f"{conn['ip']}-{p}" for p in ports]
    out = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", sys.executable,
                          "-c", ATTACK, str(conn_path), ",".join(paths), f"{conn['ip']}-{conn['iopub_port']}"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout), paths


async def student_session(hub, name, token):
    """Starts name's kernel, runs the first notebook in it and the shipped model; returns the
    kernel's key (from the connection file in name's home) and the outputs."""
    k = await KernelSocket(hub, name, token).start()
    try:
        conn = hub.homes / name / ".jupyter-run" / f"kernel-{k.id}.json"  # deploy/start-singleuser
        key = json.loads(conn.read_text())["key"]
        # Another Unix user attacks the kernel while it runs a cell: the first student's in make
        # test, every student's in make test-class-hostile.
        if name == STUDENTS[0] or os.environ.get("GPTNOTES_HOSTILE_CLASS") == "all":
            running = asyncio.ensure_future(k.execute(
                'import (\n\t"fmt"\n\t"time"\n)\ntime.Sleep(3 * time.Second)\nfmt.Println("slept")'))
            got, paths = await asyncio.to_thread(attack_as_nobody, conn)
            assert got["connection file"] == "PermissionError", got
            assert all(got[p] == "PermissionError" for p in paths), got
            assert got["iopub"] == "read 0 messages", got
            assert oct(conn.parent.stat().st_mode & 0o777) == "0o700"
            assert {oct(pathlib.Path(p).stat().st_mode & 0o777) for p in paths} == {"0o600"}
            reply, outs = await running  # the kernel went on
            assert reply["status"] == "ok" and "slept" in "".join(m["content"].get("text", "") for m in outs)
        outputs = []
        for code, tags in code_cells(NOTEBOOK):
            reply, outs = await k.execute(code)
            assert reply["status"] == ("error" if "raises-exception" in tags else "ok"), (name, code, reply)
            outputs.append(outs)
        reply, outs = await k.execute(
            'import "github.com/gptnotes/gptnotes/gpt"\n'
            '_, _, which, err := gpt.Pretrained()\nfmt.Println(which, err)')
        model = "".join(m["content"].get("text", "") for m in outs)
        assert reply["status"] == "ok" and "gopher.safetensors" in model and "<nil>" in model, (name, model)
        return key, outputs
    finally:
        await k.close()


def test_three_students_run_the_first_notebook(hub):
    tokens = {name: hub.add_student(name) for name in STUDENTS}
    for name in STUDENTS:
        hub.start_server(name)

    # Each has a server process of their own, with the course copied into their home, and
    # ada's own notebook left as she had it.
    pids = {name: hub.server_pid(name) for name in STUDENTS}
    assert None not in pids.values() and len(set(pids.values())) == 3, pids
    for name in STUDENTS:
        course = hub.homes / name / "gptnotes"
        assert (course / "07-exercises.ipynb").is_file(), sorted(os.listdir(course))
        # Students get the exercises only: no solution notebook reaches their home (issue 48).
        assert not list(course.glob("*-solutions.ipynb")), sorted(os.listdir(course))
    assert (hub.homes / "ada" / "gptnotes" / NOTEBOOK.name).read_text() == '{"ada": "my own work"}'
    assert json.loads((hub.homes / "grace" / "gptnotes" / NOTEBOOK.name).read_text())["cells"]

    # One student's token does not open another's server.
    status, _ = hub.request("GET", f"{hub.url}/user/grace/api/kernels", token=tokens["ada"])
    assert status == 403, status

    async def whole_class():
        return await asyncio.gather(*(student_session(hub, n, tokens[n]) for n in STUDENTS))

    results = asyncio.run(asyncio.wait_for(whole_class(), timeout=240))
    for (_, outputs) in results:
        check_first_notebook(outputs)

    # Three kernels, each with a key of its own.
    assert len({key for key, _ in results}) == 3

    for name in STUDENTS:
        hub.api("DELETE", f"/users/{name}/server")
