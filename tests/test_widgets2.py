"""Widgets in protocol 2.1 (ipywidgets 8, the front end of JupyterLab 4, Notebook 7 and VS Code)
through jupyter_client, with this test playing that front end: no version handshake, changes as
{"method": "update", "state", "buffer_paths"}, binary buffers, the jupyter.widget.control comm.
Every control both ways (front end -> Go callback, echoed; Go SetValue -> update); an Image's
bytes as a buffer; request_states; how the kernel learns the protocol (and the setting that
forces it); bad 2.x messages logged, with the kernel and the widgets alive.
(test_widgets.py plays the classic notebook's 1.0 front end.)"""
import os

import pytest

from kernel_harness import Kernel

IMPORT = 'import (\n"fmt"\n"github.com/gptnotes/gptnotes/kernel/widget"\n)\nvar _ = fmt.Sprint'
VIEW = "application/vnd.jupyter.widget-view+json"


def start(env=None):
    k = Kernel(env=env)
    reply, _ = k.execute(IMPORT)
    assert reply["status"] == "ok", reply
    return k


@pytest.fixture(scope="module")
def k():
    kern = start()
    yield kern
    kern.shutdown()


def send(k, msg_type, content, buffers=None):
    """Sends a message as the front end does, with binary buffers; returns its iopub messages."""
    msg = k.kc.session.msg(msg_type, content)
    k.kc.session.send(k.kc.shell_channel.socket, msg, buffers=buffers)
    return k.iopub_until_idle(msg["header"]["msg_id"])


def update(k, comm_id, state, paths=(), buffers=None):
    return send(k, "comm_msg", {"comm_id": comm_id, "data": {
        "method": "update", "state": state, "buffer_paths": [list(p) for p in paths]}}, buffers)


def opens(outs):
    return [m for m in outs if m["msg_type"] == "comm_open"]


def model_of(outs, name):
    return [m["content"]["comm_id"] for m in opens(outs) if m["content"]["data"]["state"]["_model_name"] == name][-1]


def sent(outs, comm_id, method="update"):
    return [m for m in outs if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == comm_id
            and m["content"]["data"].get("method") == method]


def stdout(outs):
    return "".join(m["content"]["text"] for m in outs if m["msg_type"] == "stream" and m["content"]["name"] == "stdout")


def alive(k):
    assert k.alive()
    assert k.stdout('fmt.Println("alive")') == "alive\n"


def test_open_and_view(k):
    reply, outs = k.execute('widget.NewIntSlider("n", 0, 10, 3)')
    assert reply["status"] == "ok", reply
    slider = model_of(outs, "IntSliderModel")
    by_id = {m["content"]["comm_id"]: m for m in opens(outs)}
    m = by_id[slider]
    assert m["metadata"] == {"version": "2.1.0"}
    state = m["content"]["data"]["state"]
    assert (state["_model_module"], state["_model_module_version"]) == ("@jupyter-widgets/controls", "2.0.0")
    assert state["value"] == 3 and m["content"]["data"]["buffer_paths"] == []
    style = by_id[state["style"][len("IPY_MODEL_"):]]["content"]["data"]["state"]
    layout = by_id[state["layout"][len("IPY_MODEL_"):]]["content"]["data"]["state"]
    assert style["_model_name"] == "SliderStyleModel" and layout["_model_module"] == "@jupyter-widgets/base"
    [result] = [o["content"]["data"] for o in outs if o["msg_type"] == "execute_result"]
    assert result[VIEW] == {"model_id": slider, "version_major": 2, "version_minor": 0}


# Each control: its Go constructor, the state key the front end sets, the value it sends, what
# the Go callback prints, a SetValue from Go, and the value its update carries.
CONTROLS = [
    ('widget.NewIntSlider("i", 0, 10, 1)', "IntSliderModel", "value", 7, "7", "w.SetValue(2)", 2),
    ('widget.NewFloatSlider("f", 0, 1, 0.1, 0.5)', "FloatSliderModel", "value", 0.25, "0.25", "w.SetValue(0.75)", 0.75),
    ('widget.NewDropdown("d", []string{"a", "b", "c"}, "a")', "DropdownModel", "index", 2, "c", 'w.SetValue("b")', 1),
    ('widget.NewToggleButtons("t", []string{"x", "y"}, "x")', "ToggleButtonsModel", "index", 1, "y", 'w.SetValue("x")', 0),
    ('widget.NewRadioButtons("r", []string{"p", "q"}, "p")', "RadioButtonsModel", "index", 1, "q", 'w.SetValue("p")', 0),
    ('widget.NewCheckbox("c", false)', "CheckboxModel", "value", True, "true", "w.SetValue(false)", False),
    ('widget.NewText("t", "", "")', "TextModel", "value", "hey", "hey", 'w.SetValue("ho")', "ho"),
    ('widget.NewTextarea("a", "", 2)', "TextareaModel", "value", "a\nb", "a\nb", 'w.SetValue("c")', "c"),
    ('widget.NewPlay("p", 0, 9, 1, 100)', "PlayModel", "value", 4, "4", "w.SetValue(5)", 5),
]


