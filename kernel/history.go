package kernel

import (
	"regexp"
	"strings"
)

// historySession is this kernel's session number in history replies. History lives in memory
// for the life of the process: one session, numbered 1; session 0 also means "this one".
const historySession = 1

type historyEntry struct {
	line   int    // the execution count
	input  string // the cell's code
	output string // text/plain of its execute_result, if any
}

func (k *Kernel) remember(line int, input, output string) {
	k.mu.Lock()
	k.history = append(k.history, historyEntry{line, input, output})
	k.mu.Unlock()
}

type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"` // range, tail, search
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           int    `json:"stop"` // exclusive; 0 = to the end
	N              *int   `json:"n"`
	Pattern        string `json:"pattern"` // glob: * and ?
	Unique         bool   `json:"unique"`
}

type historyReply struct {
	Status  string  `json:"status"`
	History [][]any `json:"history"` // [session, line, input] or [session, line, [input, output]]
}

func (k *Kernel) historyRequest(s *socket, req *Message) {
	var r historyRequest
	if err := req.decodeContent(&r); err != nil {
		k.badRequest(s, req, err)
		return
	}
	k.mu.Lock()
	all := append([]historyEntry(nil), k.history...)
	k.mu.Unlock()
	k.reply(s, req, MsgHistoryReply, historyReply{Status: "ok", History: selectHistory(all, r)})
}

// selectHistory answers a history request from the entries, oldest first.
func selectHistory(all []historyEntry, r historyRequest) [][]any {
	var picked []historyEntry
	switch r.HistAccessType {
	case "tail":
		picked = last(all, r.N)
	case "range":
		if r.Session != 0 && r.Session != historySession {
			break
		}
		for _, e := range all {
			if e.line >= r.Start && (r.Stop <= 0 || e.line < r.Stop) {
				picked = append(picked, e)
			}
		}
	case "search":
		re := globRegexp(r.Pattern)
		seen := map[string]bool{}
		// Newest first, so unique keeps each input's latest run, then back to oldest first.
		for i := len(all) - 1; i >= 0; i-- {
			e := all[i]
			if !re.MatchString(e.input) || (r.Unique && seen[e.input]) {
				continue
			}
			seen[e.input] = true
			picked = append([]historyEntry{e}, picked...)
		}
		picked = last(picked, r.N)
	}
	out := make([][]any, 0, len(picked))
	for _, e := range picked {
		if r.Output {
			out = append(out, []any{historySession, e.line, []any{e.input, e.output}})
		} else {
			out = append(out, []any{historySession, e.line, e.input})
		}
	}
	return out
}

func last(es []historyEntry, n *int) []historyEntry {
	if n != nil && *n >= 0 && *n < len(es) {
		return es[len(es)-*n:]
	}
	return es
}

// globRegexp compiles an IPython history pattern: * any run of characters, ? one character,
// matched against the whole input.
func globRegexp(glob string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`(?s)^`)
	for _, r := range glob {
		switch r {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String())
}
