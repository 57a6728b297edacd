package kernel

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"
)

// A Header identifies a message; a reply carries its request's header as parent_header.
type Header struct {
	MsgID    string  `json:"msg_id"`
	Session  string  `json:"session"` // one per kernel process, one per client
	Username string  `json:"username"`
	Date     string  `json:"date"` // ISO 8601, UTC
	MsgType  MsgType `json:"msg_type"`
	Version  string  `json:"version"`
}

// A Message is one Jupyter message, as received or about to be sent.
// Content is json.RawMessage when received, any JSON-marshalable value when sent.
type Message struct {
	Identities   [][]byte // ZeroMQ routing ids; replies go back with the request's
	Header       Header
	ParentHeader *Header // nil is the empty parent {}
	Metadata     map[string]any
	Content      any
	Buffers      [][]byte
}

// newID returns a random 32-hex-digit id for messages and sessions.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// newHeader is a fresh header of the given type in the kernel's session.
func newHeader(t MsgType, session string) Header {
	return Header{
		MsgID:    newID(),
		Session:  session,
		Username: "kernel",
		Date:     time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"),
		MsgType:  t,
		Version:  ProtocolVersion,
	}
}

// decodeContent unmarshals a received message's content into v.
func (m *Message) decodeContent(v any) error {
	raw, _ := m.Content.(json.RawMessage)
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	return json.Unmarshal(raw, v)
}