@pytest.mark.parametrize("make,model,key,front,printed,set_go,after", CONTROLS, ids=[c[1] for c in CONTROLS])
def test_control_both_ways(k, make, model, key, front, printed, set_go, after):
    reply, outs = k.execute(f"w := {make}\nw.OnChange(func(v {gotype(model)}) {{ fmt.Print(v) }})\nw")
    assert reply["status"] == "ok", reply
    wid = model_of(outs, model)
    # From the front end: the Go callback runs (its output parented to the comm_msg), the change
    # is echoed to every front end first.
    outs = update(k, wid, {key: front})
    assert stdout(outs) == printed
    [echo] = sent(outs, wid, "echo_update")
    assert echo["content"]["data"] == {"method": "echo_update", "state": {key: front}, "buffer_paths": []}
    # From Go: an update.
    reply, outs = k.execute(set_go)
    assert reply["status"] == "ok", reply
    assert [m["content"]["data"]["state"] for m in sent(outs, wid)] == [{key: after}]


def gotype(model):
    return {"IntSliderModel": "int", "PlayModel": "int", "FloatSliderModel": "float64",
            "CheckboxModel": "bool"}.get(model, "string")


def test_label_html_button(k):
    reply, outs = k.execute('l := widget.NewLabel("a")\nh := widget.NewHTML("<b>b</b>")\nb := widget.NewButton("go")\n'
                            'b.OnClick(func() { fmt.Println("clicked"); l.SetValue("clicked") })\nwidget.NewHBox(l, h, b)')
    assert reply["status"] == "ok", reply
    label, html, button = (model_of(outs, n) for n in ("LabelModel", "HTMLModel", "ButtonModel"))
    outs = send(k, "comm_msg", {"comm_id": button, "data": {"method": "custom", "content": {"event": "click"}}})
    assert stdout(outs) == "clicked\n"
    assert [m["content"]["data"]["state"] for m in sent(outs, label)] == [{"value": "clicked"}]
    reply, outs = k.execute('h.SetValue("<i>i</i>")')
    assert [m["content"]["data"]["state"] for m in sent(outs, html)] == [{"value": "<i>i</i>"}]


def test_image_bytes_are_a_buffer(k):
    reply, outs = k.execute('img := widget.NewImage("png", []byte("\\x89PNG first"))\nimg')
    img = model_of(outs, "ImageModel")
    [m] = [o for o in opens(outs) if o["content"]["comm_id"] == img]
    assert m["content"]["data"]["buffer_paths"] == [["value"]] and "value" not in m["content"]["data"]["state"]
    assert [bytes(b) for b in m["buffers"]] == [b"\x89PNG first"]
    reply, outs = k.execute('img.SetValue([]byte("second"))')
    [u] = sent(outs, img)
    assert u["content"]["data"]["buffer_paths"] == [["value"]] and [bytes(b) for b in u["buffers"]] == [b"second"]


def test_link(k):
    reply, outs = k.execute('a := widget.NewIntSlider("a", 0, 9, 0)\nb := widget.NewIntSlider("b", 0, 9, 0)\n'
                            'widget.NewLink(a, "value", b, "value")\nfmt.Println(a.ModelID(), b.ModelID())')
    a, b = stdout(outs).split()
    link = model_of(outs, "LinkModel")
    state = [o for o in opens(outs) if o["content"]["comm_id"] == link][0]["content"]["data"]["state"]
    assert state["source"] == [f"IPY_MODEL_{a}", "value"] and state["target"] == [f"IPY_MODEL_{b}", "value"]
    assert state["_view_name"] is None


