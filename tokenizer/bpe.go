package tokenizer

// This file holds the two helpers byte-pair encoding is built from, as in
// minbpe's base.py: count adjacent pairs, and replace one pair by a new id.

// Pair is two adjacent token ids, Left then Right.
type Pair struct {
	Left, Right int
}

// PairCounts counts every adjacent pair of ids. Overlapping pairs count
// separately, so three equal ids hold the pair twice.
//
//	[1 2 3 1 2] → {(1,2):2, (2,3):1, (3,1):1}
//	[7 7 7]     → {(7,7):2}
func PairCounts(ids []int) map[Pair]int {
	counts := make(map[Pair]int)
	AddPairCounts(counts, ids, 1)
	return counts
}

// AddPairCounts adds weight to counts for every adjacent pair of ids; training
// uses it with the number of times a chunk occurs, and with a negative weight
// to take a chunk's pairs back out.
//
//	counts {}, ids [1 2 1 2], weight 3 → {(1,2):6, (2,1):3}
func AddPairCounts(counts map[Pair]int, ids []int, weight int) {
	for i := 0; i+1 < len(ids); i++ {
		p := Pair{ids[i], ids[i+1]}
		counts[p] += weight
		if counts[p] == 0 {
			delete(counts, p)
		}
	}
}

// Merge returns ids with every occurrence of pair replaced by id, scanning
// left to right, so overlapping occurrences merge leftmost first. ids is not
// modified.
//
//	[1 2 3 1 2], (1,2) → 4  gives  [4 3 4]
//	[5 5 5],     (5,5) → 6  gives  [6 5]
func Merge(ids []int, pair Pair, id int) []int {
	out := make([]int, 0, len(ids))
	for i := 0; i < len(ids); i++ {
		if i+1 < len(ids) && ids[i] == pair.Left && ids[i+1] == pair.Right {
			out = append(out, id)
			i++
			continue
		}
		out = append(out, ids[i])
	}
	return out
}
