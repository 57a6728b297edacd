"""A class on a real JupyterHub (Debian's 3.0 and its proxy, deploy/jupyterhub_config.py in test
mode, on loopback): three students made through the hub's REST API with an admin token, their
servers started, a gptnotes kernel started in each through the single-user server's REST and
websocket API, as the notebook page does, and the first notebook's cells run in each.

Every student here is the test's own Unix user (SimpleLocalProcessSpawner): the test shows that
each has their own server process, home, kernel and kernel key, and that one student's token
does not open another's server; it does not show isolation, which comes from the Docker and
Kubernetes spawners (docs/security.md)."""
import asyncio
import base64
import json
import os
import pathlib
import shutil
import tempfile

import pytest

from hub_harness import ROOT, Hub, KernelSocket, code_cells, marked_pids
from kernel_harness import BIN

STUDENTS = ["ada", "grace", "ken"]
NOTEBOOK = ROOT / "notebooks" / "00-go-in-a-notebook.ipynb"
STOP_LIMIT = 30  # seconds to stop the hub and every process it started


@pytest.fixture(scope="module")
def hub():
    work = tempfile.mkdtemp(prefix="gptnotes-hub-")
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


async def student_session(hub, name, token):
    """Starts name's kernel, runs the first notebook in it and the shipped model; returns the
    kernel's key (from the connection file in name's home) and the outputs."""
    k = await KernelSocket(hub, name, token).start()
    try:
        conn = hub.homes / name / ".local" / "share" / "jupyter" / "runtime" / f"kernel-{k.id}.json"
        key = json.loads(conn.read_text())["key"]
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
