package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/grade"
	"github.com/gptnotes/gptnotes/kernel"
)

func init() {
	register(command{name: "grade", summary: "grade submitted exercise notebooks, each on a fresh kernel", run: runGrade})
}

// errWindowsGrade is why grade refuses to run on Windows: nothing there confines a submission
// (Landlock is Linux's), and the grader talks to its kernels over Unix sockets.
var errWindowsGrade = errors.New("grade does not run on Windows: a submission would run with everything " +
	"this account can reach (its files, its network), with nothing to confine it; grade on Linux " +
	"(a class's hub, a container, WSL)")

func runGrade(args []string) error {
	fs := newFlags("grade", "--against NOTEBOOK [--out DIR] [--timeout-cell D] [--timeout-notebook D] [--memory N] [--jobs N] [--exam] SUBMISSIONS…",
		"Runs each submitted notebook on a fresh kernel, in its own process and temporary directory, with\n"+
			"the check cells of NOTEBOOK (the notebook the class was given) in place of the submission's,\n"+
			"and writes DIR/grades.csv, DIR/summary.md and DIR/feedback/STUDENT.html, each student's as soon as\n"+
			"they are graded. A rerun into the same DIR grades only the submissions it has no grades of\n"+
			"(DIR/graded.jsonl: same student, same file, same NOTEBOOK); delete that file to grade all again.")
	against := fs.String("against", "", "the original notebook, whose check cells (nbgrader grade cells) are run")
	out := fs.String("out", "grades", "where to write grades.csv, summary.md, feedback/ and graded.jsonl")
	timeout := fs.Duration("timeout-cell", time.Minute, "a cell's time limit: then it is interrupted, and 5 s later the kernel is killed")
	budget := fs.Duration("timeout-notebook", 10*time.Minute, "a submission's time budget: then its running cell is interrupted and no later cell runs (0: none)")
	memory := fs.String("memory", "2GiB", "each kernel's memory limit (GPTNOTES_MEMORY_LIMIT), e.g. 512MiB or 2GiB")
	jobs := fs.Int("jobs", runtime.NumCPU(), "submissions graded at once")
	exam := fs.Bool("exam", false, "reserve the library functions the checks call for the checks: an answer may not call them")
	runAs := fs.String("user", "", "as root: the account the kernels run as (default nobody); it must be able to read the model")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *against == "" || fs.NArg() == 0 {
		fs.Usage()
		return errors.New("want --against NOTEBOOK and at least one submission")
	}
	if runtime.GOOS == "windows" {
		return errWindowsGrade
	}
	limit, err := kernel.ParseMemoryLimit(*memory)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	opts := grade.Options{
		Kernel:          []string{exe, "kernel"},
		CellTimeout:     *timeout,
		NotebookTimeout: *budget,
		Memory:          limit,
		Jobs:            max(*jobs, 1),
		Threads:         max(runtime.NumCPU()/max(*jobs, 1), 1),
		Exam:            *exam,
		Out:             *out,
	}
	if opts.User, err = kernelUser(*runAs); err != nil {
		return err
	}
	opts.KernelReads = append([]string{exe}, modelFiles()...)
	if opts.User != nil {
		staged, err := stageKernelReads(&opts)
		if staged != "" {
			defer os.RemoveAll(staged)
		}
		if err != nil {
			return fmt.Errorf("%w: the kernels run as %[2]s; make it readable to %[2]s, or name another --user", err, opts.User.Name)
		}
	}
	if err := grade.ConfineAvailable(); err != nil {
		fmt.Fprintf(os.Stderr, "gptnotes grade: warning: %v: each submission can read and write any file this user can\n", err)
	} else {
		opts.Confine = true
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	_, results, err := grade.Run(ctx, opts, *against, fs.Args(), os.Stderr) // writes each student's rows as they end
	if err != nil {
		return err
	}
	fmt.Printf("%d submissions graded: %s\n", len(results), filepath.Join(*out, "summary.md"))
	return nil
}

// kernelUser is who the kernels run as: as root, the account name (nobody when ""); otherwise
// the grader's own user (nil), and name must be "".
func kernelUser(name string) (*grade.User, error) {
	if os.Geteuid() != 0 {
		if name != "" {
			return nil, fmt.Errorf("--user %s: only a grader run as root can run its kernels as another user", name)
		}
		return nil, nil
	}
	if name == "" {
		name = "nobody"
	}
	u, err := grade.LookupUser(name)
	if err != nil {
		return nil, err
	}
	if u.UID == 0 {
		fmt.Fprintf(os.Stderr, "gptnotes grade: warning: --user %s: the kernels run as root: a submission can make device nodes and read what only root may, where the sandbox lets it\n", name)
		return nil, nil
	}
	return u, nil
}

// stageKernelReads puts the kernel's program and models where opts.User can read them when
// only a folder on the way keeps it out (grade.Stage), and points the kernels there: their
// command, and GPTNOTES_MODEL, GPTNOTES_LESSON_MODEL and GPT2_WEIGHTS, which the grader passes
// on to them. It returns the staging folder ("" for none).
func stageKernelReads(opts *grade.Options) (string, error) {
	paths, dir, err := grade.Stage(opts.User, opts.KernelReads)
	if err != nil {
		return dir, err
	}
	moved := map[string]string{}
	for i, p := range opts.KernelReads {
		if paths[i] != p {
			moved[p] = paths[i]
		}
	}
	if len(moved) == 0 {
		return dir, nil
	}
	if to, ok := moved[opts.Kernel[0]]; ok {
		opts.Kernel[0] = to
	}
	for env, find := range map[string]func() (string, error){"GPTNOTES_MODEL": gpt.ShippedModelPath, "GPTNOTES_LESSON_MODEL": gpt.LessonModelPath, "GPT2_WEIGHTS": gpt.Find} {
		if p, err := find(); err == nil {
			if to, ok := moved[p]; ok {
				os.Setenv(env, to)
			}
		}
	}
	fmt.Fprintf(os.Stderr, "gptnotes grade: %s cannot reach %d of the files a kernel reads where they are; linked or copied to %s\n", opts.User.Name, len(moved), dir)
	opts.KernelReads = paths
	return dir, nil
}
