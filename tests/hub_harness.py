"""A real JupyterHub for the tests and the class benchmark: Debian's jupyterhub 3.0 and its
proxy, started with deploy/jupyterhub_config.py in its test mode on loopback ports that were
free, students' homes in a temporary directory. Students are made, their servers started and
tokens issued through the hub's REST API with an admin token; a student's kernel is started
and driven through their single-user server's REST and websocket API, as a browser does.

Every process of a hub (the hub, its proxy, the servers, their kernels) carries a marker in its
environment (GPTNOTES_HUB_RUN), so stop() finds and ends them all, within a time limit, even
when the hub itself is gone."""
import asyncio
import json
import os
import pathlib
import secrets
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import uuid

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = ROOT / "deploy" / "jupyterhub_config.py"
JUPYTERHUB = "/usr/bin/jupyterhub"


def free_ports(n):
    """n distinct TCP ports that were free on 127.0.0.1 a moment ago."""
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def marked_pids(run):
    """The processes whose environment holds GPTNOTES_HUB_RUN=run."""
    marker = f"GPTNOTES_HUB_RUN={run}".encode()
    pids = []
    for d in pathlib.Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) == os.getpid():
            continue
        try:
            env = (d / "environ").read_bytes()
        except OSError:
            continue
        if marker in env.split(b"\0"):
            pids.append(int(d.name))
    return pids


def process_rss(pid):
    """Resident set of pid in bytes (0 when it is gone)."""
    try:
        for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def children(pid):
    """The direct children of pid."""
    try:
        return [int(p) for t in pathlib.Path(f"/proc/{pid}/task").iterdir()
                for p in (t / "children").read_text().split()]
    except OSError:
        return []


class Hub:
    """One JupyterHub in test mode under workdir (state, homes, log)."""

    def __init__(self, workdir, gptnotes_bin, kernel_memory="1536MiB", start_timeout=90):
        self.workdir = pathlib.Path(workdir)
        self.homes = self.workdir / "homes"
        self.state = self.workdir / "state"
        self.homes.mkdir(parents=True, exist_ok=True)
        self.state.mkdir(parents=True, exist_ok=True)
        self.run = uuid.uuid4().hex
        self.admin_token = secrets.token_hex(32)
        port, api_port, proxy_port = free_ports(3)
        self.url = f"http://127.0.0.1:{port}"
        self.log_path = self.workdir / "jupyterhub.log"
        env = dict(os.environ,
                   GPTNOTES_HUB="test",
                   GPTNOTES_HUB_RUN=self.run,
                   GPTNOTES_HUB_STATE=str(self.state),
                   GPTNOTES_HUB_HOMES=str(self.homes),
                   GPTNOTES_HUB_URL=self.url,
                   GPTNOTES_HUB_API_URL=f"http://127.0.0.1:{api_port}",
                   GPTNOTES_HUB_PROXY_API_URL=f"http://127.0.0.1:{proxy_port}",
                   GPTNOTES_HUB_ADMIN_TOKEN=self.admin_token,
                   GPTNOTES_KERNEL_MEMORY=kernel_memory,
                   GPTNOTES_BIN=str(gptnotes_bin))
        self._log = open(self.log_path, "w")
        self.proc = subprocess.Popen([JUPYTERHUB, "-f", str(CONFIG)], cwd=self.state, env=env,
                                     stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + start_timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyterhub exited with {self.proc.returncode}:\n{self.log()}")
            try:
                self.api("GET", "/")
                break
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"jupyterhub did not answer in {start_timeout} s:\n{self.log()}")
                time.sleep(0.2)

    def log(self):
        self._log.flush()
        return self.log_path.read_text()

    def request(self, method, url, body=None, token=None, timeout=30):
        """One HTTP request; returns (status, parsed JSON or None)."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, method=method,
                                     headers={"Authorization": f"token {token or self.admin_token}",
                                              "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                raw = r.read()
                return r.status, (json.loads(raw) if raw else None)
        except urllib.error.HTTPError as e:
            return e.code, None

    def api(self, method, path, body=None, token=None):
        """A call of the hub's REST API; raises unless it succeeds."""
        status, out = self.request(method, self.url + "/hub/api" + path, body, token)
        if status >= 400:
            raise urllib.error.URLError(f"{method} /hub/api{path}: HTTP {status}")
        return out

    def add_student(self, name):
        self.api("POST", f"/users/{name}")
        return self.api("POST", f"/users/{name}/tokens", {"note": "gptnotes test", "expires_in": 3600})["token"]

    def start_server(self, name, timeout=120):
        """Starts name's server and waits until the hub says it is ready."""
        self.api("POST", f"/users/{name}/server")
        deadline = time.monotonic() + timeout
        while True:
            user = self.api("GET", f"/users/{name}")
            server = user.get("servers", {}).get("")
            if server and server.get("ready"):
                return server
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name}'s server not ready in {timeout} s:\n{self.log()[-4000:]}")
            time.sleep(0.25)

    def server_pid(self, name):
        """The pid of name's single-user server: the marked process whose HOME is theirs."""
        home = f"HOME={self.homes / name}".encode()
        for pid in marked_pids(self.run):
            try:
                env = pathlib.Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
                cmd = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if home in env and b"jupyterhub-singleuser" in cmd:
                return pid
        return None

    def stop(self, timeout=30):
        """Stops the hub (which stops the servers and the proxy), then kills whatever process
        of this hub is left. Returns the pids that were still there to kill."""
        deadline = time.monotonic() + timeout
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=max(1, timeout / 2))
            except subprocess.TimeoutExpired:
                pass
        killed = []
        while time.monotonic() < deadline:
            left = marked_pids(self.run)
            if not left:
                break
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                except ProcessLookupError:
                    pass
            time.sleep(0.2)
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=5)
        self._log.close()
        return sorted(set(killed))


