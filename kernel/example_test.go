package kernel_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gptnotes/gptnotes/kernel"
)

func ExampleReadConnectionFile() {
	path := filepath.Join(os.TempDir(), "kernel-example.json")
	os.WriteFile(path, []byte(`{"transport": "tcp", "ip": "127.0.0.1", "shell_port": 5001,
		"iopub_port": 5002, "stdin_port": 5003, "control_port": 5004, "hb_port": 5005,
		"key": "a0436f6c-1916-498b-8eb9-e81ab9368e84", "signature_scheme": "hmac-sha256"}`), 0o600)
	defer os.Remove(path)

	conn, err := kernel.ReadConnectionFile(path)
	fmt.Println(conn.IP, conn.ShellPort, conn.SignatureScheme, err)

	os.WriteFile(path, []byte(`{"ip": "127.0.0.1", "signature_scheme": "hmac-md5", "key": "k"}`), 0o600)
	_, err = kernel.ReadConnectionFile(path)
	fmt.Println(err != nil)
	// Output:
	// 127.0.0.1 5001 hmac-sha256 <nil>
	// true
}
