"""The exercise notebooks against nbgrader's conventions, without nbgrader (it cannot be
installed here): the cell metadata against nbgrader's documented format, schema version 3
(nbgrader/nbgraderformat/v3.json and the rules of its v3 validator: a grade_id on every grade,
solution or locked cell, points on every grade cell, ids unique), the configuration
notebooks/nbgrader_config.py, and the student's version nbgrader would make from the solutions
notebook with it (each solution region replaced by the Go stub), run on the kernel."""
import json
import re
import types

import nbformat
import pytest
from nbclient import NotebookClient

from kernel_harness import KERNEL_NAME, ROOT

NOTEBOOKS = ROOT / "notebooks"
EXERCISES = ["07-exercises.ipynb", "07-exercises-solutions.ipynb"]

# nbgrader's cell metadata, schema 3: each key, its JSON type; the required ones.
FIELDS = {"schema_version": int, "grade": bool, "locked": bool, "solution": bool, "task": bool,
          "grade_id": str, "points": (int, float), "checksum": str, "cell_type": str}
REQUIRED = {"schema_version", "grade", "locked", "solution"}
GRADE_ID = re.compile(r"^[a-zA-Z0-9_\-]*$")


def load(name):
    return json.loads((NOTEBOOKS / name).read_text())


def graded(nb):
    return [c for c in nb["cells"] if "nbgrader" in c["metadata"]]


def config():
    """The values notebooks/nbgrader_config.py sets, read as nbgrader's loader would run it."""
    class Section(types.SimpleNamespace):
        pass

    class Config:
        def __getattr__(self, name):
            section = Section()
            setattr(self, name, section)
            return section

    c = Config()
    exec((NOTEBOOKS / "nbgrader_config.py").read_text(), {"get_config": lambda: c})
    return c


@pytest.mark.parametrize("name", EXERCISES)
def test_cell_metadata_follows_nbgrader_schema_3(name):
    nb = load(name)
    cells = graded(nb)
    assert len(cells) == 26, len(cells)  # 13 answers, 13 checks
    ids = []
    for c in cells:
        meta = c["metadata"]["nbgrader"]
        assert REQUIRED <= meta.keys() <= FIELDS.keys(), meta
        for key, value in meta.items():
            assert isinstance(value, FIELDS[key]) and not (FIELDS[key] is int and isinstance(value, bool)), (key, value)
        assert meta["schema_version"] == 3
        if meta["grade"] or meta["solution"] or meta["locked"]:
            assert meta.get("grade_id") and GRADE_ID.match(meta["grade_id"]), meta
            ids.append(meta["grade_id"])
        assert ("points" in meta) == meta["grade"], meta  # points only, and always, on grade cells
        if meta["grade"]:
            assert meta["points"] >= 0
        assert c["cell_type"] == "code" and not meta["task"]  # markdown rules do not apply
    assert len(ids) == len(set(ids)), "duplicate grade ids"


@pytest.mark.parametrize("name", EXERCISES)
def test_each_check_is_a_locked_grade_cell_after_its_answer(name):
    cells = graded(load(name))
    for answer, check in zip(cells[::2], cells[1::2]):
        a, k = answer["metadata"]["nbgrader"], check["metadata"]["nbgrader"]
        assert a["solution"] and not a["grade"] and not a["locked"], a
        assert k["grade"] and k["locked"] and not k["solution"] and k["points"] == 1, k
        assert a["grade_id"] == k["grade_id"] + "-answer"
        assert "panic(\"not yet: \" + problem)" in "".join(check["source"]) or \
            "panic(fmt.Sprintf(\"not yet: " in "".join(check["source"]), k["grade_id"]
        tags = check["metadata"].get("tags", [])
        assert ("raises-exception" in tags) == (name == "07-exercises.ipynb"), tags


def test_solution_regions_are_delimited_for_nbgrader():
    solutions, blank = load("07-exercises-solutions.ipynb"), load("07-exercises.ipynb")
    for c in graded(solutions):
        src = "".join(c["source"])
        if c["metadata"]["nbgrader"]["solution"]:
            assert src.count("// BEGIN SOLUTION") == 1 and src.count("// END SOLUTION") == 1, src
            assert src.index("// BEGIN SOLUTION") < src.index("// END SOLUTION")
    assert "SOLUTION" not in json.dumps(blank)


def test_config_blanks_go():
    c = config()
    assert c.ClearSolutions.code_stub == {"go": 'panic("not implemented")'}
    assert c.ClearSolutions.begin_solution_delimeter == "BEGIN SOLUTION"
    assert c.ClearSolutions.end_solution_delimeter == "END SOLUTION"
    assert load("07-exercises-solutions.ipynb")["metadata"]["kernelspec"]["language"] == "go"


def clear_solutions(source, stub, begin, end):
    """A cell's source with each region from a line containing begin to a line containing end
    replaced by the stub's lines, indented like the begin line, as nbgrader documents it."""
    out, inside = [], False
    for line in source.split("\n"):
        if begin in line:
            assert not inside, "nested region"
            inside = True
            indent = line[:len(line) - len(line.lstrip())]
            out += [indent + s for s in stub.split("\n")]
        elif end in line:
            inside = False
        elif not inside:
            out.append(line)
    assert not inside, "region not closed"
    return "\n".join(out)


def test_nbgraders_student_version_runs_and_fails_every_check():
    c = config().ClearSolutions
    nb = nbformat.read(NOTEBOOKS / "07-exercises-solutions.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = clear_solutions(cell.source, c.code_stub["go"], c.begin_solution_delimeter,
                                          c.end_solution_delimeter)
    NotebookClient(nb, kernel_name=KERNEL_NAME, timeout=120, allow_errors=True,
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        meta = cell.metadata.get("nbgrader", {})
        errors = [o for o in cell.outputs if o.output_type == "error"]
        if meta.get("grade"):
            assert errors, f"{meta['grade_id']} passes in nbgrader's student version"
            assert errors[0].evalue.startswith(("not yet: ", "not implemented")), errors[0].evalue
        elif meta.get("solution"):
            # a function with the stub compiles; only a top-level answer panics at once
            assert not errors or errors[0].evalue == "not implemented", (cell.source, errors[0].evalue)
        else:
            assert not errors, (cell.source, errors[0].evalue)
