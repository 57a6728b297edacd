"""The widget state `make docs` saves in a notebook validates against ipywidgets' own schema
(v2/state.schema.json, kernel/widget/testdata) with docs/execute_notebooks.py's check: a small
notebook of widgets, an Image's bytes among them, executed by nbclient as `make docs` does."""
import copy
import pathlib
import sys

import jsonschema
import nbformat
import pytest
from nbclient import NotebookClient

from kernel_harness import KERNEL_NAME

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "docs"))
from execute_notebooks import WIDGET_STATE, check_widget_state  # noqa: E402

CELLS = [
    'import (\n"fmt"\n"github.com/gptnotes/gptnotes/kernel/widget"\n)',
    's := widget.NewIntSlider("n", 0, 10, 3)\nl := widget.NewLabel("")\n'
    's.OnChange(func(v int) { l.SetValue(fmt.Sprint(v)) })\nwidget.NewHBox(s, l)',
    'widget.NewVBox(widget.NewDropdown("d", []string{"a", "b"}, "b"), widget.NewCheckbox("c", true), widget.NewOutput())',
    'widget.NewImage("png", []byte("\\x89PNG not really"))',
    's.SetValue(7)',
]


def test_saved_state_validates():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    NotebookClient(nb, kernel_name=KERNEL_NAME, timeout=60).execute()
    assert check_widget_state(nb) >= 15  # controls, their layouts and styles, the boxes
    state = nb.metadata["widgets"][WIDGET_STATE]["state"]
    [image] = [m for m in state.values() if m["model_name"] == "ImageModel"]
    assert image["buffers"][0]["path"] == ["value"] and image["buffers"][0]["encoding"] == "base64"
    [slider] = [m for m in state.values() if m["model_name"] == "IntSliderModel"]
    assert slider["state"]["value"] == 7 and slider["model_module_version"] == "2.0.0"
    # The check fails on a state that does not follow the schema, or a 1.0 module.
    bad = copy.deepcopy(nb)
    del next(iter(bad.metadata["widgets"][WIDGET_STATE]["state"].values()))["model_module"]
    with pytest.raises(jsonschema.ValidationError):
        check_widget_state(bad)
    old = copy.deepcopy(nb)
    next(iter(old.metadata["widgets"][WIDGET_STATE]["state"].values()))["model_module"] = "jupyter-js-widgets"
    with pytest.raises(ValueError):
        check_widget_state(old)
