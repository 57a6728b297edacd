"""Records what Debian's ipywidgets 6.0.0, driven by ipykernel, sends and accepts for each control
the widget package implements: the reference the Go package is tested against (widget_test.go).

Run with Debian's Python (`make record-widgets`); it starts the python3 kernel through
jupyter_client, plays the front end's part (the version handshake, backbone updates,
request_state, custom messages, comm_close) and writes one JSON file per control to
testdata/ipywidgets6/. Comm ids are replaced by stable names ("IPY_MODEL_<name>") so the
recordings do not change from run to run."""
import json
import pathlib
import queue
import sys

from jupyter_client.manager import KernelManager

OUT = pathlib.Path(__file__).resolve().parent / "ipywidgets6"
TIMEOUT = 30

# Each control: the Python that makes it (named w; extra widgets named too), then what the
# front end does to it. Steps: ("set", python) sets a value from the kernel; ("backbone",
# {state}) is a front-end change, as the 6.0 front end sends it (a selection's value is
# its label); ("request_state",); ("custom", {content}); ("close",).
CONTROLS = {
    "IntSlider": ("w = widgets.IntSlider(value=3, min=0, max=10, step=1, description='n')",
                  [("backbone", {"value": 7}), ("set", "w.value = 4"), ("request_state",), ("close",)]),
    "FloatSlider": ("w = widgets.FloatSlider(value=0.5, min=0.0, max=2.0, step=0.1, description='t', readout_format='.2f')",
                    [("backbone", {"value": 1.3}), ("set", "w.value = 0.25"), ("request_state",)]),
    "Dropdown": ("w = widgets.Dropdown(options=['a', 'b', 'c'], value='b', description='pick')",
                 [("backbone", {"value": "c"}), ("set", "w.value = 'a'")]),
    "ToggleButtons": ("w = widgets.ToggleButtons(options=['x', 'y'], value='x', description='mode')",
                      [("backbone", {"value": "y"})]),
    "RadioButtons": ("w = widgets.RadioButtons(options=['p', 'q'], value='q', description='r')",
                     [("backbone", {"value": "p"})]),
    "Checkbox": ("w = widgets.Checkbox(value=False, description='cached')",
                 [("backbone", {"value": True}), ("set", "w.value = False")]),
    "Button": ("w = widgets.Button(description='Step')\n"
               "clicks = []\nw.on_click(lambda b: clicks.append(1))",
               [("custom", {"event": "click"}), ("set", "w.description = 'Step %d' % len(clicks)")]),
    "Text": ("w = widgets.Text(value='hi', placeholder='type', description='prompt')\n"
             "subs = []\nw.on_submit(lambda t: subs.append(t.value))",
             [("backbone", {"value": "hello"}), ("custom", {"event": "submit"}), ("set", "w.value = str(subs)")]),
    "Textarea": ("w = widgets.Textarea(value='a\\nb', rows=3, description='text')",
                 [("backbone", {"value": "c"})]),
    "Play": ("w = widgets.Play(value=0, min=0, max=5, step=1, interval=100, description='play')",
             [("backbone", {"_playing": True}), ("backbone", {"value": 1})]),
    "Label": ("w = widgets.Label(value='p = 0.5')", [("set", "w.value = 'p = 0.7'")]),
    "HTML": ("w = widgets.HTML(value='<b>hi</b>')", [("set", "w.value = '<i>bye</i>'")]),
    "Output": ("w = widgets.Output()",
               [("run", "with w:\n    print('inside')\n    display(HTML('<b>x</b>'))"),
                ("run", "w.clear_output()")]),
    "HBox": ("a = widgets.IntSlider(description='a')\nb = widgets.Label(value='v')\n"
             "w = widgets.HBox([a, b], layout=widgets.Layout(width='50%', border='1px solid gray'))", []),
    "VBox": ("a = widgets.Checkbox(description='a')\nw = widgets.VBox([a])", []),
}


