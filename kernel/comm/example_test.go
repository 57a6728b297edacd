package comm_test

import (
	"fmt"

	"github.com/gptnotes/gptnotes/kernel/comm"
)

// wire prints what the kernel would send.
type wire struct{}

func (wire) Open(id, target string, data, metadata map[string]any, buffers [][]byte) {
	fmt.Println("comm_open", target, data, metadata, buffers)
}
func (wire) Msg(id string, data map[string]any, buffers [][]byte) {
	fmt.Printf("comm_msg %v %q\n", data, buffers)
}
func (wire) Close(id string, data map[string]any) { fmt.Println("comm_close", data) }

func Example() {
	comm.SetTransport(wire{})
	defer comm.SetTransport(nil)

	// An echo target: every message the frontend sends comes back doubled, its buffers too.
	comm.Register("echo", func(c *comm.Comm, data map[string]any) {
		c.OnMsgBuffers(func(data map[string]any, buffers [][]byte) {
			for i, b := range buffers {
				buffers[i] = append(b, b...)
			}
			c.Send(map[string]any{"value": data["value"].(float64) * 2}, buffers...)
		})
	})

	// What the kernel does when the frontend opens a comm and sends to it.
	comm.HandleOpen("c1", "echo", nil)
	comm.HandleMsg("c1", map[string]any{"value": 21.0}, []byte("ab"))
	fmt.Println(comm.Info("echo"))
	comm.HandleClose("c1", nil)
	fmt.Println(comm.Info(""), comm.HandleMsg("c1", nil))
	fmt.Println(comm.HandleOpen("c2", "nope", nil))
	// Output:
	// comm_msg map[value:42] ["abab"]
	// map[c1:echo]
	// map[] comm: message to c1: no such comm
	// comm: open c2: no target "nope" registered
}