def test_control_comm_request_states(k):
    reply, outs = k.execute('keep := widget.NewImage("png", []byte{1, 2, 3})\nkeep')
    img = model_of(outs, "ImageModel")
    send(k, "comm_open", {"comm_id": "control-1", "target_name": "jupyter.widget.control", "data": {}})
    outs = send(k, "comm_msg", {"comm_id": "control-1", "data": {"method": "request_states"}})
    [reply] = [m for m in outs if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == "control-1"]
    data = reply["content"]["data"]
    assert data["method"] == "update_states"
    states = data["states"]
    assert states[img]["model_name"] == "ImageModel" and states[img]["model_module"] == "@jupyter-widgets/controls"
    assert states[img]["state"]["format"] == "png"
    i = data["buffer_paths"].index([img, "state", "value"])
    assert bytes(reply["buffers"][i]) == b"\x01\x02\x03"
    assert len(states) >= 20  # every live model of this module's kernel, layouts and styles included
    # request_state of one model: its whole state, its buffers.
    outs = send(k, "comm_msg", {"comm_id": img, "data": {"method": "request_state"}})
    [u] = sent(outs, img)
    assert u["content"]["data"]["state"]["_model_name"] == "ImageModel" and bytes(u["buffers"][0]) == b"\x01\x02\x03"


def test_bad_messages(k):
    reply, outs = k.execute('bad := widget.NewIntSlider("n", 0, 10, 5)\nruns := 0\n'
                            'bad.OnChange(func(int) { runs++ })\nbi := widget.NewImage("png", nil)\n'
                            'fmt.Println(bad.ModelID(), bi.ModelID())')
    s, img = stdout(outs).split()
    before = len(k.log())
    cases = [
        (s, {"method": "frobnicate"}, None, 'unknown method "frobnicate"'),
        (s, {"method": "update", "state": {}, "buffer_paths": [["deep", "value"]]}, [b"x"], 'no "deep" in the state'),
        (s, {"method": "update", "state": "oops"}, None, "without state object"),
        (s, {"method": "update", "state": {"value": "seven"}, "buffer_paths": []}, None, "want an integer"),
        (s, {"method": "update", "state": {"_model_name": "Evil"}, "buffer_paths": []}, None, 'may not set "_model_name"'),
        (img, {"method": "update", "state": {}, "buffer_paths": [["value"]]}, [b"\0" * (17 << 20)], "more than the 16777216"),
    ]
    for comm_id, data, buffers, _ in cases:
        outs = send(k, "comm_msg", {"comm_id": comm_id, "data": data}, buffers)
        assert "error" not in [m["msg_type"] for m in outs]
    # A state for a closed comm.
    send(k, "comm_close", {"comm_id": s, "data": {}})
    outs = send(k, "comm_msg", {"comm_id": s, "data": {"method": "update", "state": {"value": 1}, "buffer_paths": []}})
    log = k.log()[before:]
    for *_, line in cases:
        assert line in log, (line, log)
    assert "no such comm" in log
    assert k.stdout("fmt.Println(bad.Value(), runs, len(bi.Value()))") == "5 0 0\n"
    alive(k)


def test_detection_and_the_setting():
    """A kernel of its own: a widget made before any front end spoke is 2.1; after the classic
    notebook's handshake new widgets are 1.0, the earlier one stays 2.1 and takes 2.1 changes;
    a 2.x front end's control comm turns new widgets back to 2.1. GPTNOTES_WIDGET_PROTOCOL=1.0
    keeps 1.0 whoever speaks."""
    k = start()
    try:
        def module(code, name):
            reply, outs = k.execute(code)
            [m] = [o for o in opens(outs) if (o["content"]["data"].get("state") or {}).get("_model_name") == name]
            return m["content"]["comm_id"], m["content"]["data"]["state"]["_model_module"]
        early, mod = module('early := widget.NewCheckbox("early", false)\nearly.OnChange(func(v bool) { fmt.Println("early", v) })', "CheckboxModel")
        assert mod == "@jupyter-widgets/controls"
        send(k, "comm_open", {"comm_id": "version-1", "target_name": "jupyter.widget.version", "data": {}})
        _, mod = module('widget.NewCheckbox("classic", false)', "CheckboxModel")
        assert mod == "jupyter-js-widgets"
        # Two front ends on one kernel: the 2.1 widget still takes a 2.1 front end's change.
        assert stdout(update(k, early, {"value": True})) == "early true\n"
        send(k, "comm_open", {"comm_id": "control-1", "target_name": "jupyter.widget.control", "data": {}})
        _, mod = module('widget.NewCheckbox("lab", false)', "CheckboxModel")
        assert mod == "@jupyter-widgets/controls"
        assert "speaks protocol 1.0" in k.log() and "speaks protocol 2.1" in k.log()
    finally:
        k.shutdown()
    k = start(env=dict(os.environ, GPTNOTES_WIDGET_PROTOCOL="1.0"))
    try:
        send(k, "comm_open", {"comm_id": "control-1", "target_name": "jupyter.widget.control", "data": {}})
        reply, outs = k.execute('widget.NewCheckbox("forced", false)')
        assert {o["content"]["data"]["_model_module"] for o in opens(outs)} == {"jupyter-js-widgets"}
    finally:
        k.shutdown()
