"""The notebooks as a student meets them: Jupyter's classic notebook server, started here on
127.0.0.1 over a temporary copy of notebooks/ with the gptnotes kernelspec, driven in Debian's
headless Chromium by tests/browser/run.mjs (playwright-core): open 01, 03a, 03b, 04 and (with the lesson model) 03c, trust them, Cell →
Run All through the menu, wait for the kernel, then count error outputs and figures; and a
notebook of live widgets (tests/browser/widgets.mjs): move a slider, click a button, see the
Output widget and the kernel's state follow. The screenshots go to test-output/browser/."""
import json
import os
import pathlib
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest

from kernel_harness import BIN, ROOT

BROWSER = ROOT / "tests" / "browser"
OUT = ROOT / "test-output" / "browser"
NOTEBOOKS = ["01-tokenizer.ipynb", "03a-attention-step-by-step-solutions.ipynb", "03b-your-gpt2-solutions.ipynb",
             "04-the-generation-loop-solutions.ipynb"]
# Notebook 3c runs on the lesson model, when it is there (the kernel finds it in the checkout's testdata/).
LESSON_NOTEBOOK = "03c-induction-heads-solutions.ipynb"
if (ROOT / "testdata" / "induction.safetensors").exists():
    NOTEBOOKS.append(LESSON_NOTEBOOK)

missing = [what for what, ok in [
    ("chromium", shutil.which("chromium")),
    ("node", shutil.which("node")),
    ("tests/browser/node_modules (make deps runs npm ci)", (BROWSER / "node_modules" / "playwright-core").is_dir()),
] if not ok]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    """A classic notebook server on a free loopback port; yields (base URL, token)."""
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="gptnotes-browser-"))
    shutil.copytree(ROOT / "notebooks", tmp / "notebooks", ignore=shutil.ignore_patterns("src", "*.py"))
    # The kernelspec under the name the notebooks ask for, in a directory only this server sees.
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
         "--NotebookApp.port_retries=0"],
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


@pytest.mark.skipif(bool(missing), reason="missing: " + ", ".join(missing))
def test_run_all_in_the_browser(server):
    base, token, tmp = server
    OUT.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["node", str(BROWSER / "run.mjs"), base, token, str(OUT), *NOTEBOOKS],
                       capture_output=True, text=True, timeout=600)
    reports = {}
    for line in r.stdout.splitlines():
        if line.startswith("{"):
            rep = json.loads(line)
            reports[rep["notebook"]] = rep
    server_log = (tmp / "server.log").read_text()[-3000:]
    assert set(reports) == set(NOTEBOOKS), f"run.mjs: rc {r.returncode}\n{r.stdout}\n{r.stderr}\n{server_log}"
    with open(OUT / "report.json", "w") as f:
        json.dump(reports, f, indent=1)
    # Every code cell ran: a Run All that went nowhere (clicked before the page had its kernel) shows
    # no errors and no figures, and must not pass as a quiet notebook.
    for nb, rep in reports.items():
        assert rep["ran"] == rep["cells"], f"{nb}: {rep['ran']} of {rep['cells']} code cells ran; kernel events {rep['kernelEvents']}\n{server_log}"

    tok = reports["01-tokenizer.ipynb"]
    assert tok["errors"] == [], tok["errors"]
    assert tok["images"] >= 1, tok  # the merge counts figure

    attn = reports["03a-attention-step-by-step-solutions.ipynb"]
    assert attn["errors"] == [], attn["errors"]
    # Every head's patterns, the one head, the ablation map; the Stepper's diagram and heat map
    # are SVG in HTML.
    assert attn["images"] >= 4, attn
    assert attn["shots"] and all(pathlib.Path(s).stat().st_size > 10_000 for s in attn["shots"]), attn

    own = reports["03b-your-gpt2-solutions.ipynb"]
    assert own["errors"] == [], own["errors"]
    # Its last cell: the student's forward generating greedily, beside the library's generator.
    assert "12 of 12 tokens the same" in own["last"], own["last"]
    assert own["shots"] and all(pathlib.Path(s).stat().st_size > 10_000 for s in own["shots"]), own

    loop = reports["04-the-generation-loop-solutions.ipynb"]
    assert loop["errors"] == [], loop["errors"]
    # Two PNG figures (positions vs time, the cache budget) and the SVG frames of two sliders.
    assert loop["images"] >= 4, loop
    if LESSON_NOTEBOOK in reports:
        lesson = reports[LESSON_NOTEBOOK]
        assert lesson["errors"] == [], lesson["errors"]
        # The losses twice, both layers' patterns, the lesson model's and the shipped model's scores.
        assert lesson["images"] >= 6, lesson
    for nb, rep in reports.items():
        shots = [rep["screenshot"]] + ([] if nb.startswith("03b") else [rep["figure"]])  # 3b draws no figure
        for shot in shots:
            assert pathlib.Path(shot).stat().st_size > 10_000, shot
    assert r.returncode == 0, r.stderr


