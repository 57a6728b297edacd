"""Executes every notebook on the shipped model and writes the executed copies, outputs
included, to docs/notebooks/, so the repository shows every figure without running anything
(GitHub renders a notebook's outputs). `make docs` runs it after building bin/gptnotes:

    GPTNOTES_BIN=bin/gptnotes /usr/bin/python3 docs/execute_notebooks.py [NAME.ipynb …]

An exercise notebook is executed in its solutions version (NAME-solutions.ipynb), whose
checks pass; the blank version is not copied. GPT2_WEIGHTS is set to a path that does not
exist, so gpt.Pretrained falls back to the shipped model even on a machine with GPT-2's
weights, and every copy says so in its first output (notebook 3c runs on the lesson model,
testdata/induction.safetensors, and says that instead). The checkout's own path in an output
(the shipped model's, in that first output) is written relative to the repository, so the
copies do not depend on where it was cloned.

The widget state nbclient saves in each copy (the kernel speaks widget protocol 2.1 to it, as no
front end has said otherwise) is checked against ipywidgets' own schema of saved state,
v2/state.schema.json of npm @jupyter-widgets/schema, so nbviewer and ipywidgets 8's
html-manager can render the widgets without a kernel.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import jsonschema
import nbformat
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
OUT = ROOT / "docs" / "notebooks"
BIN = os.environ.get("GPTNOTES_BIN") or str(ROOT / "bin" / "gptnotes")
KERNEL = "gptnotes-docs"
STATE_SCHEMA = ROOT / "kernel" / "widget" / "testdata" / "jupyter-widgets-schema-0.5.6" / "v2" / "state.schema.json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def chosen(names):
    """The notebooks to execute: those named, or every one, solutions in place of blanks."""
    if names:
        return [NOTEBOOKS / n for n in names]
    paths = sorted(NOTEBOOKS.glob("*.ipynb"))
    stems = {p.stem for p in paths}
    return [p for p in paths if p.stem + "-solutions" not in stems]


def relative_paths(nb):
    """Writes ROOT/… as … in every text output and error of nb."""
    prefix = str(ROOT) + "/"
    for c in nb.cells:
        for o in c.get("outputs", []):
            if "text" in o:
                o["text"] = o["text"].replace(prefix, "")
            if "evalue" in o:
                o["evalue"] = o["evalue"].replace(prefix, "")
            if "traceback" in o:
                o["traceback"] = [line.replace(prefix, "") for line in o["traceback"]]
            for mime, value in o.get("data", {}).items():
                if isinstance(value, str) and mime.startswith("text/"):
                    o["data"][mime] = value.replace(prefix, "")


def check_widget_state(nb):
    """Validates nb's saved widget state against v2/state.schema.json, and that every model is
    one of ipywidgets 8's modules; returns the number of models (0: no state saved)."""
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE)
    if state is None:
        return 0
    jsonschema.validate(state, json.loads(STATE_SCHEMA.read_text()))
    for model_id, model in state["state"].items():
        if not model["model_module"].startswith("@jupyter-widgets/"):
            raise ValueError(f"widget {model_id}: module {model['model_module']!r} is not ipywidgets 8's")
    return len(state["state"])


def main():
    prefix = tempfile.mkdtemp(prefix="gptnotes-docs-")
    subprocess.run([BIN, "install", "--prefix", prefix, "--name", KERNEL], check=True, stdout=subprocess.DEVNULL)
    os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
    os.environ["GPT2_WEIGHTS"] = os.path.join(prefix, "no-gpt2-here.safetensors")
    OUT.mkdir(parents=True, exist_ok=True)
    failed = []
    for path in chosen(sys.argv[1:]):
        nb = nbformat.read(path, as_version=4)
        start = time.monotonic()
        NotebookClient(nb, kernel_name=KERNEL, timeout=600, allow_errors=True,
                       resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
        # The copy asks for the kernelspec `gptnotes install` writes, like the sources.
        nb.metadata["kernelspec"]["name"] = "gptnotes"
        errors = [c for c in nb.cells if c.cell_type == "code"
                  and "raises-exception" not in c.metadata.get("tags", [])
                  and any(o.output_type == "error" for o in c.outputs)]
        relative_paths(nb)
        models = check_widget_state(nb)
        nbformat.write(nb, OUT / path.name)
        print(f"{path.name}: {time.monotonic() - start:.0f} s, {len(errors)} unexpected errors, "
              f"{models} widget models saved", flush=True)
        if errors:
            failed.append(path.name)
    if failed:
        sys.exit("errors in " + ", ".join(failed))


if __name__ == "__main__":
    main()
