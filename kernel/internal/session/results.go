package session

import "github.com/gptnotes/gptnotes/kernel/display"

// result receives the values of a cell's trailing expression.
func (s *Session) result(vals ...any) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if r := s.running; r != nil {
		r.results, r.gotRes = vals, true
	}
}

// resultWith receives a trailing value of a cell-declared type with the outputs of its renderer
// methods, as MIME type, data pairs.
func (s *Session) resultWith(v any, mimeData ...any) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	r := s.running
	if r == nil {
		return
	}
	r.results, r.gotRes = []any{v}, true
	r.mime = map[string]any{}
	for i := 0; i+1 < len(mimeData); i += 2 {
		if k, ok := mimeData[i].(string); ok {
			r.mime[k] = mimeData[i+1]
		}
	}
}

// rendered is the bundle of a value of a cell-declared type, from its renderer methods' outputs
// (MIME type, data pairs), for display.Display.
func rendered(v any, mimeData ...any) any {
	b := display.Render(v)
	for i := 0; i+1 < len(mimeData); i += 2 {
		if k, ok := mimeData[i].(string); ok {
			b.Data[k] = mimeData[i+1]
		}
	}
	return b
}
