"""Widgets through jupyter_client, with this test playing the classic notebook's part: the
version handshake; widgets opened by a cell; changes from the front end running Go callbacks
(their output parented to the comm_msg, where an Output widget captures it) and changes from Go
reaching the front end; request_state; a button's click (a custom message); comm_close; bad
messages answered sensibly with the kernel and the other widgets alive; a panicking callback
and one that loops forever (stopped by interrupt); a burst of slider changes coalesced."""
import time

import pytest

from kernel_harness import Kernel

IMPORT = 'import (\n"fmt"\n"time"\n"github.com/gptnotes/gptnotes/kernel/widget"\n)\nvar _ = time.Now'
VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.fixture(scope="module")
def k():
    kern = Kernel()
    reply, _ = kern.execute(IMPORT)
    assert reply["status"] == "ok", reply
    yield kern
    kern.shutdown()


def send(k, msg_type, content):
    """Sends a comm message as the front end does; returns its iopub messages, busy to idle."""
    msg = k.kc.session.msg(msg_type, content)
    k.kc.shell_channel.send(msg)
    return k.iopub_until_idle(msg["header"]["msg_id"])


def backbone(k, comm_id, state):
    return send(k, "comm_msg", {"comm_id": comm_id, "data": {"method": "backbone", "sync_data": state, "buffer_keys": []}})


def opened(outs):
    """comm id → state of every comm_open among outs, in order."""
    return {m["content"]["comm_id"]: m["content"]["data"] for m in outs if m["msg_type"] == "comm_open"}


def model_of(outs, name):
    return [cid for cid, s in opened(outs).items() if s["_model_name"] == name][-1]


def updates(outs, comm_id):
    return [m["content"]["data"]["state"] for m in outs
            if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == comm_id
            and m["content"]["data"].get("method") == "update"]


def stdout(outs):
    return "".join(m["content"]["text"] for m in outs if m["msg_type"] == "stream" and m["content"]["name"] == "stdout")


def stderr(outs):
    return "".join(m["content"]["text"] for m in outs if m["msg_type"] == "stream" and m["content"]["name"] == "stderr")


def alive(k):
    assert k.alive()
    reply, outs = k.execute('fmt.Println("alive")')
    assert reply["status"] == "ok" and stdout(outs) == "alive\n", (reply, outs)


def test_handshake(k):
    outs = send(k, "comm_open", {"comm_id": "version-1", "target_name": "jupyter.widget.version", "data": {}})
    msgs = [m["content"] for m in outs if m["msg_type"] == "comm_msg"]
    assert msgs == [{"comm_id": "version-1", "data": {"version": "~2.1.4"}}]
    # A widget front end is connected: it shows the view, so the text fallback is left empty.
    reply, outs = k.execute('widget.NewCheckbox("c", true)')
    [result] = [m["content"]["data"] for m in outs if m["msg_type"] == "execute_result"]
    assert result["text/plain"] == "" and VIEW in result
    # One that says it is not compatible: logged, and the sentence comes back.
    send(k, "comm_msg", {"comm_id": "version-1", "data": {"validated": False, "frontend_version": "1.0.0"}})
    assert "do not satisfy ~2.1.4" in k.log()


def test_slider_both_ways(k):
    reply, outs = k.execute(
        's := widget.NewIntSlider("n", 0, 10, 3)\nlab := widget.NewLabel("")\n'
        's.OnChange(func(v int) { fmt.Println("got", v); lab.SetValue(fmt.Sprint(v * v)) })\n'
        'widget.NewHBox(s, lab)')
    assert reply["status"] == "ok", reply
    slider, label = model_of(outs, "IntSliderModel"), model_of(outs, "LabelModel")
    assert opened(outs)[slider]["value"] == 3
    result = [m for m in outs if m["msg_type"] == "execute_result"][0]["content"]["data"]
    assert VIEW in result and "HBox of 2 widgets" in result["text/plain"]
    # From the front end: the callback runs, prints (parented to the comm_msg) and updates the label.
    outs = backbone(k, slider, {"value": 7})
    assert stdout(outs) == "got 7\n"
    assert updates(outs, label) == [{"value": "49"}]
    # From Go: the front end is told.
    reply, outs = k.execute("s.SetValue(2)\nfmt.Println(s.Value(), lab.Value())")
    assert updates(outs, slider) == [{"value": 2}] and stdout(outs) == "got 2\n2 4\n"
    # request_state: the whole state.
    outs = send(k, "comm_msg", {"comm_id": slider, "data": {"method": "request_state"}})
    [state] = updates(outs, slider)
    assert state["value"] == 2 and state["_model_name"] == "IntSliderModel" and state["max"] == 10
    # comm_close: gone from comm_info, the kernel fine.
    send(k, "comm_close", {"comm_id": slider, "data": {}})
    k.kc.comm_info(target_name="jupyter.widget")
    info = k.kc.get_shell_msg(timeout=10)["content"]["comms"]
    assert slider not in info and label in info
    alive(k)


