package grade

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
)

// Run grades the submissions at paths against the check cells of the original notebook
// against, opts.Jobs at a time, and returns their results in the order of paths. It writes a
// line per submission to log (nil: none) and, with opts.Out, its rows, summary line and
// feedback page to the report (Write's files) as each ends; a submission an earlier run into
// opts.Out graded, unchanged since, against the same original, is not run again. On Linux it
// makes this process the subreaper of its kernels' descendants (what a kernel that ended on
// its own leaves is killed when it ends). Only the
// original failing to read, having no checks, or the report failing to write is an error: a
// submission that fails is graded as failing.
func Run(ctx context.Context, opts Options, against string, paths []string, log io.Writer) ([]Check, []*Result, error) {
	original, err := ReadNotebook(against)
	if err != nil {
		return nil, nil, fmt.Errorf("grade: --against: %w", err)
	}
	checks, err := Checks(original)
	if err != nil {
		return nil, nil, err
	}
	if opts.Exam {
		opts.reserved = Reserved(original, checks)
		if log != nil {
			fmt.Fprintf(log, "exam: of these names the checks use, the functions are the checks' own: %s\n", strings.Join(opts.reserved, ", "))
		}
	}
	if opts.User != nil {
		for _, f := range opts.KernelReads {
			if err := opts.User.CanRead(f); err != nil {
				return nil, nil, fmt.Errorf("%w: the kernels run as %[2]s; make it readable to %[2]s, or name another --user", err, opts.User.Name)
			}
		}
	}
	seen := map[string]bool{}
	for _, p := range paths {
		abs, _ := filepath.Abs(p)
		if seen[abs] {
			return nil, nil, fmt.Errorf("grade: %s: given twice", p)
		}
		seen[abs] = true
	}
	// The temporary directories of a grader killed before it could remove them go; this
	// process becomes the subreaper of what its kernels leave.
	removeStale()
	if err := adoptOrphans(); err != nil {
		return nil, nil, err
	}
	names := StudentNames(paths, against)
	rp, err := openReport(opts.Out, against, checks, len(paths))
	if err != nil {
		return nil, nil, err
	}
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error // the report's first write error
	for range max(opts.Jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				r := rp.gradedBefore(names[i], paths[i])
				if r == nil {
					r = grade(ctx, opts, checks, names[i], paths[i])
				}
				err := rp.add(i, r)
				mu.Lock()
				if log != nil {
					fmt.Fprintln(log, r.summary())
				}
				if err != nil && failed == nil {
					failed = err
				}
				mu.Unlock()
			}
		}()
	}
	for i := range paths {
		work <- i
	}
	close(work)
	wg.Wait()
	if log != nil && netIsolation(netMode.Load()) == netShared {
		fmt.Fprintln(log, "warning: the kernels shared the grader's network (no network namespace could be made here): a submission could send UDP and reach the other kernels' sockets")
	}
	if err := noCgroup.Load(); log != nil && err != nil {
		fmt.Fprintf(log, "warning: no cgroup per kernel (%v): a kernel's programs were limited by the watcher, between its polls not\n", *err)
	}
	if err := rp.close(); err != nil && failed == nil {
		failed = fmt.Errorf("grade: %w", err)
	}
	return checks, rp.results, failed
}

// summary is a one-line account of a result: "alice: 12/13 points in 4.1 s".
func (r *Result) summary() string {
	if r.Skipped != nil {
		return fmt.Sprintf("%s: not graded: %v", r.Student, r.Skipped)
	}
	got, of := r.Total()
	s := fmt.Sprintf("%s: %g/%g points in %.1f s", r.Student, got, of, r.Elapsed.Seconds())
	if r.Before {
		s = fmt.Sprintf("%s: %g/%g points, graded before (%s)", r.Student, got, of, journalName)
	}
	if r.Stopped != "" {
		s += "; stopped: " + r.Stopped
	}
	return s
}

// Total is the points a submission got and the points it could have.
func (r *Result) Total() (got, of float64) {
	for _, g := range r.Grades {
		got += g.Points
		of += g.Max
	}
	return got, of
}

// StudentNames gives each submission a key, unique among paths and the same whatever order
// they come in: its path from the folder that holds them all, without .ipynb ("alice.ipynb" →
// "alice", "a/alice.ipynb" → "a/alice"); in nbgrader's layout (alice/07-exercises.ipynb, the
// original's name) its folder's path ("alice"), unless another submission has that key too.
// Paths must be distinct files (Run refuses the same one twice).
func StudentNames(paths []string, against string) []string {
	abs := make([]string, len(paths))
	for i, p := range paths {
		abs[i], _ = filepath.Abs(p)
	}
	base := commonDir(abs)
	full := make([]string, len(paths))
	names := make([]string, len(paths))
	for i, p := range abs {
		rel, err := filepath.Rel(base, p)
		if err != nil {
			rel = p
		}
		full[i] = filepath.ToSlash(strings.TrimSuffix(rel, filepath.Ext(rel)))
		names[i] = full[i]
		if filepath.Base(p) == filepath.Base(against) && filepath.Dir(rel) != "." {
			names[i] = filepath.ToSlash(filepath.Dir(rel))
		}
	}
	for changed := true; changed; { // a short key that collides gives way to the full path
		changed = false
		count := map[string]int{}
		for _, n := range names {
			count[n]++
		}
		for i, n := range names {
			if count[n] > 1 && n != full[i] {
				names[i], changed = full[i], true
			}
		}
	}
	return names
}

// commonDir is the deepest folder that holds every one of paths (absolute, clean).
func commonDir(paths []string) string {
	if len(paths) == 0 {
		return "."
	}
	dir := filepath.Dir(paths[0])
	for _, p := range paths[1:] {
		for !within(dir, p) {
			dir = filepath.Dir(dir)
		}
	}
	return dir
}

// within reports whether path p is inside folder dir.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
