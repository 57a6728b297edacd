"""ipywidgets 8's own front end against a live gptnotes kernel, in Debian's headless Chromium.

tests/widgets8/ bundles (esbuild) a test page from the npm packages JupyterLab 4, Notebook 7 and
VS Code load their widgets from: @jupyter-widgets/html-manager, controls, base and output, and
@jupyterlab/services as the kernel client (versions pinned in its package-lock.json; `make deps`
installs them). A classic notebook server (Debian's) on loopback serves the page as extra static
files and starts the kernel; tests/widgets8/drive.mjs runs cells in it and uses every control as
a student would, both ways, then reloads the page. Protocol 2.1 end to end: no widget view here is
written by this project.

The short form (make test) drives a few controls and Interact; GPTNOTES_WIDGETS8=long (make
test-widgets8) drives every control type of docs/widgets.md, the four explorers on the shipped
model, and 50 quick slider moves. Screenshots go to test-output/widgets8/.
"""
import json
import os
import pathlib
import secrets
import shutil
import subprocess
import tempfile
import time
import urllib.request

import pytest

from kernel_harness import BIN, ROOT

PAGE = ROOT / "tests" / "widgets8"
DIST = PAGE / "dist"
OUT = ROOT / "test-output" / "widgets8"
MODE = os.environ.get("GPTNOTES_WIDGETS8", "short")
# make record-widgets8: where drive.mjs writes each control check's messages (kernel/widget/testdata/ipywidgets8).
RECORD = os.environ.get("GPTNOTES_WIDGETS8_RECORD", "")

missing = [what for what, ok in [
    ("chromium", shutil.which("chromium")),
    ("node", shutil.which("node")),
    ("tests/widgets8/node_modules (make deps runs npm ci)", (PAGE / "node_modules" / "esbuild").is_dir()),
] if not ok]

# The one console error the page may print: @jupyterlab/services 7 first offers the kernel
# websocket subprotocol v1.kernel.websocket.jupyter.org, which Debian's notebook 6.4 does not
# answer; Chromium refuses that handshake and services connects again without it.
SUBPROTOCOL_RETRY = "Sent non-empty 'Sec-WebSocket-Protocol' header but no response was received"


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build_page():
    """Bundles the page with esbuild unless dist/ is newer than every source file."""
    sources = [p for p in (PAGE / "src").iterdir()] + [PAGE / "build.mjs", PAGE / "package-lock.json"]
    built = DIST / "widgets8.js"
    if built.exists() and built.stat().st_mtime >= max(p.stat().st_mtime for p in sources):
        return
    subprocess.run(["node", str(PAGE / "build.mjs")], check=True, timeout=300)


