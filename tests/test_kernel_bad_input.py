"""Bad input never takes the kernel down: forged, unsigned and malformed messages are dropped
and logged; unknown message types are ignored; cells that panic, panic in a goroutine, call
os.Exit, loop forever or print 10 MB leave the kernel alive with earlier variables intact."""
import json
import time

import pytest
import zmq
from jupyter_client.session import Session

from kernel_harness import Kernel


@pytest.fixture(scope="module")
def k():
    kern = Kernel()
    reply, _ = kern.execute('import "fmt"\nkeep := 42')
    assert reply["status"] == "ok", reply
    yield kern
    kern.shutdown()


def intact(k):
    """The kernel answers, and the first cell's variable survived."""
    assert k.alive()
    assert k.stdout("fmt.Println(keep)") == "42\n"


@pytest.fixture
def shell(k):
    """A raw DEALER on the kernel's shell port, to send what no client would."""
    info = k.km.get_connection_info()
    ctx = zmq.Context.instance()
    s = ctx.socket(zmq.DEALER)
    s.linger = 0
    s.connect(f"tcp://{info['ip']}:{info['shell_port']}")
    yield s, info["key"]
    s.close()


def no_reply(sock, seconds=1.0):
    return sock.poll(int(seconds * 1000)) == 0


def frames_for(session, msg_type, content):
    msg = session.msg(msg_type, content)
    return session.serialize(msg), msg["header"]["msg_id"]


def test_forged_message_is_dropped_and_logged(k, shell):
    sock, key = shell
    forger = Session(key=b"not-the-key", username="mallory")
    frames, _ = frames_for(forger, "execute_request", {"code": 'fmt.Println("pwned")', "silent": False})
    sock.send_multipart(frames)
    assert no_reply(sock)
    assert "signature does not match" in k.log()
    intact(k)


def test_unsigned_message_is_dropped(k, shell):
    sock, key = shell
    frames, _ = frames_for(Session(key=b""), "kernel_info_request", {})
    sock.send_multipart(frames)
    assert no_reply(sock)
    intact(k)


def test_tampered_content_is_dropped(k, shell):
    sock, key = shell
    frames, _ = frames_for(Session(key=key), "execute_request", {"code": "1", "silent": False})
    frames[-1] = json.dumps({"code": 'fmt.Println("tampered")'}).encode()
    sock.send_multipart(frames)
    assert no_reply(sock)
    intact(k)


def signed(key, header, parent, metadata, content):
    import hashlib
    import hmac
    h = hmac.new(key, digestmod=hashlib.sha256)
    for f in (header, parent, metadata, content):
        h.update(f)
    return [b"<IDS|MSG>", h.hexdigest().encode(), header, parent, metadata, content]


@pytest.mark.parametrize("part", ["header", "content"])
def test_malformed_json_is_dropped_and_logged(k, shell, part):
    sock, key = shell
    header = json.dumps({"msg_id": "bad-json", "session": "s", "username": "u", "date": "",
                         "msg_type": "execute_request", "version": "5.3"}).encode()
    content = json.dumps({"code": "1"}).encode()
    if part == "header":
        header = b'{"msg_id": "bad-json", '
    else:
        content = b'{"code": "1" ,,, '
    sock.send_multipart(signed(key, header, b"{}", b"{}", content))
    assert no_reply(sock)
    assert "dropped" in k.log()
    intact(k)


def test_wrong_content_types_get_an_error_reply(k, shell):
    sock, key = shell
    s = Session(key=key)
    frames, msg_id = frames_for(s, "execute_request", {"code": 12345})
    sock.send_multipart(frames)
    assert sock.poll(5000)
    reply = s.deserialize(s.feed_identities(sock.recv_multipart())[1])
    assert reply["parent_header"]["msg_id"] == msg_id
    assert reply["content"]["status"] == "error"
    intact(k)


def test_unknown_message_type_is_ignored_with_busy_idle(k):
    msg = k.kc.session.msg("frobnicate_request", {})
    k.kc.shell_channel.send(msg)
    states = [m["content"]["execution_state"] for m in k.iopub_until_idle(msg["header"]["msg_id"])
              if m["msg_type"] == "status"]
    assert states == ["busy", "idle"]
    assert 'unknown message type "frobnicate_request"' in k.log()
    intact(k)


def test_panicking_cell(k):
    reply, outs = k.execute('var m map[string]int\nm["x"] = 1')
    assert reply["status"] == "error" and [o["msg_type"] for o in outs] == ["error"]
    intact(k)


def test_panic_in_a_goroutine(k):
    t = time.monotonic()
    reply, outs = k.execute('import "time"\ngo func() { panic("in a goroutine") }()\ntime.Sleep(5 * time.Second)')
    assert reply["status"] == "error" and [o["msg_type"] for o in outs] == ["error"]
    assert "in a goroutine" in reply["evalue"]
    assert time.monotonic() - t < 4, "the panic ends the cell that started the goroutine"
    intact(k)


def test_os_exit_in_a_cell(k):
    reply, outs = k.execute('import "os"\nos.Exit(3)')
    assert reply["status"] == "error"
    intact(k)


def test_infinite_loop_then_interrupt(k):
    msg_id = k.kc.execute("n := 0\nfor { n++ }")
    time.sleep(0.5)
    k.km.interrupt_kernel()
    reply = k.shell_reply(msg_id, timeout=10)
    assert reply["content"]["status"] == "error"
    k.iopub_until_idle(msg_id)
    intact(k)


def test_ten_megabytes_printed(k):
    reply, outs = k.execute('import "strings"\nline := strings.Repeat("x", 1023) + "\\n"\n'
                            'for i := 0; i < 10*1024; i++ { fmt.Print(line) }', timeout=120)
    assert reply["status"] == "ok"
    got = sum(len(o["content"]["text"]) for o in outs if o["msg_type"] == "stream")
    assert got == 10 * 1024 * 1024
    intact(k)


def test_raw_bytes_on_every_port_cost_only_that_connection(k):
    """Issue 48, on the real kernel over tcp: a ZMTP greeting and a frame header claiming 2^62
    bytes (73 bytes), garbage, and a connection that says nothing, on each of the five ports;
    the kernel answers a new client afterwards and the session's variable survived."""
    import socket
    info = k.km.get_connection_info()
    greeting = b"\xff" + bytes(8) + b"\x7f\x03\x00NULL" + bytes(48)
    attacks = [greeting + b"\x02\x40" + bytes(7), b"\x00" * 3 + b"garbage" * 10, b""]
    held = []
    for port in ("shell_port", "control_port", "stdin_port", "iopub_port", "hb_port"):
        for data in attacks:
            s = socket.create_connection((info["ip"], info[port]), timeout=5)
            if data:
                s.sendall(data)
            held.append(s)
    time.sleep(1)
    for s in held:
        s.close()
    intact(k)
