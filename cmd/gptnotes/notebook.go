package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

func init() {
	register(command{name: "notebook", summary: "install the kernelspec and start Jupyter's classic notebook on notebooks/", run: runNotebook})
}

func runNotebook(args []string) error {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			fmt.Fprint(os.Stderr, `usage: gptnotes notebook [JUPYTER NOTEBOOK ARGS…]

Installs the kernelspec for the current user, then replaces itself with Jupyter's classic
notebook server (jupyter-notebook, or /usr/bin/python3 -m notebook) opened on ./notebooks
(or the current directory when there is none); as root it adds --allow-root. Every argument
goes to Jupyter, e.g.
  gptnotes notebook --no-browser --ip 0.0.0.0 --port 8888
`)
			return nil
		}
	}
	if _, err := installKernelSpec(true, "", "gptnotes"); err != nil {
		return err
	}
	jupyter, argv := notebookCommand()
	if jupyter == "" {
		return fmt.Errorf("no Jupyter notebook found: install Debian's jupyter-notebook (make deps)")
	}
	if !hasFlag(args, "--notebook-dir") {
		dir := "notebooks"
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			dir = "."
		}
		abs, _ := filepath.Abs(dir)
		argv = append(argv, "--notebook-dir="+abs)
	}
	if os.Geteuid() == 0 && !hasFlag(args, "--allow-root") {
		// Jupyter refuses root without it; root is the norm in a container and on CI.
		argv = append(argv, "--allow-root")
	}
	argv = append(argv, args...)
	fmt.Fprintf(os.Stderr, "gptnotes: %s\n", strings.Join(argv, " "))
	// Exec, not a child: Ctrl-C and the server's own shutdown prompt then behave as usual.
	if err := syscall.Exec(jupyter, argv, os.Environ()); err != nil {
		return fmt.Errorf("exec %s: %w", jupyter, err)
	}
	return nil
}

// notebookCommand finds the classic notebook server: the jupyter-notebook script, else
// Debian's Python with -m notebook.
func notebookCommand() (string, []string) {
	if p, err := exec.LookPath("jupyter-notebook"); err == nil {
		return p, []string{p}
	}
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if p, err := exec.LookPath(py); err == nil {
			if exec.Command(p, "-c", "import notebook").Run() == nil {
				return p, []string{p, "-m", "notebook"}
			}
		}
	}
	return "", nil
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}
