//go:build ignore

// plotloss draws the loss curve of a `gptnotes train --loss-csv` run with viz.LossCurve:
//
//	go run docs/figures/plotloss.go docs/figures/gopher-loss.csv docs/figures/gopher-loss.png
//
// The CSV has a header and one row per step: step, tokens, loss, val_loss (empty where
// it was not measured), lr, grad_norm, tokens_per_sec. The vocabulary for the ln V line
// is 4096, the shipped model's; pass a third argument to change it.
package main

import (
	"encoding/csv"
	"fmt"
	"log"
	"math"
	"os"
	"strconv"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

func main() {
	if len(os.Args) < 3 {
		log.Fatal("usage: go run docs/figures/plotloss.go LOSS.csv OUT.png [VOCAB]")
	}
	vocab := 4096
	if len(os.Args) > 3 {
		v, err := strconv.Atoi(os.Args[3])
		if err != nil {
			log.Fatalf("plotloss: vocabulary %q: %v", os.Args[3], err)
		}
		vocab = v
	}
	history, err := readLossCSV(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(viz.LossCurve(history, vocab), os.Args[2]); err != nil {
		log.Fatal(err)
	}
	last := history[len(history)-1]
	fmt.Printf("%s: %d steps, last training loss %.4f\n", os.Args[2], last.Step, last.Loss)
}

// readLossCSV reads the rows into a Trainer-like History.
func readLossCSV(path string) ([]gpt.StepResult, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("plotloss: %s: %w", path, err)
	}
	if len(rows) < 2 || rows[0][0] != "step" || rows[0][2] != "loss" || rows[0][3] != "val_loss" {
		return nil, fmt.Errorf("plotloss: %s: not a loss CSV of gptnotes train (header %v)", path, rows[0])
	}
	var history []gpt.StepResult
	for i, row := range rows[1:] {
		step, err1 := strconv.Atoi(row[0])
		loss, err2 := strconv.ParseFloat(row[2], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("plotloss: %s: row %d: %v", path, i+2, row)
		}
		r := gpt.StepResult{Step: step, Loss: loss, ValLoss: math.NaN()}
		if row[3] != "" {
			if r.ValLoss, err = strconv.ParseFloat(row[3], 64); err != nil {
				return nil, fmt.Errorf("plotloss: %s: row %d: %w", path, i+2, err)
			}
		}
		history = append(history, r)
	}
	return history, nil
}
