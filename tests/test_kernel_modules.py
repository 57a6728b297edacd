"""Go modules imported by a cell, end to end on a real kernel through jupyter_client: the module
comes from a file:// GOPROXY this test writes (no network, no checksum database), lands in a
temporary GOMODCACHE, and is interpreted from source; completion and inspection see it; the
version used is recorded in gptnotes.sum beside the notebook; a module that does not exist
is one clear error and the session goes on."""
import json
import os
import pathlib
import zipfile

import pytest

from kernel_harness import KERNELSPEC_DIR, Kernel

MOD = "example.com/hello"
VERSION = "v1.0.0"
GO_MOD = f"module {MOD}\n\ngo 1.21\n"
HELLO_GO = '''// Package hello greets.
package hello

// Greet says hello to who.
func Greet(who string) string { return "hello, " + who }
'''


def write_proxy(root: pathlib.Path):
    """The module as a proxy serves it: @v/list, .info, .mod and the zip (files under
    module@version/)."""
    v = root / MOD / "@v"
    v.mkdir(parents=True)
    (v / "list").write_text(VERSION + "\n")
    (v / f"{VERSION}.info").write_text('{"Version":"%s","Time":"2024-01-01T00:00:00Z"}' % VERSION)
    (v / f"{VERSION}.mod").write_text(GO_MOD)
    with zipfile.ZipFile(v / f"{VERSION}.zip", "w") as z:
        z.writestr(f"{MOD}@{VERSION}/go.mod", GO_MOD)
        z.writestr(f"{MOD}@{VERSION}/hello.go", HELLO_GO)


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    root = tmp_path_factory.mktemp("modules")
    write_proxy(root / "proxy")
    notebook = root / "notebook"
    notebook.mkdir()
    env = dict(os.environ, GOPROXY="file://" + str(root / "proxy"), GOSUMDB="off",
               GOMODCACHE=str(root / "modcache"), GOFLAGS="")
    kernel = Kernel(env=env, cwd=str(notebook))
    yield kernel, notebook, root
    kernel.shutdown()
    for dirpath, dirnames, _ in os.walk(root / "modcache"):  # the cache is left read-only
        os.chmod(dirpath, 0o755)


def test_import_complete_inspect_record(setup):
    k, notebook, _ = setup
    assert k.stdout('import (\n\t"fmt"\n\t"example.com/hello"\n)\nfmt.Println(hello.Greet("ann"))') == "hello, ann\n"

    msg_id = k.kc.complete("hello.Gr", 8)
    content = k.shell_reply(msg_id)["content"]
    assert content["matches"] == ["Greet"], content

    msg_id = k.kc.inspect("hello.Greet", 8)
    content = k.shell_reply(msg_id)["content"]
    assert content["found"] and "Greet says hello to who" in content["data"]["text/plain"], content

    recorded = (notebook / "gptnotes.sum").read_text()
    assert f"{MOD} {VERSION} h1:" in recorded, recorded


def test_missing_module_is_one_error(setup):
    k, _, _ = setup
    assert k.stdout('kept := 41\nfmt.Println(kept)') == "41\n"
    reply, outs = k.execute('import "example.com/nosuch"')
    assert reply["status"] == "error", reply
    assert reply["ename"] == "ModuleError", reply
    assert "no module provides package example.com/nosuch" in reply["evalue"], reply["evalue"]
    assert [m["msg_type"] for m in outs] == ["error"], outs
    assert k.stdout("kept++\nfmt.Println(kept)") == "42\n"


def test_confined_kernel_reads_the_module_cache(setup):
    """`gptnotes grade` runs a kernel confined with Landlock (--confine): it can read the module
    cache (GOMODCACHE is among its readable paths), so a module already in the cache imports,
    with the network off (GOFLAGS=-mod=readonly)."""
    _, notebook, root = setup  # the first test filled the cache
    spec = json.loads((KERNELSPEC_DIR / "kernel.json").read_text())
    argv = spec["argv"]
    i = argv.index("kernel")
    spec["argv"] = argv[:i + 1] + ["--confine", str(notebook)] + argv[i + 1:]
    confined_dir = KERNELSPEC_DIR.parent / "gptnotes-test-confined"
    confined_dir.mkdir(exist_ok=True)
    (confined_dir / "kernel.json").write_text(json.dumps(spec))
    env = dict(os.environ, GOPROXY="off", GOFLAGS="-mod=readonly", GOSUMDB="off",
               GOMODCACHE=str(root / "modcache"))
    k = Kernel(env=env, cwd=str(notebook), kernel_name="gptnotes-test-confined",
               connection_file=str(notebook / "kernel-confined.json"))
    try:
        if "not confined" in open(k.log_path).read():
            pytest.skip("Landlock is not available here")
        out = k.stdout('import (\n\t"fmt"\n\t"example.com/hello"\n)\nfmt.Println(hello.Greet("cy"))')
        assert out == "hello, cy\n"
    finally:
        k.shutdown()
