package main

import (
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
)

// The logo: a small three-layer network, white on Go's cyan disc, drawn at install time.
var (
	goCyan = color.NRGBA{0x00, 0xAD, 0xD8, 0xFF}
	white  = color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF}
)

// drawLogo draws the size×size logo. Shapes are sampled by distance, so edges are smooth.
func drawLogo(size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	s := float64(size) / 64 // designed on a 64-pixel grid
	layers := [][]float64{{20, 32, 44}, {14, 26, 38, 50}, {20, 32, 44}}
	xs := []float64{17, 32, 47}
	type pt struct{ x, y float64 }
	var nodes []pt
	var edges [][2]pt
	for l, ys := range layers {
		for _, y := range ys {
			nodes = append(nodes, pt{xs[l] * s, y * s})
			if l+1 < len(layers) {
				for _, y2 := range layers[l+1] {
					edges = append(edges, [2]pt{{xs[l] * s, y * s}, {xs[l+1] * s, y2 * s}})
				}
			}
		}
	}
	c := 32 * s
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			x, y := float64(px)+0.5, float64(py)+0.5
			disc := coverage(31*s - math.Hypot(x-c, y-c))
			if disc == 0 {
				continue
			}
			ink := 0.0
			for _, e := range edges {
				ink = math.Max(ink, coverage(0.9*s-segmentDistance(x, y, e[0].x, e[0].y, e[1].x, e[1].y)))
			}
			for _, n := range nodes {
				ink = math.Max(ink, coverage(3.6*s-math.Hypot(x-n.x, y-n.y)))
			}
			img.SetNRGBA(px, py, color.NRGBA{
				R: mix(goCyan.R, white.R, ink), G: mix(goCyan.G, white.G, ink), B: mix(goCyan.B, white.B, ink),
				A: uint8(255 * disc),
			})
		}
	}
	return img
}

// coverage maps a signed distance inside a shape (positive inside) to pixel coverage in [0, 1].
func coverage(inside float64) float64 { return math.Max(0, math.Min(1, inside+0.5)) }

func mix(a, b uint8, t float64) uint8 { return uint8(float64(a)*(1-t) + float64(b)*t + 0.5) }

// segmentDistance is the distance from (x, y) to the segment (x1, y1)–(x2, y2).
func segmentDistance(x, y, x1, y1, x2, y2 float64) float64 {
	dx, dy := x2-x1, y2-y1
	t := ((x-x1)*dx + (y-y1)*dy) / (dx*dx + dy*dy)
	t = math.Max(0, math.Min(1, t))
	return math.Hypot(x-(x1+t*dx), y-(y1+t*dy))
}

func writeLogo(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, drawLogo(64)); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
