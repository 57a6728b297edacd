package grade

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"time"
)

// MaxDisk is how much a kernel may have written in its two directories (the only ones it may
// write in, confined) all told, and MaxFiles how many files and folders it may have made there:
// past either, checked every half second, the kernel is killed. Each file is capped too, at
// MaxFileSize, by the system (RLIMIT_FSIZE), so between two checks a kernel writes at most what
// its disk takes in half a second.
const (
	MaxDisk  = 1 << 30
	MaxFiles = 10000
)

// watchDisk kills the kernel when the files under dirs pass MaxDisk bytes or MaxFiles entries.
func (p *proc) watchDisk(dirs ...string) {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.exited:
			return
		case <-t.C:
			if why := diskUse(dirs); why != "" {
				p.kill(why + ": the kernel was killed")
				return
			}
		}
	}
}

// diskUse says what of MaxDisk and MaxFiles the files under dirs pass, "" when neither: their
// size on disk (a sparse file's holes do not count) and their number, stopping the count at
// MaxFiles so that a directory of a million files costs no more than one of ten thousand.
func diskUse(dirs []string) string {
	var bytes int64
	files := 0
	for _, d := range dirs {
		filepath.WalkDir(d, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil // gone meanwhile, or not readable: the rest still counts
			}
			if files++; files > MaxFiles {
				return filepath.SkipAll
			}
			if info, err := e.Info(); err == nil {
				bytes += allocated(info)
			}
			return nil
		})
	}
	switch {
	case files > MaxFiles:
		return fmt.Sprintf("made more than %d files", MaxFiles)
	case bytes > MaxDisk:
		return fmt.Sprintf("wrote %d MiB, past %d MiB", bytes>>20, MaxDisk>>20)
	}
	return ""
}
