// Package check tells a student whether an op they wrote in a cell is right: it runs their
// function on inputs it chooses from the shipped model's real activations, compares the
// output with the model's own op (gpt.Stepper), and says in words where it differs and
// which known mistake, if any, gives the same output.
package check
