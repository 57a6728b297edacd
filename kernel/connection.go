package kernel

import (
	"encoding/json"
	"fmt"
	"os"
)

// A ConnectionInfo is the connection file Jupyter writes before starting a kernel: where to bind
// the five sockets and the key that signs every message.
type ConnectionInfo struct {
	Transport       string `json:"transport"` // "tcp" or "ipc"
	IP              string `json:"ip"`        // e.g. "127.0.0.1"; the only address bound
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`              // HMAC key; empty disables signing
	SignatureScheme string `json:"signature_scheme"` // "hmac-sha256"
	KernelName      string `json:"kernel_name"`
}

// ReadConnectionFile parses a connection file and checks the parts the kernel depends on.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	var c ConnectionInfo
	data, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("kernel: read connection file: %w", err)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("kernel: parse connection file %s: %w", path, err)
	}
	if c.Transport == "" {
		c.Transport = "tcp"
	}
	if c.Transport != "tcp" && c.Transport != "ipc" {
		return c, fmt.Errorf("kernel: connection file %s: transport %q, want tcp or ipc", path, c.Transport)
	}
	if c.IP == "" {
		return c, fmt.Errorf("kernel: connection file %s: no ip", path)
	}
	if c.Key != "" && c.SignatureScheme != "" && c.SignatureScheme != "hmac-sha256" {
		return c, fmt.Errorf("kernel: connection file %s: signature_scheme %q, want hmac-sha256", path, c.SignatureScheme)
	}
	return c, nil
}

// endpoint is the ZeroMQ address of one port: tcp://127.0.0.1:5555, or ipc://path-5555 as
// jupyter_client names ipc sockets.
func (c ConnectionInfo) endpoint(port int) string {
	if c.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", c.IP, port)
	}
	return fmt.Sprintf("tcp://%s:%d", c.IP, port)
}
