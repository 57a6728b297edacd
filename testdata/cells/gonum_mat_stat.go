// gonum's matrices and statistics, and plot's helpers, are plugins (kernel/symbols): a cell
// imports them as a program would.
import (
	"fmt"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
)
a := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
var b mat.Dense
b.Mul(a, a.T())
fmt.Printf("%v\n", mat.Formatted(&b))
fmt.Println(mat.Det(a))
var e mat.EigenSym
ok := e.Factorize(mat.NewSymDense(2, []float64{2, 1, 1, 2}), true)
fmt.Println(ok, e.Values(nil))
xs := []float64{1, 2, 3, 4}
mean, std := stat.MeanStdDev(xs, nil)
fmt.Printf("%.4f %.4f %.4f\n", mean, std, stat.Correlation(xs, []float64{2, 4, 6, 8.5}, nil))
p := plot.New()
fmt.Println(plotutil.AddLinePoints(p, "y = x", plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}))
// Output:
// ⎡ 5  11⎤
// ⎣11  25⎦
// -2
// true [1 3]
// 2.5000 1.2910 0.9984
// <nil>