def new_msg(msg_type, content, session, channel="shell"):
    return {
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": session,
                   "username": "student", "version": "5.3",
                   "date": time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime())},
        "parent_header": {}, "metadata": {}, "content": content, "channel": channel, "buffers": [],
    }


class KernelSocket:
    """A gptnotes kernel of one student, started with POST /user/NAME/api/kernels and driven on
    /user/NAME/api/kernels/ID/channels, the websocket the notebook page uses."""

    def __init__(self, hub, name, token):
        self.hub, self.name, self.token = hub, name, token
        self.base = f"{hub.url}/user/{name}/api/kernels"
        self.session = uuid.uuid4().hex
        self.id = None
        self.ws = None
        self._pending = []  # messages read while waiting for another request's

    async def start(self, timeout=60):
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        status, k = await asyncio.to_thread(self.hub.request, "POST", self.base, {"name": "gptnotes"}, self.token)
        if status != 201:
            raise RuntimeError(f"{self.name}: POST api/kernels: HTTP {status}")
        self.id = k["id"]
        url = self.base.replace("http://", "ws://") + f"/{self.id}/channels?session_id={self.session}"
        # tornado's own connect timeout is 20 s: too short for a loaded machine starting many
        # servers at once (the 40-student benchmark), so the caller's timeout rules.
        self.ws = await asyncio.wait_for(websocket_connect(HTTPRequest(
            url, headers={"Authorization": f"token {self.token}"}, connect_timeout=timeout,
            request_timeout=timeout), max_message_size=64 << 20), timeout)
        # The kernel is ready when it answers kernel_info.
        await self.request("kernel_info_request", {}, timeout=timeout)
        return self

    async def _recv(self, timeout):
        raw = await asyncio.wait_for(self.ws.read_message(), timeout)
        if raw is None:
            raise ConnectionError(f"{self.name}: the kernel's websocket closed")
        return json.loads(raw)

    async def request(self, msg_type, content, timeout=60):
        """Sends a shell request; returns (reply content, iopub messages busy..idle)."""
        m = new_msg(msg_type, content, self.session)
        msg_id = m["header"]["msg_id"]
        await self.ws.write_message(json.dumps(m))
        deadline = time.monotonic() + timeout
        reply, iopub, idle = None, [], False
        while reply is None or not idle:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no reply to {msg_type} in {timeout} s")
            msg = await self._recv(left)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if msg["channel"] == "shell":
                reply = msg["content"]
            elif msg["channel"] == "iopub":
                iopub.append(msg)
                if msg["header"]["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                    idle = True
        return reply, iopub

    async def execute(self, code, timeout=120):
        """Runs code; returns (reply content, outputs: iopub messages other than status and
        execute_input)."""
        reply, iopub = await self.request("execute_request", {
            "code": code, "silent": False, "store_history": True, "user_expressions": {},
            "allow_stdin": False, "stop_on_error": True}, timeout)
        outs = [m for m in iopub if m["header"]["msg_type"] not in ("status", "execute_input")]
        return reply, outs

    async def interrupt(self):
        return await asyncio.to_thread(self.hub.request, "POST", f"{self.base}/{self.id}/interrupt", {}, self.token)

    async def close(self):
        if self.ws is not None:
            self.ws.close()
        if self.id is not None:
            await asyncio.to_thread(self.hub.request, "DELETE", f"{self.base}/{self.id}", None, self.token)


def code_cells(notebook):
    nb = json.loads(pathlib.Path(notebook).read_text())
    return [("".join(c["source"]), c.get("metadata", {}).get("tags", []))
            for c in nb["cells"] if c["cell_type"] == "code"]
