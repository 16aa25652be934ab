package bench

// File-level metrics of `palace bench code`. ranked is a list of files,
// best first; it is collapsed to first occurrences before scoring, so a
// file listed twice takes one rank.

// collapse keeps the first occurrence of each file, at most k of them.
func collapse(files []string, k int) []string {
	out := dedupeStrings(files)
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// rAny is 1 when any gold file is in the top k of ranked.
func rAny(gold, ranked []string, k int) float64 {
	if firstRank(gold, ranked, k) > 0 {
		return 1
	}
	return 0
}

// rAll is 1 when every gold file is in the top k of ranked.
func rAll(gold, ranked []string, k int) float64 {
	in := map[string]bool{}
	for _, f := range collapse(ranked, k) {
		in[f] = true
	}
	for _, g := range gold {
		if !in[g] {
			return 0
		}
	}
	return 1
}

// mrr is 1/rank of the first gold file in the top k of ranked, 0 without.
func mrr(gold, ranked []string, k int) float64 {
	if r := firstRank(gold, ranked, k); r > 0 {
		return 1 / float64(r)
	}
	return 0
}

// firstRank is the 1-based rank of the first gold file in the top k of
// ranked, 0 when none is there.
func firstRank(gold, ranked []string, k int) int {
	g := map[string]bool{}
	for _, f := range gold {
		g[f] = true
	}
	for i, f := range collapse(ranked, k) {
		if g[f] {
			return i + 1
		}
	}
	return 0
}

// codeMetricKeys are the metric names, as the JSON report spells them.
var codeMetricKeys = []string{"R_any@5", "R_any@10", "R_all@10", "MRR@10"}

// codeMetrics scores one query's ranking.
func codeMetrics(gold, ranked []string) map[string]float64 {
	return map[string]float64{
		"R_any@5":  rAny(gold, ranked, 5),
		"R_any@10": rAny(gold, ranked, 10),
		"R_all@10": rAll(gold, ranked, 10),
		"MRR@10":   mrr(gold, ranked, 10),
	}
}

// meanMetrics averages per-query metrics (all zero for none).
func meanMetrics(per []map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for _, k := range codeMetricKeys {
		out[k] = 0
		for _, m := range per {
			out[k] += m[k]
		}
		if len(per) > 0 {
			out[k] /= float64(len(per))
		}
	}
	return out
}
