package display

// Check stops the running cell with err as its error when err is not nil, and does nothing
// otherwise: one line in place of the three of
//
//	if err != nil {
//		panic(err)
//	}
//
// after a call that can fail, so a cell reads as the steps it takes:
//
//	model, tok, about, err := gpt.Pretrained()
//	display.Check(err)
//
// The cell's error is the error's own message (which, in this project, names the package and
// the operation: "gpt: open …: no such file"); the variables the cell defined before it stay.
func Check(err error) {
	if err != nil {
		panic(err)
	}
}
