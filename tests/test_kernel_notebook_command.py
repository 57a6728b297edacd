"""`gptnotes notebook` installs the kernelspec and starts Jupyter's classic notebook server on
notebooks/, passing extra arguments through: the server answers and offers the gptnotes kernel."""
import json
import os
import socket
import subprocess
import tempfile
import time
import urllib.request

from kernel_harness import BIN, ROOT


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_notebook_command_serves_the_notebooks_with_the_kernel():
    home = tempfile.mkdtemp(prefix="gptnotes-home-")
    env = dict(os.environ, HOME=home, JUPYTER_DATA_DIR=os.path.join(home, "jupyter-data"))
    env.pop("JUPYTER_PATH", None)
    port = free_port()
    proc = subprocess.Popen([BIN, "notebook", "--no-browser", "--ip", "127.0.0.1", "--port", str(port),
                             "--NotebookApp.token=", "--NotebookApp.password="],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                specs = json.load(urllib.request.urlopen(base + "/api/kernelspecs", timeout=2))
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode()
                assert time.monotonic() < deadline, "notebook server did not answer in 60 s"
                time.sleep(0.5)
        spec = specs["kernelspecs"]["gptnotes"]["spec"]
        assert spec["display_name"] == "Go (gptnotes)" and spec["argv"][1:] == ["kernel", "{connection_file}"]
        contents = json.load(urllib.request.urlopen(base + "/api/contents", timeout=5))
        names = {c["name"] for c in contents["content"]}
        assert "00-go-in-a-notebook.ipynb" in names, f"server not on notebooks/: {names}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
