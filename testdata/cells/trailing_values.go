// A trailing call with several results shows them all; a call without results shows nothing;
// fmt.Println's byte count is not shown.
import ("fmt"; "strconv")
func nothing() {}
// ---
strconv.Atoi("12")
// ---
nothing()
// ---
fmt.Println("printed")
// ---
"text"
// Output:
// Out: 12 <nil>
// printed
// Out: text
