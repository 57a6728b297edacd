package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// FuzzDecode feeds decode arbitrary frames. The input is a key, a wire of frames joined by NUL
// (a JSON frame cannot hold a raw NUL, so only identities, the signature and buffers lose that
// byte), and resign: when set, the harness signs the four JSON frames with the key before
// decoding, so that mutations get past the HMAC and reach the JSON checks.
//
// Properties, checked against oracles written here rather than decode's own helpers:
//   - decode never panics;
//   - no delimiter, fewer than five frames after it, or (with a key) a signature that is not the
//     HMAC of the four JSON frames is rejected with ErrNoDelimiter, ErrShortMessage,
//     ErrBadSignature, in that order and before any JSON is parsed;
//   - a header, parent_header, metadata or content that is not a JSON object is rejected;
//   - a message that decodes is rejected once any of its five signed frames changes, or under
//     another key;
//   - a message that decodes encodes, and decodes again to the same message; encoding that
//     one gives the same frames again (encode∘decode is a fixed point after one pass).
func FuzzDecode(f *testing.F) {
	for _, s := range decodeSeeds(f) {
		f.Add(s.key, s.resign, joinFrames(s.frames))
	}
	f.Fuzz(func(t *testing.T, key []byte, resign bool, wire []byte) {
		frames := splitFrames(wire)
		d := delimiterIndex(frames)
		signed := d >= 0 && len(frames)-d-1 >= 5
		if resign && signed && len(key) > 0 {
			frames[d+1] = hmacHex(key, frames[d+2:d+6])
		}
		s := signer{key: key}
		m, err := s.decode(cloneFrames(frames))

		switch {
		case d < 0:
			wantErr(t, err, ErrNoDelimiter)
			return
		case !signed:
			wantErr(t, err, ErrShortMessage)
			return
		case len(key) > 0 && !sigMatches(key, frames[d+1], frames[d+2:d+6]):
			wantErr(t, err, ErrBadSignature)
			return
		}
		for i, name := range []string{"header", "parent_header", "metadata", "content"} {
			if fr := frames[d+2+i]; !isJSONObject(fr) && err == nil {
				t.Fatalf("decoded a message whose %s is not a JSON object: %q", name, fr)
			}
		}
		if err != nil {
			return
		}

		if !equalFrames(m.Identities, frames[:d]) || !equalFrames(m.Buffers, frames[d+6:]) {
			t.Fatalf("identities %q buffers %q, want %q and %q", m.Identities, m.Buffers, frames[:d], frames[d+6:])
		}
		if len(key) > 0 {
			for i := d + 1; i < d+6; i++ {
				forged := cloneFrames(frames)
				if len(forged[i]) == 0 {
					forged[i] = []byte{'0'}
				} else {
					forged[i][len(forged[i])/2] ^= 1 // stays hex for a hex digit, never changes its case
				}
				if _, err := s.decode(forged); !errors.Is(err, ErrBadSignature) {
					t.Fatalf("frame %d changed to %q: error %v, want %v", i-d-1, forged[i], err, ErrBadSignature)
				}
			}
			other := signer{key: append(append([]byte(nil), key...), 'x')}
			if _, err := other.decode(cloneFrames(frames)); !errors.Is(err, ErrBadSignature) {
				t.Fatalf("decoded under another key: error %v, want %v", err, ErrBadSignature)
			}
		}

		encoded, err := s.encode(m)
		if err != nil {
			t.Fatalf("encode of a decoded message: %v", err)
		}
		m2, err := s.decode(cloneFrames(encoded))
		if err != nil {
			t.Fatalf("decode of the re-encoded message %q: %v", encoded, err)
		}
		if msg := sameMessage(m, m2); msg != "" {
			t.Fatalf("round trip changed the message: %s", msg)
		}
		again, err := s.encode(m2)
		if err != nil {
			t.Fatalf("second encode: %v", err)
		}
		if !equalFrames(again, encoded) {
			t.Fatalf("encode is not stable:\n%q\n%q", encoded, again)
		}
	})
}

type decodeSeed struct {
	key    []byte
	resign bool
	frames [][]byte
}