@pytest.fixture(scope="module")
def server():
    """Debian's notebook server on a free loopback port, serving dist/ as static files."""
    build_page()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="gptnotes-widgets8-"))
    (tmp / "notebooks").mkdir()
    subprocess.run([BIN, "install", "--prefix", str(tmp / "prefix"), "--name", "gptnotes"], check=True,
                   stdout=subprocess.DEVNULL)
    env = dict(os.environ,
               JUPYTER_PATH=str(tmp / "prefix" / "share" / "jupyter"),
               JUPYTER_CONFIG_DIR=str(tmp / "config"),
               JUPYTER_DATA_DIR=str(tmp / "data"),
               JUPYTER_RUNTIME_DIR=str(tmp / "runtime"))
    port, token = free_port(), secrets.token_hex(16)
    log = open(tmp / "server.log", "w")
    proc = subprocess.Popen(
        ["/usr/bin/python3", "-m", "notebook", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--NotebookApp.token={token}", "--allow-root", f"--notebook-dir={tmp / 'notebooks'}",
         "--NotebookApp.port_retries=0", f"--NotebookApp.extra_static_paths={json.dumps([str(DIST)])}"],
        env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the notebook server did not start:\n" + (tmp / "server.log").read_text())
                time.sleep(0.3)
        yield base, token, tmp
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


SHORT = ["IntSlider", "Dropdown", "Button", "Text", "Interact"]
LONG = ["IntSlider", "FloatSlider", "Dropdown", "ToggleButtons", "RadioButtons", "Checkbox", "Button",
        "Text", "Textarea", "Play", "DirectionalLink", "Label", "Image", "Output", "Layout", "Interact", "QuickMoves"]


@pytest.mark.skipif(bool(missing), reason="missing: " + ", ".join(missing))
def test_widgets8_in_the_browser(server):
    base, token, tmp = server
    OUT.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["node", str(PAGE / "drive.mjs"), base, token, str(OUT), MODE, *([RECORD] if RECORD else [])],
                       capture_output=True, text=True, timeout=1200)
    lines = [l for l in r.stdout.splitlines() if l.startswith("{")]
    server_log = (tmp / "server.log").read_text()[-3000:]
    assert r.returncode == 0 and lines, f"drive.mjs: rc {r.returncode}\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}\n{server_log}"
    rep = json.loads(lines[-1])
    (OUT / f"report-{MODE}.json").write_text(json.dumps(rep, indent=1))

    assert list(rep["checks"]) == (LONG if MODE == "long" else SHORT), rep["checks"].keys()
    checks = rep["checks"]
    # Both ways: what the Go callback printed after the page moved the control, then after SetValue.
    assert "int is 5, squared 25" in checks["IntSlider"]["page"]
    assert "int is 8, squared 64" in checks["IntSlider"]["kernel"]
    assert "drop is gamma (index 2)" in checks["Dropdown"]["page"]
    assert "drop is beta (index 1)" in checks["Dropdown"]["kernel"]
    assert "pressed 2 times" in checks["Button"]["page"]
    assert 'submitted "hello widgets"' in checks["Text"]["page"]
    assert "4 cubed = 64" in checks["Interact"]["page"] and "5 cubed = 125" in checks["Interact"]["kernel"]
    if MODE == "long":
        assert "float is 0.75" in checks["FloatSlider"]["page"]
        assert "toggle is right" in checks["ToggleButtons"]["page"]
        assert "radio is blue" in checks["RadioButtons"]["page"]
        assert "check is true" in checks["Checkbox"]["page"] and "check is false" in checks["Checkbox"]["kernel"]
        assert "area has 9 bytes" in checks["Textarea"]["page"]
        assert "play is 3" in checks["Play"]["page"] and "slider 1" in checks["Play"]["linked"]
        dl = checks["DirectionalLink"]
        assert "target is 3" in dl["page"] and "target is 9" in dl["kernel"] and "source 4 target 9" in dl["unlinked"], dl
        assert "label after" in checks["Label"]["kernel"]
        assert "a label displayed in it" in checks["Output"]["kernel"]
        quick = checks["QuickMoves"]
        assert "computed 2500 for 50" in quick["page"] and "value 50" in quick["kernel"]
        assert 1 <= quick["callbacks"] <= 50, quick
        ex = rep["explorers"]
        assert ex["Sampling"]["before"] != ex["Sampling"]["after"], ex["Sampling"]
        assert ex["Stepper"]["rowsAfter"] == ex["Stepper"]["rowsBefore"] + 1, ex["Stepper"]
        assert "layer 0, head 1" in ex["Attention"]["after"], ex["Attention"]
        assert ex["Tokens"]["before"] != ex["Tokens"]["after"], ex["Tokens"]
        assert pathlib.Path(rep["screenshots"][0]).stat().st_size > 10_000

    # The reload: every view again, no cell re-run, and a restored slider still reaches Go.
    reload = rep["reload"]
    # One view per check's cell (a control with its Output in a box), one per explorer.
    assert reload["views"] == len(checks) + (4 if MODE == "long" else 0), reload
    assert reload["after"] == reload["views"], reload
    assert reload["countAfter"] == reload["countBefore"] + 1, reload
    assert "int is 7, squared 49" in reload["works"], reload

    errors = [e for e in rep["errors"] if SUBPROTOCOL_RETRY not in e]
    assert errors == [], errors


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.mark.skipif(bool(missing), reason="missing: " + ", ".join(missing))
def test_saved_state_renders_without_a_kernel(server):
    """Every `make docs` notebook that saved widget state (docs/notebooks/) shows each of its
    widget views, drawn by html-manager's embed code from the state alone: no kernel runs."""
    base, token, tmp = server
    OUT.mkdir(parents=True, exist_ok=True)
    want = {}
    for path in sorted((ROOT / "docs" / "notebooks").glob("*.ipynb")):
        nb = json.loads(path.read_text())
        if WIDGET_STATE in nb["metadata"].get("widgets", {}):
            want[path.name] = sum(WIDGET_VIEW in o.get("data", {}) for c in nb["cells"] for o in c.get("outputs", []))
    assert len(want) >= 4, want  # 00, 01, 04 and 06 have live widgets
    r = subprocess.run(["node", str(PAGE / "embed.mjs"), base, token, str(OUT),
                        *[str(ROOT / "docs" / "notebooks" / n) for n in want]],
                       capture_output=True, text=True, timeout=600)
    lines = [l for l in r.stdout.splitlines() if l.startswith("{")]
    assert r.returncode == 0 and lines, f"embed.mjs: rc {r.returncode}\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}"
    rep = json.loads(lines[-1])
    (OUT / "report-embed.json").write_text(json.dumps(rep, indent=1))
    for name, views in want.items():
        got = rep["notebooks"][name]
        assert views >= 1 and got["tags"] == views and got["views"] == views, (name, views, got)
        assert got["text"].strip() and "Error" not in got["text"], (name, got["text"])
    assert rep["errors"] == [], rep["errors"]
    kernels = json.load(urllib.request.urlopen(f"{base}/api/kernels?token={token}", timeout=10))
    assert kernels == [], kernels
