// Package grade grades submitted exercise notebooks: each runs on a fresh gptnotes kernel, the
// check cells of the original notebook are run in place of the submission's, and the verdicts
// become a CSV, a Markdown summary and an HTML feedback page per student.
//
// A check cell is an nbgrader grade cell (metadata nbgrader.grade, with a grade_id and points,
// as notebooks/build.py writes them): it fails by panicking with "not yet: …", and passes when it
// runs to its end, which the grader learns from a secret line it adds there (verdict.go). It runs
// sealed: the kernel refuses it when a name it uses (panic, fmt) is one the submission redefined. Checks are matched by grade_id, so a check cell the student
// edited is replaced by the original, one they deleted is put back after its answer cell, and
// the report says so.
//
// Submissions are untrusted code. Each runs in its own kernel process, started in a temporary
// directory that holds only a copy of its notebook, with HOME and TMPDIR there and no path to
// the other submissions or to the output directory in its arguments or environment. On Linux
// the kernel confines itself with Landlock to its own directories (Confine), so it cannot reach
// them by guessing either; it has a network namespace of its own (no network, no other
// kernel's sockets) and a cgroup that holds it and all it starts, and runs as nobody when the
// grader is root. The kernel's memory limit (GPTNOTES_MEMORY_LIMIT) stops a cell that
// allocates without end; a cell past the time limit is interrupted and, if it does not stop,
// the kernel is killed. Whatever a submission did not reach scores zero, with the reason. Each
// submission's rows, summary line and feedback page are written as it ends (journal.go), and a
// rerun into the same directory grades only the submissions it has no grades of.
//
// Reading order: notebook.go (the notebook file), plan.go (which cells run: the submission's,
// with the original checks), verdict.go (how a check's pass is known), run.go (one submission
// on one kernel), proc.go (the kernel's
// process: start, interrupt, kill, the watcher), confine_linux.go (Landlock), netns_linux.go
// (a network namespace per kernel), cgroup_linux.go (a cgroup per kernel: the memory and tasks
// of all it starts), user.go (the unprivileged user a root grader runs kernels as),
// limits_linux.go and tree_linux.go (the limits of what a kernel starts, and its end),
// grade.go (all submissions, in parallel), journal.go (the report as each ends, and reruns),
// report.go (grades.csv, summary.md, feedback/*.html).
//
//	checks, results, err := grade.Run(ctx, grade.Options{Kernel: []string{exe, "kernel"},
//		CellTimeout: time.Minute, Memory: 2 << 30, Jobs: 2, Out: "grades"}, "07-exercises.ipynb", paths, os.Stderr)
package grade
