package search

import "testing"

func hits(ids ...string) []Hit {
	out := make([]Hit, len(ids))
	for i, id := range ids {
		out[i] = Hit{ID: id, Score: float64(10 - i)}
	}
	return out
}

// When the sides disagree, reciprocal rank fusion puts a drawer both sides
// rank well above one that only one side ranks first.
func TestFuseDisagreeingSides(t *testing.T) {
	lex := hits("a", "b", "c")
	vec := hits("d", "b", "a")
	got := fuseHits(lex, vec, 10)
	var order []string
	for _, h := range got {
		order = append(order, h.ID)
	}
	// a: 1/61+1/63, b: 1/62+1/62, d: 1/61, c: 1/63
	want := []string{"a", "b", "d", "c"}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("fused order %v, want %v", order, want)
		}
	}
	if got[2].Ranks.BM25 != nil || *got[2].Ranks.Vector != 1 || got[3].Scores.Vector != nil {
		t.Errorf("one-sided hits must say which side found them: %+v %+v", got[2].Ranks, got[3].Scores)
	}
	if len(fuseHits(lex, vec, 2)) != 2 {
		t.Error("limit ignored")
	}
}