def test_buttons_made_in_a_loop(k):
    reply, outs = k.execute(
        'var bs []*widget.Button\nclicked := []int{}\n'
        'for i := 0; i < 3; i++ {\n b := widget.NewButton(fmt.Sprint("b", i))\n'
        ' b.OnClick(func() { clicked = append(clicked, i); fmt.Println("clicked", i) })\n bs = append(bs, b)\n}\n'
        'for _, b := range bs { fmt.Println(b.ModelID()) }')
    assert reply["status"] == "ok", reply
    ids = stdout(outs).split()
    for i in (2, 0, 1):
        outs = send(k, "comm_msg", {"comm_id": ids[i], "data": {"method": "custom", "content": {"event": "click"}}})
        assert stdout(outs) == f"clicked {i}\n"
    assert k.stdout("fmt.Println(clicked)") == "[2 0 1]\n"


def test_output_and_panicking_callback(k):
    reply, outs = k.execute(
        'out := widget.NewOutput()\nboom := widget.NewButton("boom")\nn := 0\n'
        'boom.OnClick(func() { n++; out.Capture(func() { fmt.Println("before", n); var m map[string]int; m["x"] = n }) })\n'
        'fmt.Println(out.ModelID(), boom.ModelID())')
    assert reply["status"] == "ok", reply
    out, boom = stdout(outs).split()
    for _ in range(2):
        msg = k.kc.session.msg("comm_msg", {"comm_id": boom, "data": {"method": "custom", "content": {"event": "click"}}})
        k.kc.shell_channel.send(msg)
        outs = k.iopub_until_idle(msg["header"]["msg_id"])
        # The Output captures this request's output: msg_id set to it, the print and the panic, reset.
        assert [u["msg_id"] for u in updates(outs, out)] == [msg["header"]["msg_id"], ""]
        assert "before" in stdout(outs)
        assert "assignment to entry in nil map" in stderr(outs)
    assert k.stdout("fmt.Println(n)") == "2\n"
    alive(k)


def test_interrupt_stops_a_callback(k):
    reply, outs = k.execute('spin := widget.NewButton("spin")\nspins := 0\n'
                            'spin.OnClick(func() { spins++; for { } })\n'
                            'other := widget.NewButton("other")\nother.OnClick(func() { fmt.Println("other") })\n'
                            'fmt.Println(spin.ModelID(), other.ModelID())')
    spin, other = stdout(outs).split()
    msg = k.kc.session.msg("comm_msg", {"comm_id": spin, "data": {"method": "custom", "content": {"event": "click"}}})
    k.kc.shell_channel.send(msg)
    time.sleep(1)
    k.km.interrupt_kernel()
    outs = k.iopub_until_idle(msg["header"]["msg_id"], timeout=20)
    assert "Interrupted" in stderr(outs), outs
    alive(k)
    # Callbacks made before the interrupt work on.
    assert k.stdout("fmt.Println(spins)") == "1\n"
    outs = send(k, "comm_msg", {"comm_id": other, "data": {"method": "custom", "content": {"event": "click"}}})
    assert stdout(outs) == "other\n", outs


def test_bad_messages(k):
    reply, outs = k.execute('t := widget.NewText("t", "", "x")\nc := widget.NewCheckbox("c", false)\n'
                            'fmt.Println(t.ModelID(), c.ModelID())')
    text, box = stdout(outs).split()
    log_before = len(k.log())
    # A model id that does not exist: logged, nothing else.
    outs = backbone(k, "no-such-model", {"value": 1})
    assert [m["msg_type"] for m in outs] == ["status", "status"]
    # Malformed: sync_data not an object; no method; data not an object.
    send(k, "comm_msg", {"comm_id": text, "data": {"method": "backbone", "sync_data": "oops"}})
    send(k, "comm_msg", {"comm_id": text, "data": {}})
    send(k, "comm_msg", {"comm_id": text, "data": "not an object"})
    # A value of the wrong type: refused, and the model's value sent back.
    outs = backbone(k, box, {"value": "yes"})
    assert updates(outs, box) == [{"value": False}]
    # A huge message: 8 MB of text, accepted as a value.
    outs = backbone(k, text, {"value": "y" * (8 << 20)})
    assert k.stdout("fmt.Println(len(t.Value()), c.Value())") == f"{8 << 20} false\n"
    log = k.log()[log_before:]
    assert "no such comm" in log and "want a bool" in log and "sync_data" in log, log
    # The other widgets work.
    outs = backbone(k, box, {"value": True})
    assert k.stdout("fmt.Println(c.Value())") == "true\n"
    alive(k)


def test_burst_is_coalesced(k):
    reply, outs = k.execute('f := widget.NewFloatSlider("T", 0, 2, 0.01, 1)\nseen := []float64{}\n'
                            'f.OnChange(func(v float64) { seen = append(seen, v); time.Sleep(50 * time.Millisecond) })\n'
                            'fmt.Println(f.ModelID())')
    fid = stdout(outs).strip()
    ids = []
    for i in range(20):
        msg = k.kc.session.msg("comm_msg", {"comm_id": fid, "data": {"method": "backbone", "sync_data": {"value": i / 10}}})
        k.kc.shell_channel.send(msg)
        ids.append(msg["header"]["msg_id"])
    for i in ids:  # every request is still answered busy … idle
        k.iopub_until_idle(i)
    seen = k.stdout("fmt.Println(len(seen), seen[len(seen)-1], f.Value())").split()
    assert int(seen[0]) < 10 and seen[1] == "1.9" and seen[2] == "1.9", seen
