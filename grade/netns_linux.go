package grade

import (
	"errors"
	"os"
	"sync/atomic"
	"syscall"
)

// A netIsolation is how a kernel is kept off the network and away from the other kernels'
// sockets: a network namespace of its own has no interface but a loopback that is down, so it
// sends nothing (TCP, UDP, anything), and its /proc/net/unix lists its own sockets only. The
// grader still reaches the kernel: the kernel's ipc sockets are files in its private directory,
// and a socket with a path is found through the file system, whatever the namespace.
type netIsolation int32

const (
	// netNamespace is a network namespace of its own: for root (CAP_SYS_ADMIN).
	netNamespace netIsolation = iota
	// netUserNamespace is a network namespace inside a user namespace of its own, where the
	// grader's user is mapped to itself: for anyone, where the system allows user namespaces.
	netUserNamespace
	// netShared is the grader's own network: what is left where neither can be made.
	netShared
)

// netMode is the best isolation not yet refused here: startKernel tries it and, refused, moves
// it on to the next (once per grader, not per kernel).
var netMode atomic.Int32

func (m netIsolation) String() string {
	return [...]string{"a network namespace of its own", "a user and network namespace of its own", "the grader's network"}[m]
}

// isolateNetwork sets a's namespaces for mode m.
func isolateNetwork(a *syscall.SysProcAttr, m netIsolation) {
	switch m {
	case netNamespace:
		a.Cloneflags |= syscall.CLONE_NEWNET
	case netUserNamespace:
		a.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
		a.GidMappingsEnableSetgroups = false
	}
}

// refusedNamespace reports whether a failed start was the system refusing mode m's namespaces
// (no privilege, user namespaces disabled or used up), so that the next mode is worth a try.
func refusedNamespace(m netIsolation, err error) bool {
	return m < netShared && (errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) ||
		errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EUSERS))
}
