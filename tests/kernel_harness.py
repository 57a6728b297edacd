"""Shared by the kernel's Python tests: a kernelspec for $GPTNOTES_BIN in a temporary
JUPYTER_PATH (written by `gptnotes install --prefix`, so install is exercised too), and a
small client that starts the kernel through jupyter_client and collects a request's output.

$GPTNOTES_EXEC runs the binary through another program, as `go test -exec` does: a
linux/arm64 build under qemu-aarch64 (make test-arm64), a Windows build under wine (make
test-windows). The kernelspec's argv starts with it, so jupyter_client starts the kernel so."""
import json
import os
import pathlib
import queue
import shlex
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = os.environ.get("GPTNOTES_BIN") or str(ROOT / "bin" / "gptnotes")
EXEC = shlex.split(os.environ.get("GPTNOTES_EXEC", ""))
COMMAND = EXEC + [BIN]  # the binary as a command line: run it with COMMAND + [args]
KERNEL_NAME = "gptnotes-test"

_prefix = tempfile.mkdtemp(prefix="gptnotes-kernelspec-")
subprocess.run(COMMAND + ["install", "--prefix", _prefix, "--name", KERNEL_NAME], check=True,
               stdout=subprocess.DEVNULL)
os.environ["JUPYTER_PATH"] = os.path.join(_prefix, "share", "jupyter")
KERNELSPEC_DIR = pathlib.Path(os.environ["JUPYTER_PATH"]) / "kernels" / KERNEL_NAME
if EXEC:
    _spec = json.loads((KERNELSPEC_DIR / "kernel.json").read_text())
    _spec["argv"] = EXEC + _spec["argv"]
    (KERNELSPEC_DIR / "kernel.json").write_text(json.dumps(_spec, indent=2))


def host_path(p):
    """p as this machine names it: a path the Windows build wrote under wine, Z:\\tmp\\x
    (wine's drive Z: is /), is /tmp/x."""
    if p[:3].upper() == "Z:\\":
        return "/" + p[3:].replace("\\", "/")
    return p


from jupyter_client.manager import KernelManager  # noqa: E402  (after JUPYTER_PATH is set)

TIMEOUT = 30


class Kernel:
    """One running gptnotes kernel; its log (the kernel's stderr) goes to a file we can read."""

    def __init__(self, env=None, cwd=None, kernel_name=KERNEL_NAME, connection_file=None):
        self.log_path = tempfile.mktemp(prefix="gptnotes-kernel-", suffix=".log")
        self._log = open(self.log_path, "w")
        self._stash = {}  # iopub messages read while waiting for another request's
        self.km = KernelManager(kernel_name=kernel_name)
        if connection_file is not None:  # a confined kernel reads it from a directory it may read
            self.km.connection_file = connection_file
        extra = {"env": env} if env is not None else {}  # env: the kernel's whole environment
        if cwd is not None:
            extra["cwd"] = cwd  # the kernel's working directory: the notebook's
        self.km.start_kernel(stderr=self._log, **extra)
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=TIMEOUT)
        self.drain()

    def log(self):
        self._log.flush()
        return pathlib.Path(self.log_path).read_text()

    def drain(self):
        """Forget pending iopub and shell messages."""
        self._stash = {}
        for get in (self.kc.get_iopub_msg, self.kc.get_shell_msg):
            while True:
                try:
                    get(timeout=0.05)
                except queue.Empty:
                    break

    def iopub_until_idle(self, msg_id, timeout=TIMEOUT):
        """Every iopub message parented to msg_id, busy through idle."""
        msgs = []
        deadline = time.monotonic() + timeout
        while True:
            stash = self._stash.get(msg_id)
            if stash:
                m = stash.pop(0)
            else:
                m = self.kc.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
                parent = m["parent_header"].get("msg_id")
                if parent != msg_id:  # another request's: keep it for a later call
                    self._stash.setdefault(parent, []).append(m)
                    continue
            msgs.append(m)
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                return msgs

    def shell_reply(self, msg_id, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            m = self.kc.get_shell_msg(timeout=max(0.1, deadline - time.monotonic()))
            if m["parent_header"].get("msg_id") == msg_id:
                return m

    def execute(self, code, timeout=TIMEOUT, **kw):
        """Runs code; returns (reply content, outputs) where outputs are the iopub messages
        between busy and idle other than status and execute_input."""
        msg_id = self.kc.execute(code, **kw)
        reply = self.shell_reply(msg_id, timeout)
        msgs = self.iopub_until_idle(msg_id, timeout)
        outs = [m for m in msgs if m["msg_type"] not in ("status", "execute_input")]
        return reply["content"], outs

    def stdout(self, code, **kw):
        reply, outs = self.execute(code, **kw)
        assert reply["status"] == "ok", reply
        return "".join(m["content"]["text"] for m in outs
                       if m["msg_type"] == "stream" and m["content"]["name"] == "stdout")

    def alive(self):
        return self.km.is_alive()

    def shutdown(self):
        self.kc.stop_channels()
        if self.km.has_kernel:
            self.km.shutdown_kernel(now=False)
        self._log.close()
