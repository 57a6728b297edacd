package grade

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
)

// A User is who the kernels run as when the grader runs as root: an account with no privilege
// (nobody, by default), so that a submission cannot make device nodes, read files only root
// may, or undo its limits, even where the sandbox would let it.
type User struct {
	Name     string // e.g. "nobody"
	UID, GID int    // e.g. 65534, 65534
}

// LookupUser finds the account name.
func LookupUser(name string) (*User, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("grade: --user: %w", err)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("grade: --user %s: ids %q and %q are not numbers", name, u.Uid, u.Gid)
	}
	return &User{Name: name, UID: uid, GID: gid}, nil
}

// CanRead says why u cannot read the file path by its permissions (a folder on the way that it
// may not enter, the file it may not read), nil when it can: the model a kernel loads must be
// readable to the user it runs as, or every submission's setup cell would fail.
func (u *User) CanRead(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if !u.may(dir, 1) { // search (x)
			return fmt.Errorf("grade: %s cannot enter %s, on the way to %s", u.Name, dir, abs)
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	if !u.may(abs, 4) { // read (r)
		return fmt.Errorf("grade: %s cannot read %s", u.Name, abs)
	}
	return nil
}

// may reports whether u has right (4 read, 2 write, 1 search) on path by its mode bits: the
// owner's, the group's (u's own group only) or the others'.
func (u *User) may(path string, right os.FileMode) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	uid, gid, ok := owner(fi)
	mode := fi.Mode().Perm()
	switch {
	case !ok:
		return true // the system does not say: the kernel will, loading it
	case uid == u.UID:
		return mode>>6&right != 0
	case gid == u.GID:
		return mode>>3&right != 0
	}
	return mode&right != 0
}

// give makes paths u's, so that a kernel running as u can use them: its work directory, the
// notebook's copy, its private directory and connection file. Nil u: nothing to do.
func (u *User) give(paths ...string) error {
	if u == nil {
		return nil
	}
	for _, p := range paths {
		if err := os.Lchown(p, u.UID, u.GID); err != nil {
			return fmt.Errorf("grade: %w", err)
		}
	}
	return nil
}