// decodeSeeds are the messages of wire_test.go and a few more a client sends, valid and broken.
// Headers are fixed, not newHeader's, so that the seeds are the same on every run.
func decodeSeeds(f *testing.F) []decodeSeed {
	key := []byte("k")
	s := signer{key: key}
	header := func(t MsgType, id string) Header {
		return Header{MsgID: id, Session: "s1", Username: "client", Date: "2024-01-02T03:04:05.000000Z", MsgType: t, Version: ProtocolVersion}
	}
	encode := func(s signer, m *Message) [][]byte {
		frames, err := s.encode(m)
		if err != nil {
			f.Fatal(err)
		}
		return frames
	}
	request := header(MsgExecuteRequest, "req-1")
	execute := &Message{
		Identities: [][]byte{[]byte("client-1")},
		Header:     request,
		Metadata:   map[string]any{"k": "v"},
		Content:    map[string]any{"code": "x := 1", "silent": false, "store_history": true, "user_expressions": map[string]any{}, "allow_stdin": true, "stop_on_error": true},
		Buffers:    [][]byte{{1, 2, 3}},
	}
	good := encode(s, execute)
	reply := encode(s, &Message{
		Identities:   [][]byte{[]byte("client-1"), []byte("router-2")},
		Header:       header(MsgExecuteReply, "rep-1"),
		ParentHeader: &request,
		Content:      map[string]any{"status": "ok", "execution_count": 3, "user_expressions": map[string]any{}},
	})
	kernelInfo := encode(s, &Message{Header: header(MsgKernelInfoRequest, "ki-1")})
	comm := encode(s, &Message{
		Header:  header(MsgCommMsg, "comm-1"),
		Content: map[string]any{"comm_id": "c1", "data": map[string]any{"x": 1.5, "s": "<é\u2028>"}},
		Buffers: [][]byte{[]byte("buf-a"), []byte(""), delimiter},
	})
	unsigned := encode(signer{}, execute)
	otherKey := encode(signer{key: []byte("other")}, execute)
	knownAnswer := [][]byte{delimiter, []byte("f29edc2ae347e99e996cf426a9068abd72bbac08f131d7b7d863f0430600434a"),
		[]byte(`{"msg_id":"1"}`), []byte(`{}`), []byte(`{}`), []byte(`{"code":"1+1"}`)}
	upper := cloneFrames(good)
	upper[2] = bytes.ToUpper(upper[2])
	forged := cloneFrames(good)
	forged[6] = []byte(`{"code":"os.Exit(1)"}`)
	badHeader := cloneFrames(good)
	badHeader[3] = []byte(`{"msg_id":`)
	twoDelimiters := append([][]byte{[]byte("id"), delimiter}, good...)
	// JSON that is not an object, where one is required; json.Unmarshal takes null into a struct
	// or a map, and content was only checked with json.Valid.
	var notObject []decodeSeed
	for i, v := range []string{"null", "null", "null", "[1]"} {
		frames := cloneFrames(good)
		frames[3+i] = []byte(v)
		notObject = append(notObject, decodeSeed{key, true, frames})
	}

	return append([]decodeSeed{
		{key, false, good},
		{key, false, reply},
		{key, false, kernelInfo},
		{key, false, comm},
		{key, false, upper},
		{[]byte("secret-key"), false, knownAnswer},
		{nil, false, unsigned},
		{nil, false, good}, // no key: the signature is not checked
		{key, false, unsigned},
		{key, false, otherKey},
		{key, false, forged},
		{key, true, forged},
		{key, true, badHeader},
		{key, false, twoDelimiters},
		{key, false, [][]byte{[]byte("a"), []byte("b")}},
		{key, false, good[:5]},
		{key, false, nil},
	}, notObject...)
}

// joinFrames and splitFrames are the fuzzer's encoding of a frame list.
func joinFrames(frames [][]byte) []byte { return bytes.Join(frames, []byte{0}) }
func splitFrames(b []byte) [][]byte     { return bytes.Split(b, []byte{0}) }

func cloneFrames(frames [][]byte) [][]byte {
	c := make([][]byte, len(frames))
	for i, f := range frames {
		c[i] = append([]byte(nil), f...)
	}
	return c
}

func equalFrames(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func delimiterIndex(frames [][]byte) int {
	for i, f := range frames {
		if string(f) == "<IDS|MSG>" {
			return i
		}
	}
	return -1
}

// hmacHex is the signature oracle: lower-case hex HMAC-SHA256 of the frames under key.
func hmacHex(key []byte, frames [][]byte) []byte {
	h := hmac.New(sha256.New, key)
	for _, f := range frames {
		h.Write(f)
	}
	return []byte(hex.EncodeToString(h.Sum(nil)))
}

// sigMatches reports whether sig is the frames' HMAC as hex digits of either case.
func sigMatches(key, sig []byte, frames [][]byte) bool {
	got, err := hex.DecodeString(string(sig))
	if err != nil {
		return false
	}
	want, _ := hex.DecodeString(string(hmacHex(key, frames)))
	return bytes.Equal(got, want)
}

// isJSONObject reports whether b is one valid JSON value, an object.
func isJSONObject(b []byte) bool {
	t := bytes.TrimLeft(b, " \t\r\n")
	return json.Valid(b) && len(t) > 0 && t[0] == '{'
}

func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
}

// sameMessage describes how b differs from a, or returns "". Content is raw JSON and compared
// as values (encode compacts it); numbers are compared as written.
func sameMessage(a, b *Message) string {
	switch {
	case !equalFrames(a.Identities, b.Identities):
		return "identities"
	case a.Header != b.Header:
		return "header"
	case (a.ParentHeader == nil) != (b.ParentHeader == nil),
		a.ParentHeader != nil && *a.ParentHeader != *b.ParentHeader:
		return "parent_header"
	case !reflect.DeepEqual(a.Metadata, b.Metadata):
		return "metadata"
	case !equalFrames(a.Buffers, b.Buffers):
		return "buffers"
	}
	ca, erra := jsonValue(a.Content)
	cb, errb := jsonValue(b.Content)
	if erra != nil || errb != nil || !reflect.DeepEqual(ca, cb) {
		return "content"
	}
	return ""
}

func jsonValue(content any) (any, error) {
	raw, ok := content.(json.RawMessage)
	if !ok {
		return nil, errors.New("content is not raw JSON")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}
