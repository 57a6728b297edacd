"""notebooks/00-go-in-a-notebook.ipynb and its solutions, executed end to end with nbclient (as
Jupyter's "Run All" does), then checked output by output."""
import base64
import pathlib

import nbformat
from nbclient import NotebookClient

from kernel_harness import KERNEL_NAME, ROOT

NOTEBOOK = ROOT / "notebooks" / "00-go-in-a-notebook.ipynb"
SOLUTIONS = ROOT / "notebooks" / "00-go-in-a-notebook-solutions.ipynb"


def run_notebook(path=NOTEBOOK):
    """The code cells of the notebook at path, executed; only cells tagged raises-exception may
    fail (nbclient stops at any other error)."""
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, kernel_name=KERNEL_NAME, timeout=120,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return [c for c in nb.cells if c.cell_type == "code"]


def test_go_in_a_notebook():
    """The student's notebook: every cell runs, the exercise's check fails saying what differs,
    and the cell that uses the blank function says so instead of failing."""
    cells = run_notebook()
    (hello, out, html, celsius, progress, plot, import_gpt, help_, error, after,
     check_fails, check_passes, loop, slider, _commas, commas_check, sizes) = cells

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

    # ?gpt.Policy, below the cell that imports gpt, answers in the pager (a payload of the
    # reply), not in the outputs: no error.
    assert help_.outputs == []
    assert import_gpt.outputs[0].output_type == "execute_result"

    # display.Check: the error of the failed call, in one line; nothing when there is none.
    [err] = check_fails.outputs
    assert err.output_type == "error"
    assert "gpt: " in err.evalue and "no-such-model.safetensors" in err.evalue, err.evalue
    assert "shipped with gptnotes" in check_passes.outputs[0].text or "OpenAI's GPT-2 (" in check_passes.outputs[0].text

    assert "stopped itself" in loop.outputs[0].text

    # The widget: its text fallback, and what the function printed on the first call.
    shown = [o for o in slider.outputs if o.output_type in ("execute_result", "display_data")]
    assert shown and 'IntSlider "blocks" = 12' in str(shown[0].data.get("text/plain")), slider.outputs

    [err] = commas_check.outputs
    assert err.output_type == "error" and err.evalue.startswith("not yet: commas(0) should be \"0\""), err.evalue
    assert sizes.outputs[0].text.startswith("commas is still blank"), sizes.outputs


def test_go_in_a_notebook_solutions():
    cells = run_notebook(SOLUTIONS)
    *_, commas_check, sizes = cells
    assert commas_check.outputs[0].text.startswith("right: "), commas_check.outputs
    assert "GPT-2 small    124,439,808 parameters" in sizes.outputs[0].text, sizes.outputs
    assert "GPT-2 xl     1,557,611,200 parameters" in sizes.outputs[0].text, sizes.outputs
