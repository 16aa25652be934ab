package store

import (
	"context"
	"math"
	"testing"
)

func unit(v ...float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

func TestVectors(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	a, b, c := drawer("w1", "a", 0, "alpha"), drawer("w1", "b", 0, "bravo"), drawer("w2", "c", 0, "charlie")
	c.Room = "other"
	if _, err := s.InsertDrawers(ctx, []Drawer{a, b, c}); err != nil {
		t.Fatal(err)
	}
	vi, err := s.VecInfo(ctx)
	if err != nil || vi.Pending != 3 || vi.Model != "" {
		t.Fatalf("before: %+v %v", vi, err)
	}
	if created, err := s.EnsureVectors(ctx, "m1", 3); err != nil || !created {
		t.Fatalf("ensure: %v %v", created, err)
	}
	if created, _ := s.EnsureVectors(ctx, "m1", 3); created {
		t.Error("same model recreated the index")
	}
	ps, err := s.PendingVectors(ctx, "m1", 0, 10)
	if err != nil || len(ps) != 3 {
		t.Fatalf("pending: %d %v", len(ps), err)
	}
	vecs := map[string][]float32{"alpha": unit(1, 0, 0), "bravo": unit(0, 1, 0), "charlie": unit(1, 0.1, 0)}
	var vs [][]float32
	for _, p := range ps {
		vs = append(vs, vecs[p.Text])
	}
	if n, err := s.PutVectors(ctx, "m1", ps, vs); err != nil || n != 3 {
		t.Fatalf("put: %d %v", n, err)
	}
	hits, err := s.SearchVector(ctx, unit(1, 0, 0), Filter{}, 3)
	if err != nil || len(hits) != 3 || hits[0].Content != "alpha" || hits[1].Content != "charlie" {
		t.Fatalf("knn: %+v %v", hits, err)
	}
	if hits[0].Score < 0.999 {
		t.Errorf("cosine of identical vectors = %v", hits[0].Score)
	}
	if hits, _ := s.SearchVector(ctx, unit(1, 0, 0), Filter{Wing: "w1"}, 3); len(hits) != 2 || hits[1].Content != "bravo" {
		t.Errorf("wing filter: %+v", hits)
	}
	if hits, _ := s.SearchVector(ctx, unit(1, 0, 0), Filter{Room: "other"}, 3); len(hits) != 1 || hits[0].Content != "charlie" {
		t.Errorf("room filter: %+v", hits)
	}
	if hits, _ := s.SearchVector(ctx, unit(1, 0, 0), Filter{SourcePrefix: "b"}, 3); len(hits) != 1 || hits[0].Content != "bravo" {
		t.Errorf("source filter: %+v", hits)
	}
	// Soft-deleted drawers leave vector search; pruned ones leave the index.
	if err := s.DeleteDrawer(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if hits, _ := s.SearchVector(ctx, unit(1, 0, 0), Filter{}, 3); len(hits) != 2 || hits[0].Content != "charlie" {
		t.Errorf("after delete: %+v", hits)
	}
	if _, err := s.PruneSources(ctx, "w2", []string{"c"}); err != nil {
		t.Fatal(err)
	}
	var rows int
	s.r.QueryRow(`SELECT count(*) FROM vec_drawers`).Scan(&rows)
	if rows != 1 { // bravo: the soft-deleted alpha lost its vector with its place in search
		t.Errorf("vec_drawers holds %d rows after deleting alpha and pruning charlie, want 1", rows)
	}
	if vi, _ := s.VecInfo(ctx); vi.Vectors != 1 || vi.Pending != 0 {
		t.Errorf("after prune: %+v", vi)
	}
	// Another model: the index is rebuilt and everything is pending again.
	if created, err := s.EnsureVectors(ctx, "m2", 4); err != nil || !created {
		t.Fatalf("model change: %v %v", created, err)
	}
	if vi, _ := s.VecInfo(ctx); vi.Model != "m2" || vi.Vectors != 0 || vi.Pending != 1 {
		t.Errorf("after model change: %+v", vi)
	}
	if _, err := s.PutVectors(ctx, "m1", nil, nil); err == nil {
		t.Error("vectors of a stale model were accepted")
	}
	wantIndexesOK(t, s)
}
