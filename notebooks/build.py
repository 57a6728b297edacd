"""Builds the notebooks from their readable sources: notebooks/src/NN-name.md → notebooks/NN-name.ipynb.

A source is Markdown. Each fenced block opened with ```go becomes a code cell; the text
between two blocks becomes one Markdown cell. Words after ```go are the cell's tags, e.g.
```go raises-exception for a cell that is meant to fail.

An exercise source marks lines that differ between the student's notebook and its solutions:

    //// blank
    	// your code here
    //// solution
    	return a + b
    //// end

It builds two notebooks: NN-name.ipynb with the blank lines and NN-name-solutions.ipynb with
the solution lines. In the solutions, each solution region of a code cell sits between
`// BEGIN SOLUTION` and `// END SOLUTION` comments, nbgrader's delimiters (nbgrader_config.py
beside this script tells nbgrader how to blank them in Go).

A check cell is opened with ```go check=ID (and points=N, 1 if not given). Both notebooks
carry nbgrader's cell metadata (schema version 3): the check cell is a locked grade cell with
grade_id ID and its points; the code cell with a blank/solution region before it is a solution
cell with grade_id ID-answer. In the student's notebook a check cell is also tagged
raises-exception, since it fails until the answer is right. `gptnotes grade` matches a
submission's check cells with the original's by grade_id.

Cell ids are derived from the notebook's name and the cell's position, so building twice writes
the same bytes, and tests/test_notebooks.py checks that the committed notebooks are what this
script writes.

    /usr/bin/python3 notebooks/build.py          # rebuild every notebook
    /usr/bin/python3 notebooks/build.py --check  # exit 1 if a notebook is out of date
"""
import hashlib
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent

# The kernelspec `gptnotes install` writes (cmd/gptnotes/install.go).
METADATA = {
    "kernelspec": {"display_name": "Go (gptnotes)", "language": "go", "name": "gptnotes"},
    "language_info": {"codemirror_mode": "go", "file_extension": ".go", "mimetype": "text/x-go",
                      "name": "go", "pygments_lexer": "go"},
}


def lines(text):
    """Jupyter's list-of-lines form of a cell's source."""
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


# nbgrader's cell metadata, schema version 3 (nbgrader/nbgraderformat/v3.json).
NBGRADER_SCHEMA = 3
BEGIN_SOLUTION, END_SOLUTION = "// BEGIN SOLUTION", "// END SOLUTION"


def cells(name, source, keep=None):
    """The cells of a source. keep is "blank" or "solution" for an exercise source: the lines of
    its marked regions to keep; None for a source without any."""
    out, text, code, tags = [], [], None, []
    part, begun, indent = None, False, ""  # the marked region being read
    has_region = False  # the code cell being read has a marked region

    def cell_id():
        return hashlib.sha1(f"{name}:{len(out)}".encode()).hexdigest()[:8]

    def flush_markdown():
        md = "\n".join(text).strip("\n")
        text.clear()
        if md:
            out.append({"cell_type": "markdown", "id": cell_id(), "metadata": {}, "source": lines(md)})

    for n, line in enumerate(source.split("\n"), 1):
        if line in ("//// blank", "//// solution"):
            part, begun = line[5:], False
            has_region = has_region or code is not None
            continue
        if line == "//// end":
            if code is not None and keep == "solution" and part == "solution" and begun:
                code.append(indent + END_SOLUTION)
            part = None
            continue
        if part is not None and part != keep:
            continue
        if code is not None and part == "solution" and not begun:
            # nbgrader's delimiters, indented like the region's first line
            indent, begun = line[:len(line) - len(line.lstrip())], True
            code.append(indent + BEGIN_SOLUTION)
        if code is None and line.startswith("```go"):
            flush_markdown()
            code, tags, has_region = [], line[len("```go"):].split(), False
        elif code is not None and line == "```":
            out.append(code_cell(name, cell_id(), code, tags, has_region, keep))
            code = None
        elif code is not None:
            code.append(line)
        else:
            text.append(line)
    if code is not None:
        sys.exit(f"{name}: a ```go block is not closed")
    if part is not None:
        sys.exit(f"{name}: a //// {part} region is not closed with //// end")
    flush_markdown()
    name_answers(name, out)
    return out


def code_cell(name, cid, code, words, has_region, keep):
    """A code cell; words are what follows ```go: tags, check=ID and points=N."""
    tags, meta, grade = [], {}, {}
    for w in words:
        key, eq, value = w.partition("=")
        if eq and key in ("check", "points"):
            grade[key] = value
        else:
            tags.append(w)
    if "points" in grade and "check" not in grade:
        sys.exit(f"{name}: points= without check= in ```go {' '.join(words)}")
    if "check" in grade:
        if not re.fullmatch(r"[A-Za-z0-9_-]+", grade["check"]):
            sys.exit(f"{name}: check={grade['check']}: an nbgrader grade_id is letters, digits, _ and -")
        meta["nbgrader"] = {"grade": True, "grade_id": grade["check"], "locked": True,
                            "points": int(grade.get("points", 1)), "schema_version": NBGRADER_SCHEMA,
                            "solution": False, "task": False}
        if keep == "blank":
            tags.append("raises-exception")  # it fails until the answer above it is right
    elif has_region:
        # a solution cell; its grade_id is set by name_answers from the check after it
        meta["nbgrader"] = {"grade": False, "grade_id": None, "locked": False,
                            "schema_version": NBGRADER_SCHEMA, "solution": True, "task": False}
    if tags:
        meta["tags"] = tags
    return {"cell_type": "code", "execution_count": None, "id": cid, "metadata": meta,
            "outputs": [], "source": lines("\n".join(code))}


def name_answers(name, out):
    """Gives each solution cell the grade_id of the check cell after it, plus "-answer"."""
    answer = None
    for c in out:
        nb = c["metadata"].get("nbgrader")
        if nb is None:
            continue
        if nb["solution"]:
            if answer is not None:
                sys.exit(f"{name}: two answer cells without a check cell between them")
            answer = nb
        elif answer is not None:
            answer["grade_id"] = nb["grade_id"] + "-answer"
            answer = None
        else:
            sys.exit(f"{name}: check cell {nb['grade_id']} has no answer cell before it")
    if answer is not None:
        sys.exit(f"{name}: the last answer cell has no check cell after it")


def build(name, source, keep=None):
    nb = {"cells": cells(name, source, keep), "metadata": METADATA, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"



def notebooks():
    """Every notebook the sources make: {file name: JSON text}."""
    out = {}
    for src in sorted((HERE / "src").glob("*.md")):
        source = src.read_text()
        if "//// blank" in source:
            out[src.stem + ".ipynb"] = build(src.stem, source, "blank")
            out[src.stem + "-solutions.ipynb"] = build(src.stem + "-solutions", source, "solution")
        else:
            out[src.stem + ".ipynb"] = build(src.stem, source)
    return out


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for name, text in notebooks().items():
        target = HERE / name
        if check:
            if not target.exists() or target.read_text() != text:
                stale.append(target.name)
        else:
            target.write_text(text)
    if stale:
        sys.exit("out of date (run /usr/bin/python3 notebooks/build.py): " + ", ".join(stale))


if __name__ == "__main__":
    main()
