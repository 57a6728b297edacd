package grade

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// Confinement uses Landlock (Linux 5.13 and later): a process restricts itself, and every
// process it starts, to the files it names. The numbers below are Linux's
// (include/uapi/linux/landlock.h); each ABI version adds rights, and a right the running
// kernel does not know is left out.
const (
	sysLandlockCreateRuleset = 444 // the same number on every architecture
	sysLandlockAddRule       = 445
	sysLandlockRestrictSelf  = 446
	landlockRulePathBeneath  = 1
	landlockVersionFlag      = 1 // LANDLOCK_CREATE_RULESET_VERSION: ask for the ABI version
	prSetNoNewPrivs          = 38
	oPath                    = 0o10000000 // O_PATH (the syscall package lacks it), as on amd64, arm64, riscv64
)

// File-system rights: execute, write, read a file, read a directory (ABI 1 up to makeSym).
const (
	fsExecute = 1 << iota
	fsWriteFile
	fsReadFile
	fsReadDir
	fsRemoveDir
	fsRemoveFile
	fsMakeChar
	fsMakeDir
	fsMakeReg
	fsMakeSock
	fsMakeFifo
	fsMakeBlock
	fsMakeSym
	fsRefer    // ABI 2
	fsTruncate // ABI 3
	fsIoctlDev // ABI 5
)

const (
	netBindTCP        = 1 << 0 // ABI 4
	netConnectTCP     = 1 << 1
	scopeAbstractUnix = 1 << 0 // ABI 6
	scopeSignal       = 1 << 1
)

// systemPaths are read (and run) by a confined process: the system's programs and libraries,
// the few settings Go's library reads (not the accounts in /etc/passwd and /etc/group, nor the
// names of /etc/hosts: a kernel has no network, see netns_linux.go), the machine's description (/sys, /proc's CPU and memory
// files), its own /proc entry (not other processes': their command lines and environments), and
// the random and empty devices (not /dev/shm).
func systemPaths() []string {
	return []string{"/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin",
		"/etc/localtime", "/etc/ssl", "/etc/mime.types",
		"/sys", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", fmt.Sprintf("/proc/%d", os.Getpid()),
		"/dev/urandom", "/dev/random", "/dev/zero"}
}

type rulesetAttr struct {
	fs, net, scoped uint64
}

type pathBeneathAttr struct { // packed in C: 12 bytes, which is what the kernel reads
	allowed  uint64
	parentFD int32
}

// landlockABI is the running kernel's Landlock ABI version, or an error without Landlock.
func landlockABI() (int, error) {
	v, _, errno := syscall.Syscall(sysLandlockCreateRuleset, 0, 0, landlockVersionFlag)
	if errno != 0 {
		return 0, fmt.Errorf("grade: confine: Landlock is not available here (%v)", errno)
	}
	return int(v), nil
}

// ConfineAvailable is nil when Confine can work here, and otherwise says why not.
func ConfineAvailable() error {
	_, err := landlockABI()
	return err
}

// Confine restricts this thread and every process it starts, for good (exec, then, to confine a
// whole Go program): it may read (and run) the system's files (systemPaths) and those under
// readable, read and write under writable (but make no device node there), and nothing else; where the kernel supports it (Landlock ABI 4 and 6), it may not use TCP, connect to
// abstract Unix sockets or send signals to processes outside. A path that does not exist is
// skipped.
func Confine(writable, readable []string) error {
	abi, err := landlockABI()
	if err != nil {
		return err
	}
	all := uint64(fsExecute | fsWriteFile | fsReadFile | fsReadDir | fsRemoveDir | fsRemoveFile | fsMakeChar |
		fsMakeDir | fsMakeReg | fsMakeSock | fsMakeFifo | fsMakeBlock | fsMakeSym)
	if abi >= 2 {
		all |= fsRefer
	}
	if abi >= 3 {
		all |= fsTruncate
	}
	if abi >= 5 {
		all |= fsIoctlDev
	}
	attr := rulesetAttr{fs: all}
	size := unsafe.Sizeof(attr.fs)
	if abi >= 4 {
		attr.net = netBindTCP | netConnectTCP // handled, and no rule allows any port
		size += unsafe.Sizeof(attr.net)
	}
	if abi >= 6 {
		attr.scoped = scopeAbstractUnix | scopeSignal
		size += unsafe.Sizeof(attr.scoped)
	}
	fd, _, errno := syscall.Syscall(sysLandlockCreateRuleset, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return fmt.Errorf("grade: confine: create ruleset: %v", errno)
	}
	defer syscall.Close(int(fd))

	read := uint64(fsExecute | fsReadFile | fsReadDir)
	write := all &^ (fsMakeChar | fsMakeBlock) // no device nodes, even for root
	rules := []struct {
		paths  []string
		access uint64
	}{{systemPaths(), read}, {readable, read}, {writable, write}, {[]string{"/dev/null"}, fsReadFile | fsWriteFile}}
	for _, r := range rules {
		for _, p := range r.paths {
			if err := addRule(int(fd), p, r.access); err != nil {
				return err
			}
		}
	}
	if _, _, errno := syscall.Syscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); errno != 0 {
		return fmt.Errorf("grade: confine: no_new_privs: %v", errno)
	}
	if _, _, errno := syscall.Syscall(sysLandlockRestrictSelf, fd, 0, 0); errno != 0 {
		return fmt.Errorf("grade: confine: restrict: %v", errno)
	}
	return nil
}

// addRule allows access beneath path (or to the file path), skipping a path that is missing.
func addRule(ruleset int, path string, access uint64) error {
	f, err := os.OpenFile(path, oPath|syscall.O_CLOEXEC, 0)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return fmt.Errorf("grade: confine: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.IsDir() {
		access &= fsExecute | fsWriteFile | fsReadFile | fsTruncate | fsIoctlDev // the rights a file can have
	}
	attr := pathBeneathAttr{allowed: access, parentFD: int32(f.Fd())}
	if _, _, errno := syscall.Syscall6(sysLandlockAddRule, uintptr(ruleset), landlockRulePathBeneath,
		uintptr(unsafe.Pointer(&attr)), 0, 0, 0); errno != 0 {
		return fmt.Errorf("grade: confine: allow %s: %v", path, errno)
	}
	return nil
}
