package display

import "errors"

// An InputReader asks the notebook's user for a line of text (Jupyter's input_request). The
// kernel's cell sink implements it; a Publisher without it cannot ask.
type InputReader interface {
	Input(prompt string, password bool) (string, error)
}

// ErrNoInput is returned when nothing can ask the user: no cell running, or a front end that
// does not accept input (allow_stdin false, as nbclient runs notebooks).
var ErrNoInput = errors.New("display: input: the front end does not accept input")

// Input shows prompt and waits for the user to type a line, which it returns without the newline.
func Input(prompt string) (string, error) { return input(prompt, false) }

// Password is Input with the typed text hidden.
func Password(prompt string) (string, error) { return input(prompt, true) }

func input(prompt string, password bool) (string, error) {
	mu.RLock()
	p := publisher
	mu.RUnlock()
	r, ok := p.(InputReader)
	if !ok {
		return "", ErrNoInput
	}
	return r.Input(prompt, password)
}
