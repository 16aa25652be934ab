package embed

import (
	"math"
	"sort"
)

// maxBatchTokens bounds padded tokens per model run (batch x length): a
// batch of 32 texts of 256 tokens fits, longer texts go in smaller batches,
// which keeps attention's batch*heads*len^2 scratch memory bounded.
const maxBatchTokens = 32 * 256

// meanPool averages the token vectors of one text over its attention mask
// (the first n positions; the rest is padding) and L2-normalises the result,
// as sentence-transformers' Pooling(mean) + Normalize does. tokens is the
// text's [seqLen][dim] slice of last_hidden_state, row-major. Sums run in
// float64 so the result does not depend on how much padding follows.
func meanPool(tokens []float32, n, dim int) []float32 {
	acc := make([]float64, dim)
	for t := range n {
		row := tokens[t*dim : (t+1)*dim]
		for k, v := range row {
			acc[k] += float64(v)
		}
	}
	// sentence-transformers clamps the mask sum at 1e-9.
	div := math.Max(float64(n), 1e-9)
	for k := range acc {
		acc[k] /= div
	}
	return normalize64(acc)
}

// normalize64 divides by the L2 norm (clamped at 1e-12, like
// torch.nn.functional.normalize) and converts to float32.
func normalize64(v []float64) []float32 {
	var ss float64
	for _, x := range v {
		ss += x * x
	}
	norm := math.Max(math.Sqrt(ss), 1e-12)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

// normalize32 L2-normalises a pooled vector a backend returned.
func normalize32(v []float32) []float32 {
	w := make([]float64, len(v))
	for i, x := range v {
		w[i] = float64(x)
	}
	return normalize64(w)
}

// planBatches groups text indices into model runs: sorted by token length so
// that each run pads little, at most maxBatch texts and maxBatchTokens padded
// tokens per run. The sort is stable, so the plan is deterministic.
func planBatches(encs []encoding, maxBatch int) [][]int {
	order := make([]int, len(encs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(encs[order[a]].ids) < len(encs[order[b]].ids) })
	var batches [][]int
	var cur []int
	for _, i := range order {
		// Sorted ascending, so text i is the longest of cur+[i].
		longest := len(encs[i].ids)
		if len(cur) > 0 && (len(cur) >= maxBatch || (len(cur)+1)*longest > maxBatchTokens) {
			batches = append(batches, cur)
			cur = nil
		}
		cur = append(cur, i)
	}
	if len(cur) > 0 {
		batches = append(batches, cur)
	}
	return batches
}
