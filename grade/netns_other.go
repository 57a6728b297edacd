//go:build !linux

package grade

import (
	"sync/atomic"
	"syscall"
)

// Network namespaces are Linux's: elsewhere a kernel shares the grader's network.
type netIsolation int32

const netShared netIsolation = 0

var netMode atomic.Int32

func (netIsolation) String() string                         { return "the grader's network" }
func isolateNetwork(a *syscall.SysProcAttr, m netIsolation) {}
func refusedNamespace(m netIsolation, err error) bool       { return false }