# A slider and a button bound to a computation, through Interact: the notebook of the widget test.
WIDGET_CELLS = [
    'import (\n\t"fmt"\n\n\t"github.com/gptnotes/gptnotes/kernel/widget"\n)',
    'n := widget.NewIntSlider("n", 0, 10, 3)\n'
    'step := widget.NewButton("Step")\n'
    'steps := 0\n'
    'step.OnClick(func() { steps++ })\n'
    'widget.Interact(func(v []any) {\n'
    '\tk := v[0].(int)\n'
    '\tfmt.Printf("n² = %d, steps = %d\\n", k*k, steps)\n'
    '}, n, step)',
]


@pytest.mark.skipif(bool(missing), reason="missing: " + ", ".join(missing))
def test_widgets_in_the_browser(server):
    base, token, tmp = server
    OUT.mkdir(parents=True, exist_ok=True)
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": c}
                    for c in WIDGET_CELLS],
          "metadata": {"kernelspec": {"name": "gptnotes", "display_name": "Go (gptnotes)", "language": "go"}},
          "nbformat": 4, "nbformat_minor": 5}
    (tmp / "notebooks" / "widgets-test.ipynb").write_text(json.dumps(nb))
    r = subprocess.run(["node", str(BROWSER / "widgets.mjs"), base, token, str(OUT), "widgets-test.ipynb"],
                       capture_output=True, text=True, timeout=300)
    lines = [l for l in r.stdout.splitlines() if l.startswith("{")]
    assert r.returncode == 0 and lines, f"widgets.mjs: rc {r.returncode}\n{r.stdout}\n{r.stderr}"
    rep = json.loads(lines[-1])
    assert "n² = 9, steps = 0" in rep["initial"], rep
    assert "n² = 25, steps = 0" in rep["afterSlider"], rep
    assert "n² = 25, steps = 1" in rep["afterClick"], rep
    assert rep["kernelSteps"] == "1 5", rep
    assert pathlib.Path(rep["screenshot"]).stat().st_size > 5_000


EXPLORER_CELLS = [
    'import (\n\t"fmt"\n\n\t"github.com/gptnotes/gptnotes/gpt"\n\t"github.com/gptnotes/gptnotes/live"\n)',
    'model, tok, about, err := gpt.Pretrained()\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(about)',
    'live.Sampling(model, tok, "// The")',
    'live.Stepper(model, tok, "func main() {")',
]


@pytest.mark.skipif(bool(missing), reason="missing: " + ", ".join(missing))
def test_live_explorers_in_the_browser(server):
    """The sampling explorer redraws when the temperature moves; the stepper adds one row per Step."""
    base, token, tmp = server
    OUT.mkdir(parents=True, exist_ok=True)
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": c}
                    for c in EXPLORER_CELLS],
          "metadata": {"kernelspec": {"name": "gptnotes", "display_name": "Go (gptnotes)", "language": "go"}},
          "nbformat": 4, "nbformat_minor": 5}
    (tmp / "notebooks" / "explorers-test.ipynb").write_text(json.dumps(nb))
    r = subprocess.run(["node", str(BROWSER / "explorers.mjs"), base, token, str(OUT), "explorers-test.ipynb"],
                       capture_output=True, text=True, timeout=300)
    lines = [l for l in r.stdout.splitlines() if l.startswith("{")]
    assert r.returncode == 0 and lines, f"explorers.mjs: rc {r.returncode}\n{r.stdout}\n{r.stderr}"
    rep = json.loads(lines[-1])
    assert rep["rows"][1] == rep["rows"][0] + 1 and rep["rows"][2] == rep["rows"][0] + 2, rep
