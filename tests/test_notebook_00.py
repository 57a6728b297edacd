"""notebooks/00-go-in-a-notebook.ipynb, executed end to end with nbclient (as Jupyter's
"Run All" does), then checked output by output."""
import base64
import pathlib

import nbformat
from nbclient import NotebookClient

from kernel_harness import KERNEL_NAME, ROOT

NOTEBOOK = ROOT / "notebooks" / "00-go-in-a-notebook.ipynb"


def run_notebook():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, kernel_name=KERNEL_NAME, timeout=120,
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    return [c for c in nb.cells if c.cell_type == "code"]


def test_go_in_a_notebook():
    cells = run_notebook()
    hello, out, html, celsius, progress, plot, error, after = cells

    assert hello.outputs[0].output_type == "stream" and hello.outputs[0].text == "Hello from Go!\n"

    assert out.outputs[0].output_type == "execute_result"
    assert out.outputs[0].data["text/plain"] == "42"

    assert html.outputs[0].output_type == "display_data"
    assert "<table>" in html.outputs[0].data["text/html"]

    assert celsius.outputs[0].output_type == "execute_result"
    assert "31.5 °C" in celsius.outputs[0].data["text/html"]

    # Twenty-one updates of one display: nbclient keeps one output, showing the last.
    [bar] = progress.outputs
    assert bar.output_type == "display_data"
    assert "step 20/20" in bar.data["text/html"]

    [fig] = plot.outputs
    png = base64.b64decode(fig.data["image/png"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000

    [err] = error.outputs
    assert err.output_type == "error"
    assert "index out of range" in err.evalue + "".join(err.traceback)

    assert after.outputs[0].text == "still here: x * y = 42\n"
