package grade

import (
	"crypto/rand"
	"encoding/hex"
	"strings"

	"github.com/gptnotes/gptnotes/kernel"
)

// A check's verdict rests on nothing the submission can redefine or reach before it runs:
//
//   - The check cell runs sealed (the kernel's "//gptnotes:check KEY" first line): the kernel
//     refuses it when a name it uses that Go predeclares (panic) or that names a package (fmt,
//     gpt) means a declaration of the submission's instead.
//   - It passes only when it printed, as its last line, a secret of this run (the verdict
//     line), after its last statement: the check's comparison held (its panic, Go's own, did
//     not fire) and the cell ran to its end (no runtime.Goexit, no os.Exit, no interrupt), and
//     the kernel answered "ok".
//   - KEY, new for each kernel, lets only the grader's cells use the functions an exam reserves.
//
// The secrets are made for each submission here and reach the kernel only in the check cells'
// own code, which the submission cannot read before they run.

// A seal is one submission's secrets: the kernel's check key and a verdict secret per check.
type seal struct {
	key     string
	verdict map[string]string // grade_id → secret
}

func newSeal(checks []Check) seal {
	s := seal{key: secret(), verdict: map[string]string{}}
	for _, k := range checks {
		s.verdict[k.ID] = secret()
	}
	return s
}

func secret() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// source is what runs for check k: the original, sealed, with its verdict line at the end.
func (s seal) source(k *Check) string {
	return "//gptnotes:check " + s.key + "\nimport \"fmt\"\n\n" + k.Source +
		"\nfmt.Println(" + `"` + verdictPrefix + s.verdict[k.ID] + `")` + "\n"
}

const verdictPrefix = "gptnotes-verdict "

// takeVerdict reports whether a check's last line printed is its verdict line, and removes
// every verdict line from the outputs (the feedback shows what the check printed, not the secret).
func (s seal) takeVerdict(k *Check, outputs []kernel.Output) (kept []kernel.Output, reached bool) {
	var stdout strings.Builder
	for _, o := range outputs {
		if o.Type == kernel.MsgStream && o.Name == "stdout" {
			stdout.WriteString(o.Text)
			var lines []string
			for _, line := range strings.SplitAfter(o.Text, "\n") {
				if !strings.HasPrefix(line, verdictPrefix) {
					lines = append(lines, line)
				}
			}
			if o.Text = strings.Join(lines, ""); o.Text == "" {
				continue
			}
		}
		kept = append(kept, o)
	}
	text := strings.TrimRight(stdout.String(), " \t\r\n")
	return kept, text[strings.LastIndexByte(text, '\n')+1:] == verdictPrefix+s.verdict[k.ID]
}
