package grade

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Stage makes the files a kernel reads outside its directories (its program, the models)
// reachable to u when only a folder on the way keeps u out: a checkout in root's home (0700
// on Debian) or in a `mktemp -d` folder. Each such file is linked, or copied where it cannot
// be, into a folder of the grader's under the system's temporary folder that u may enter, files
// of one folder together (a model's tokenizer stays beside it). It returns the path each file
// is to be read at (the same path when u reaches it already) and the staging folder to remove
// after grading ("" when nothing was staged). A file whose own mode keeps u out is an error:
// its owner said who may read it.
func Stage(u *User, files []string) (paths []string, dir string, err error) {
	paths = make([]string, len(files))
	into := map[string]string{} // original folder → its folder in the staging folder
	for i, f := range files {
		paths[i] = f
		if u == nil || u.CanRead(f) == nil {
			continue
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, dir, err
		}
		if !u.may(abs, 4) {
			return nil, dir, fmt.Errorf("grade: %s cannot read %s (its mode)", u.Name, abs)
		}
		if dir == "" {
			if dir, err = os.MkdirTemp("", tempPrefix()+"reads-"); err != nil {
				return nil, "", fmt.Errorf("grade: stage the kernel's files: %w", err)
			}
		}
		sub, ok := into[filepath.Dir(abs)]
		if !ok {
			sub = filepath.Join(dir, fmt.Sprint(len(into)))
			into[filepath.Dir(abs)] = sub
			if err := os.Mkdir(sub, 0o755); err != nil {
				return nil, dir, fmt.Errorf("grade: stage the kernel's files: %w", err)
			}
		}
		paths[i] = filepath.Join(sub, filepath.Base(abs))
		if err := linkOrCopy(abs, paths[i]); err != nil {
			return nil, dir, fmt.Errorf("grade: stage %s for %s: %w", abs, u.Name, err)
		}
	}
	if dir != "" {
		if err := os.Chmod(dir, 0o755); err != nil { // MkdirTemp made it 0700
			return nil, dir, fmt.Errorf("grade: stage the kernel's files: %w", err)
		}
	}
	return paths, dir, nil
}

// linkOrCopy makes to the same file as from: a hard link on the same file system, a copy with
// from's mode otherwise.
func linkOrCopy(from, to string) error {
	if os.Link(from, to) == nil {
		return nil
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