class Recorder:
    def __init__(self):
        self.km = KernelManager(kernel_name="python3")
        self.km.start_kernel()
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=TIMEOUT)
        self.names = {}

    def name(self, comm_id):
        return self.names.setdefault(comm_id, "m%d" % len(self.names))

    def scrub(self, v):
        """Replaces comm ids by stable names, wherever they appear."""
        if isinstance(v, dict):
            # An Output's msg_id is the id of the request whose output it captures.
            return {k: "<request msg_id>" if k == "msg_id" and x else self.scrub(x) for k, x in v.items()}
        if isinstance(v, list):
            return [self.scrub(x) for x in v]
        if isinstance(v, str):
            for cid, n in self.names.items():
                v = v.replace(cid, n)
        return v

    def collect(self, msg_id, until_reply=True):
        """iopub messages parented to msg_id, busy to idle, without status and execute_input."""
        out = []
        while True:
            m = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            t = m["msg_type"]
            if t == "status" and m["content"]["execution_state"] == "idle":
                break
            if t in ("status", "execute_input"):
                continue
            if t == "comm_open":
                self.name(m["content"]["comm_id"])
            out.append({"from": "kernel", "msg_type": t, "content": m["content"]})
        return out

    def execute(self, code):
        msg_id = self.kc.execute(code)
        msgs = self.collect(msg_id)
        reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        if reply["content"]["status"] != "ok":
            sys.exit("record: %r failed: %s" % (code, reply["content"]))
        return msgs

    def comm_msg(self, comm_id, data):
        msg = self.kc.session.msg("comm_msg", {"comm_id": comm_id, "data": data})
        self.kc.shell_channel.send(msg)
        return [{"from": "frontend", "msg_type": "comm_msg", "content": {"comm_id": comm_id, "data": data}}] + \
            self.collect(msg["header"]["msg_id"])

    def comm_close(self, comm_id):
        msg = self.kc.session.msg("comm_close", {"comm_id": comm_id, "data": {}})
        self.kc.shell_channel.send(msg)
        return [{"from": "frontend", "msg_type": "comm_close", "content": {"comm_id": comm_id, "data": {}}}] + \
            self.collect(msg["header"]["msg_id"])

    def handshake(self):
        """The classic notebook's first move: open jupyter.widget.version; the kernel answers with
        its front-end version range, the front end with validated."""
        cid = "version-comm"
        msg = self.kc.session.msg("comm_open", {"comm_id": cid, "target_name": "jupyter.widget.version", "data": {}})
        self.kc.shell_channel.send(msg)
        steps = [{"from": "frontend", "msg_type": "comm_open", "content": msg["content"]}]
        steps += self.collect(msg["header"]["msg_id"])
        steps += self.comm_msg(cid, {"validated": True, "frontend_version": "2.1.4"})
        return steps


def main():
    OUT.mkdir(exist_ok=True)
    r = Recorder()
    try:
        r.execute("import ipywidgets as widgets\nfrom IPython.display import display, HTML")
        write("handshake", r.handshake(), r)
        for control, (make, steps) in CONTROLS.items():
            r.names = {}
            rec = {"control": control, "python": make, "steps": []}
            rec["steps"] += r.execute(make)
            ids = {v: k for k, v in r.names.items()}
            wid = r.execute("print(w.model_id)")[0]["content"]["text"].strip()
            rec["steps"] += r.execute("display(w)")
            for step in steps:
                kind = step[0]
                if kind == "backbone":
                    rec["steps"] += r.comm_msg(wid, {"method": "backbone", "sync_data": step[1], "buffer_keys": []})
                elif kind == "request_state":
                    rec["steps"] += r.comm_msg(wid, {"method": "request_state"})
                elif kind == "custom":
                    rec["steps"] += r.comm_msg(wid, {"method": "custom", "content": step[1]})
                elif kind == "close":
                    rec["steps"] += r.comm_close(wid)
                elif kind in ("set", "run"):
                    rec["steps"].append({"from": "cell", "code": step[1]})
                    rec["steps"] += r.execute(step[1])
            rec["widget"] = r.name(wid)
            write(control, rec, r)
    finally:
        r.kc.stop_channels()
        r.km.shutdown_kernel(now=True)


def write(name, rec, r):
    path = OUT / (name + ".json")
    path.write_text(json.dumps(r.scrub(rec), indent=1, sort_keys=True) + "\n")
    print("wrote", path.relative_to(OUT.parent.parent.parent.parent))


if __name__ == "__main__":
    main()
