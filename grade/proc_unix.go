//go:build unix

package grade

import (
	"os/exec"
	"syscall"
)

// ownGroup makes cmd the leader of a new process group, so killGroup reaches what it starts,
// that dies with the grader where the platform can (dieWithParent), in the network
// namespaces of net (isolateNetwork), as user u (nil: the grader's own).
func ownGroup(cmd *exec.Cmd, net netIsolation, u *User) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
	isolateNetwork(cmd.SysProcAttr, net)
	runAs(cmd.SysProcAttr, u)
}

// interrupt sends the kernel SIGINT, which stops its running cell.
func (p *proc) interrupt() { syscall.Kill(p.cmd.Process.Pid, syscall.SIGINT) }

// terminate sends the kernel SIGTERM, which ends it.
func terminate(cmd *exec.Cmd) { syscall.Kill(cmd.Process.Pid, syscall.SIGTERM) }

// killGroup kills the kernel's process group.
func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// running reports whether process pid exists (signal 0 checks without sending).
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
