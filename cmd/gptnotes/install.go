package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

func init() {
	register(command{name: "install", summary: "write the Jupyter kernelspec for this binary", run: runInstall})
}

// kernelSpec is Jupyter's kernel.json.
type kernelSpec struct {
	Argv          []string       `json:"argv"`
	DisplayName   string         `json:"display_name"`
	Language      string         `json:"language"`
	InterruptMode string         `json:"interrupt_mode"` // "message": interrupt_request on control, not SIGINT
	Metadata      map[string]any `json:"metadata"`
}

func runInstall(args []string) error {
	fs := newFlags("install", "[--user | --prefix DIR] [--name NAME]",
		"Writes the kernelspec (kernel.json and a logo) that makes Jupyter start this binary as a kernel.\nWithout --prefix it goes to the user's Jupyter data directory.")
	user := fs.Bool("user", true, "install for the current user (the default)")
	prefix := fs.String("prefix", "", "install under `DIR`/share/jupyter/kernels instead (a virtualenv, a test's temp dir)")
	name := fs.String("name", "gptnotes", "kernelspec `NAME` (the directory name)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	dir, err := installKernelSpec(*user, *prefix, *name)
	if err != nil {
		return err
	}
	fmt.Printf("installed kernelspec %s in %s\n", *name, dir)
	return nil
}

// installKernelSpec writes kernel.json and logo-64x64.png and returns their directory.
func installKernelSpec(user bool, prefix, name string) (string, error) {
	bin, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("install: find this binary: %w", err)
	}
	if bin, err = filepath.EvalSymlinks(bin); err != nil {
		return "", fmt.Errorf("install: resolve %s: %w", bin, err)
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return "", fmt.Errorf("install: %w", err)
	}
	var root string
	switch {
	case prefix != "":
		root = filepath.Join(prefix, "share", "jupyter")
	case user:
		if root, err = userDataDir(); err != nil {
			return "", err
		}
	default:
		root = "/usr/local/share/jupyter"
	}
	dir := filepath.Join(root, "kernels", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("install: %w", err)
	}
	spec := kernelSpec{
		Argv:          []string{bin, "kernel", "{connection_file}"},
		DisplayName:   "Go (gptnotes)",
		Language:      "go",
		InterruptMode: "message",
		Metadata:      map[string]any{},
	}
	data, _ := json.MarshalIndent(spec, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "kernel.json"), append(data, '\n'), 0o644); err != nil {
		return "", fmt.Errorf("install: %w", err)
	}
	if err := writeLogo(filepath.Join(dir, "logo-64x64.png")); err != nil {
		return "", fmt.Errorf("install: %w", err)
	}
	return dir, nil
}

// userDataDir is Jupyter's per-user data directory, as jupyter_core computes it.
func userDataDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("install: no home directory for --user: %w", err)
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Jupyter"), nil
	case "windows":
		return filepath.Join(os.Getenv("APPDATA"), "jupyter"), nil
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "jupyter"), nil
	}
	return filepath.Join(home, ".local", "share", "jupyter"), nil
}
