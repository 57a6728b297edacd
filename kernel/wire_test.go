package kernel

import (
	"bytes"
	"errors"
	"testing"
)

// The reference signature was computed with Python's hmac module, as jupyter_client signs:
// hmac.new(b"secret-key", digestmod=hashlib.sha256) updated with the four frames.
func TestSignKnownAnswer(t *testing.T) {
	s := signer{key: []byte("secret-key")}
	got := s.sign([]byte(`{"msg_id":"1"}`), []byte(`{}`), []byte(`{}`), []byte(`{"code":"1+1"}`))
	want := "f29edc2ae347e99e996cf426a9068abd72bbac08f131d7b7d863f0430600434a"
	if string(got) != want {
		t.Errorf("sign = %s, want %s", got, want)
	}
}

func testMessage() *Message {
	return &Message{
		Identities:   [][]byte{[]byte("client-1")},
		Header:       newHeader(MsgExecuteRequest, "s1"),
		ParentHeader: nil,
		Metadata:     map[string]any{"k": "v"},
		Content:      map[string]any{"code": "x := 1"},
		Buffers:      [][]byte{{0, 1, 2}},
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	s := signer{key: []byte("k")}
	frames, err := s.encode(testMessage())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(frames[0], []byte("client-1")) || !bytes.Equal(frames[1], delimiter) {
		t.Fatalf("frames start %q %q, want identity then delimiter", frames[0], frames[1])
	}
	if string(frames[4]) != "{}" {
		t.Errorf("empty parent header encodes as %s, want {}", frames[4])
	}
	m, err := s.decode(frames)
	if err != nil {
		t.Fatal(err)
	}
	if m.Header.MsgType != MsgExecuteRequest || m.ParentHeader != nil || len(m.Identities) != 1 {
		t.Errorf("decoded header %+v parent %v ids %q", m.Header, m.ParentHeader, m.Identities)
	}
	var c struct{ Code string }
	if err := m.decodeContent(&c); err != nil || c.Code != "x := 1" {
		t.Errorf("content %q, %v", c.Code, err)
	}
	if len(m.Buffers) != 1 || !bytes.Equal(m.Buffers[0], []byte{0, 1, 2}) {
		t.Errorf("buffers %q", m.Buffers)
	}
}

func TestDecodeRejects(t *testing.T) {
	s := signer{key: []byte("k")}
	good, _ := s.encode(testMessage())
	clone := func() [][]byte {
		f := make([][]byte, len(good))
		for i := range good {
			f[i] = append([]byte(nil), good[i]...)
		}
		return f
	}
	forged := clone()
	forged[6] = []byte(`{"code":"os.Exit(1)"}`) // content changed, signature kept
	unsigned := clone()
	unsigned[2] = nil
	wrongKey, _ := signer{key: []byte("other")}.encode(testMessage())
	badJSON := clone()
	badJSON[3] = []byte(`{"msg_id":`)
	badJSON[2] = s.sign(badJSON[3], badJSON[4], badJSON[5], badJSON[6])
	cases := []struct {
		name   string
		frames [][]byte
		want   error
	}{
		{"forged content", forged, ErrBadSignature},
		{"unsigned", unsigned, ErrBadSignature},
		{"other key", wrongKey, ErrBadSignature},
		{"no delimiter", [][]byte{[]byte("a"), []byte("b")}, ErrNoDelimiter},
		{"short", good[:5], ErrShortMessage},
		{"malformed header JSON", badJSON, nil},
	}
	for _, c := range cases {
		_, err := s.decode(c.frames)
		if err == nil {
			t.Errorf("%s: decoded, want an error", c.name)
			continue
		}
		if c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
	}
}

func TestEmptyKeyNoSignature(t *testing.T) {
	s := signer{}
	frames, err := s.encode(testMessage())
	if err != nil {
		t.Fatal(err)
	}
	if len(frames[2]) != 0 {
		t.Errorf("signature with empty key = %q, want empty", frames[2])
	}
	if _, err := s.decode(frames); err != nil {
		t.Errorf("decode without key: %v", err)
	}
}

func TestEncodeUnmarshalableContent(t *testing.T) {
	m := testMessage()
	m.Content = map[string]any{"ch": make(chan int)}
	if _, err := (signer{}).encode(m); err == nil {
		t.Error("encode of a channel succeeded, want an error")
	}
}
