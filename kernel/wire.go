package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
)

// The wire format of one message, as ZeroMQ frames:
//
//	[identities…, "<IDS|MSG>", signature, header, parent_header, metadata, content, buffers…]
//
// signature is the hex HMAC-SHA256 of the four JSON frames, in that order, keyed by the
// connection file's key; with an empty key it is empty and not checked.
var delimiter = []byte("<IDS|MSG>")

// Errors of decode; the kernel logs and drops such messages.
var (
	ErrNoDelimiter  = errors.New("kernel: wire: no <IDS|MSG> delimiter")
	ErrShortMessage = errors.New("kernel: wire: fewer than 5 frames after the delimiter")
	ErrBadSignature = errors.New("kernel: wire: signature does not match")
)

// A signer computes message signatures; the zero signer (no key) signs nothing.
type signer struct {
	key []byte
}

func (s signer) mac() hash.Hash {
	if len(s.key) == 0 {
		return nil
	}
	return hmac.New(sha256.New, s.key)
}

// sign returns the hex signature of the four JSON frames.
func (s signer) sign(header, parent, metadata, content []byte) []byte {
	h := s.mac()
	if h == nil {
		return nil
	}
	for _, f := range [][]byte{header, parent, metadata, content} {
		h.Write(f)
	}
	sig := make([]byte, hex.EncodedLen(h.Size()))
	hex.Encode(sig, h.Sum(nil))
	return sig
}

// verify compares sig with the frames' signature in constant time.
func (s signer) verify(sig, header, parent, metadata, content []byte) bool {
	if len(s.key) == 0 {
		return true
	}
	want := s.sign(header, parent, metadata, content)
	return hmac.Equal(want, bytes.ToLower(sig))
}

// encode turns m into frames, signing them. Content must marshal as JSON.
func (s signer) encode(m *Message) ([][]byte, error) {
	header, err := json.Marshal(m.Header)
	if err != nil {
		return nil, fmt.Errorf("kernel: wire: encode header: %w", err)
	}
	parent := []byte("{}")
	if m.ParentHeader != nil {
		if parent, err = json.Marshal(m.ParentHeader); err != nil {
			return nil, fmt.Errorf("kernel: wire: encode parent_header: %w", err)
		}
	}
	metadata := []byte("{}")
	if len(m.Metadata) > 0 {
		if metadata, err = json.Marshal(m.Metadata); err != nil {
			return nil, fmt.Errorf("kernel: wire: encode metadata of %s: %w", m.Header.MsgType, err)
		}
	}
	content := []byte("{}")
	if m.Content != nil {
		if content, err = json.Marshal(m.Content); err != nil {
			return nil, fmt.Errorf("kernel: wire: encode content of %s: %w", m.Header.MsgType, err)
		}
	}
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, delimiter, s.sign(header, parent, metadata, content), header, parent, metadata, content)
	frames = append(frames, m.Buffers...)
	return frames, nil
}

// decode parses frames into a message after checking the signature. Content stays raw JSON
// (json.RawMessage) until a handler decodes it into its request type.
func (s signer) decode(frames [][]byte) (*Message, error) {
	d := -1
	for i, f := range frames {
		if bytes.Equal(f, delimiter) {
			d = i
			break
		}
	}
	if d < 0 {
		return nil, ErrNoDelimiter
	}
	if len(frames)-d-1 < 5 {
		return nil, ErrShortMessage
	}
	sig, header, parent, metadata, content := frames[d+1], frames[d+2], frames[d+3], frames[d+4], frames[d+5]
	if !s.verify(sig, header, parent, metadata, content) {
		return nil, ErrBadSignature
	}
	// Each is a JSON object: json.Unmarshal takes null into a struct or map, json.Valid any value.
	for i, f := range [][]byte{header, parent, metadata, content} {
		if !isObject(f) {
			return nil, fmt.Errorf("kernel: wire: decode %s: not a JSON object", [...]string{"header", "parent_header", "metadata", "content"}[i])
		}
	}
	m := &Message{Identities: frames[:d], Buffers: frames[d+6:]}
	if err := json.Unmarshal(header, &m.Header); err != nil {
		return nil, fmt.Errorf("kernel: wire: decode header: %w", err)
	}
	var p Header
	if err := json.Unmarshal(parent, &p); err != nil {
		return nil, fmt.Errorf("kernel: wire: decode parent_header of %s: %w", m.Header.MsgType, err)
	}
	if p.MsgID != "" {
		m.ParentHeader = &p
	}
	if err := json.Unmarshal(metadata, &m.Metadata); err != nil {
		return nil, fmt.Errorf("kernel: wire: decode metadata of %s: %w", m.Header.MsgType, err)
	}
	if !json.Valid(content) {
		return nil, fmt.Errorf("kernel: wire: decode content of %s: invalid JSON", m.Header.MsgType)
	}
	m.Content = json.RawMessage(content)
	return m, nil
}

// isObject reports whether b, after white space, starts a JSON object; decode's json.Unmarshal
// or json.Valid checks the rest.
func isObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}
