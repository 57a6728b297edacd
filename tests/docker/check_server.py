"""What `make test-docker` checks of the compose service, from the host through 127.0.0.1 only:
the notebook server answers, lists the gptnotes kernelspec, starts a gptnotes kernel that runs a
cell (through the REST API and the kernel's websocket, as the browser does), the cell finds the
shipped model, a runaway cell is stopped at the kernel's memory limit, and a notebook saved under ~/gptnotes appears in
the host's ./notebooks, written by uid 1000.

Usage: /usr/bin/python3 tests/docker/check_server.py URL TOKEN NOTEBOOKS_DIR
Exits non-zero with the first check that failed."""
import asyncio
import json
import pathlib
import sys
import time
import urllib.request
import uuid

from tornado.websocket import websocket_connect

RUNAWAY = """
func() {
	var hog [][]byte
	for {
		hog = append(hog, make([]byte, 1<<20))
	}
}()
"""

CELL = """import (
	"fmt"
	"os"

	"github.com/gptnotes/gptnotes/gpt"
)

_, _, about, err := gpt.Pretrained()
fmt.Println("model:", about, err)
fmt.Println("memory limit:", os.Getenv("GPTNOTES_MEMORY_LIMIT"))
fmt.Println("uid:", os.Getuid())
"""


class Server:
    def __init__(self, url, token):
        self.url, self.token = url.rstrip("/"), token

    def call(self, method, path, body=None):
        req = urllib.request.Request(
            f"{self.url}{path}", method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as resp:
            text = resp.read()
            return json.loads(text) if text else None


def message(msg_type, content):
    return {"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "check",
                       "session": uuid.uuid4().hex, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "content": content, "buffers": [],
            "channel": "shell"}


async def execute(server, kernel_id, code, timeout=300):
    """Runs code in the kernel; returns its stdout and error text, and the execute_reply."""
    ws_url = server.url.replace("http://", "ws://", 1)
    ws = await websocket_connect(f"{ws_url}/api/kernels/{kernel_id}/channels?token={server.token}")
    req = message("execute_request", {"code": code, "silent": False, "store_history": True,
                                      "user_expressions": {}, "allow_stdin": False})
    ws.write_message(json.dumps(req))
    out, reply, idle = [], None, False
    deadline = time.monotonic() + timeout
    while not (reply and idle):
        raw = await asyncio.wait_for(ws.read_message(), deadline - time.monotonic())
        if raw is None:
            raise SystemExit("check: the kernel's websocket closed before the cell finished")
        msg = json.loads(raw)
        if msg["parent_header"].get("msg_id") != req["header"]["msg_id"]:
            continue
        kind, content = msg["header"]["msg_type"], msg["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind == "error":
            out.append("\n".join(content.get("traceback") or [content.get("evalue", "")]))
        elif kind == "execute_reply":
            reply = content
        elif kind == "status" and content["execution_state"] == "idle":
            idle = True
    ws.close()
    return "".join(out), reply


def check(what, ok, detail=""):
    print(f"check: {what}: {'ok' if ok else 'FAILED'}" + (f" ({detail})" if detail else ""))
    if not ok:
        sys.exit(1)


def main(url, token, notebooks):
    server = Server(url, token)
    deadline = time.monotonic() + 120
    while True:
        try:
            version = server.call("GET", "/api")["version"]
            break
        except OSError as err:
            if time.monotonic() > deadline:
                check("the notebook server answers", False, str(err))
            time.sleep(2)
    check("the notebook server answers", True, f"notebook {version} at {url}")

    specs = server.call("GET", "/api/kernelspecs")["kernelspecs"]
    check("the gptnotes kernelspec is listed", "gptnotes" in specs, ", ".join(sorted(specs)))

    kernel = server.call("POST", "/api/kernels", {"name": "gptnotes"})
    try:
        out, reply = asyncio.run(execute(server, kernel["id"], CELL))
        print(out, end="")
        check("a gptnotes kernel runs a cell", reply["status"] == "ok", reply["status"])
        check("the cell finds the shipped model", "model:" in out and "gopher" in out
              and "<nil>" in out, out.splitlines()[0] if out else "no output")
        check("the kernel runs as uid 1000, not root", "uid: 1000" in out)
        check("the kernel is given its memory limit", "memory limit: 1536MiB" in out)
        # A runaway cell meets the kernel's limit before the container's, and the kernel lives on.
        _, reply = asyncio.run(execute(server, kernel["id"], RUNAWAY))
        check("a runaway cell is stopped at the limit", reply.get("ename") == "MemoryLimit"
              and "limit of 1.50 GiB" in reply.get("evalue", ""), reply.get("evalue", reply["status"]))
        out, reply = asyncio.run(execute(server, kernel["id"], 'fmt.Println("still here")'))
        check("the kernel lives on after it", out == "still here\n", out)
    finally:
        server.call("DELETE", f"/api/kernels/{kernel['id']}")

    name = f"docker-check-{uuid.uuid4().hex[:8]}.ipynb"
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {},
                     "outputs": [], "source": CELL}],
          "metadata": {"kernelspec": {"name": "gptnotes", "display_name": "Go (gptnotes)",
                                      "language": "go"}},
          "nbformat": 4, "nbformat_minor": 5}
    server.call("PUT", f"/api/contents/{name}", {"type": "notebook", "content": nb})
    saved = pathlib.Path(notebooks) / name
    try:
        exists = saved.exists()
        check("a notebook saved under ~/gptnotes is in the host's ./notebooks", exists, str(saved))
        source = json.loads(saved.read_text())["cells"][0]["source"]  # on disk, a list of lines
        check("the saved notebook is the one sent", "".join(source) == CELL)
        check("it is owned by uid 1000 on the host", saved.stat().st_uid == 1000,
              f"uid {saved.stat().st_uid}")
    finally:
        server.call("DELETE", f"/api/contents/{name}")
    check("deleting it through the server removes it from the host", not saved.exists())


if __name__ == "__main__":
    main(*sys.argv[1:4])
