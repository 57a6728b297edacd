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
// line per submission to log (nil: none) as each ends. Only the original failing to read, or
// having no checks, is an error: a submission that fails is graded as failing.
func Run(ctx context.Context, opts Options, against string, paths []string, log io.Writer) ([]Check, []*Result, error) {
	original, err := ReadNotebook(against)
	if err != nil {
		return nil, nil, fmt.Errorf("grade: --against: %w", err)
	}
	checks, err := Checks(original)
	if err != nil {
		return nil, nil, err
	}
	names := StudentNames(paths, against)
	results := make([]*Result, len(paths))
	work := make(chan int)
	var wg sync.WaitGroup
	var logMu sync.Mutex
	for range max(opts.Jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				r := grade(ctx, opts, checks, names[i], paths[i])
				results[i] = r
				if log != nil {
					logMu.Lock()
					fmt.Fprintln(log, r.summary())
					logMu.Unlock()
				}
			}
		}()
	}
	for i := range paths {
		work <- i
	}
	close(work)
	wg.Wait()
	return checks, results, nil
}

// summary is a one-line account of a result: "alice: 12/13 points in 4.1 s".
func (r *Result) summary() string {
	if r.Skipped != nil {
		return fmt.Sprintf("%s: not graded: %v", r.Student, r.Skipped)
	}
	got, of := r.Total()
	s := fmt.Sprintf("%s: %g/%g points in %.1f s", r.Student, got, of, r.Elapsed.Seconds())
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

// StudentNames names each submission by its file name without .ipynb ("alice.ipynb" → "alice"),
// or, when that is the original notebook's name (nbgrader's layout, alice/07-exercises.ipynb),
// by its folder's name. A name that repeats gets "-2", "-3", … after it.
func StudentNames(paths []string, against string) []string {
	stem := func(p string) string { return strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)) }
	names := make([]string, len(paths))
	seen := map[string]int{}
	for i, p := range paths {
		n := stem(p)
		if n == stem(against) {
			n = filepath.Base(filepath.Dir(p))
		}
		seen[n]++
		if seen[n] > 1 {
			n = fmt.Sprintf("%s-%d", n, seen[n])
		}
		names[i] = n
	}
	return names
}
