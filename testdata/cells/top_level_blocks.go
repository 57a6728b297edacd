// Compound statements at the top of a cell run in a function frame of their own: yaegi v0.16.1
// loses `a, b := f()` inside a block of its global frame. Globals they assign stay assigned.
import ("fmt"; "strconv")
total := 0
for _, s := range []string{"1", "20", "x"} {
	n, err := strconv.Atoi(s)
	if err != nil {
		fmt.Println("skip", s)
		continue
	}
	total += n
}
if v, err := strconv.ParseFloat("2.5", 64); err == nil {
	fmt.Println("parsed", v)
}
total
// Output:
// skip x
// parsed 2.5
// Out: 21
