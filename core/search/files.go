package search

import (
	"slices"

	"github.com/palace-dev/palace/core/store"
)

// What a search's hits stand for.
const (
	ByDrawer = "drawer" // one hit per drawer (the default)
	ByFile   = "file"   // one hit per mined file: see CollapseFiles
)

// Range is one matched drawer of a file in a search by file.
type Range struct {
	ID        string  `json:"id"`
	LineStart int     `json:"line_start"`
	LineEnd   int     `json:"line_end"`
	Rank      int     `json:"rank"` // 1-based, in the search by drawer the file hit was collapsed from
	Score     float64 `json:"score"`
}

// CollapseFiles collapses hits ranked by drawer into at most limit rows, one per
// mined file (its wing and source), in the rank of the file's best
// drawer. A file's row is that best drawer (its score, snippet, content
// and citation) with Ranges listing every matched drawer of the file in
// line order, each with its rank, so the row reads as a map of the file
// and the rank order is still there. Other kinds stay one row per drawer:
// a conversation's drawers are separate exchanges at separate times, and
// a note or diary entry has no file to collapse into.
func CollapseFiles(hits []Hit, limit int) []Hit {
	type key struct{ wing, source string }
	row := map[key]int{}
	var out []Hit
	for i, h := range hits {
		r := Range{ID: h.ID, LineStart: h.LineStart, LineEnd: h.LineEnd, Rank: i + 1, Score: h.Score}
		if h.Kind != store.KindFile {
			out = append(out, h)
			continue
		}
		k := key{h.Wing, h.Source}
		j, seen := row[k]
		if !seen {
			row[k] = len(out)
			h.Ranges = []Range{r}
			out = append(out, h)
			continue
		}
		f := &out[j]
		f.Ranges = append(f.Ranges, r)
		for _, w := range h.AlsoIn {
			if w != f.Wing && !slices.Contains(f.AlsoIn, w) {
				f.AlsoIn = append(f.AlsoIn, w)
			}
		}
	}
	out = out[:min(len(out), limit)]
	for _, h := range out {
		slices.SortFunc(h.Ranges, func(a, b Range) int {
			if a.LineStart != b.LineStart {
				return a.LineStart - b.LineStart
			}
			return a.Rank - b.Rank
		})
	}
	if out == nil {
		out = []Hit{}
	}
	return out
}
