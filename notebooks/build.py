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
the solution lines. Cell ids are derived from the
notebook's name and the cell's position, so building twice writes the same bytes, and
tests/test_notebooks.py checks that the committed notebooks are what this script writes.

    /usr/bin/python3 notebooks/build.py          # rebuild every notebook
    /usr/bin/python3 notebooks/build.py --check  # exit 1 if a notebook is out of date
"""
import hashlib
import json
import pathlib
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


def cells(name, source):
    out, text, code, tags = [], [], None, []

    def cell_id():
        return hashlib.sha1(f"{name}:{len(out)}".encode()).hexdigest()[:8]

    def flush_markdown():
        md = "\n".join(text).strip("\n")
        text.clear()
        if md:
            out.append({"cell_type": "markdown", "id": cell_id(), "metadata": {}, "source": lines(md)})

    for line in source.split("\n"):
        if code is None and line.startswith("```go"):
            flush_markdown()
            code, tags = [], line[len("```go"):].split()
        elif code is not None and line == "```":
            meta = {"tags": tags} if tags else {}
            out.append({"cell_type": "code", "execution_count": None, "id": cell_id(), "metadata": meta,
                        "outputs": [], "source": lines("\n".join(code))})
            code = None
        elif code is not None:
            code.append(line)
        else:
            text.append(line)
    if code is not None:
        sys.exit(f"{name}: a ```go block is not closed")
    flush_markdown()
    return out


def variant(source, keep):
    """The source with only the "blank" or only the "solution" lines of the marked regions."""
    out, part = [], None
    for line in source.split("\n"):
        if line in ("//// blank", "//// solution"):
            part = line[5:]
        elif line == "//// end":
            part = None
        elif part is None or part == keep:
            out.append(line)
    return "\n".join(out)


def build(name, source):
    nb = {"cells": cells(name, source), "metadata": METADATA, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def notebooks():
    """Every notebook the sources make: {file name: JSON text}."""
    out = {}
    for src in sorted((HERE / "src").glob("*.md")):
        source = src.read_text()
        if "//// blank" in source:
            out[src.stem + ".ipynb"] = build(src.stem, variant(source, "blank"))
            out[src.stem + "-solutions.ipynb"] = build(src.stem + "-solutions", variant(source, "solution"))
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
