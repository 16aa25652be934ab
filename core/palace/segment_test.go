package palace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/store"
)

// dictWritten reports whether the segmenter has loaded: its first load
// writes the dictionaries under the home's cache folder.
func dictWritten(t *testing.T, home string) bool {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(home, "cache"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return len(entries) > 0
}

func addDrawer(t *testing.T, p *Palace, source, content, index string) {
	t.Helper()
	h := store.ContentHash(content)
	d := store.Drawer{ID: store.DrawerID("w", source, 0, h), Wing: "w", Room: "general", Kind: store.KindFile,
		Source: source, LineStart: 1, LineEnd: 1, Content: content, IndexText: index, ContentHash: h}
	if _, err := p.Store.InsertDrawers(context.Background(), []store.Drawer{d}); err != nil {
		t.Fatal(err)
	}
}

// A Chinese query in a palace without Chinese must not load the segmenter
// (seconds and 180 MB on every CLI call); once the palace holds Chinese,
// queries are segmented.
func TestSegmentQueryLoadsOnlyForChinesePalace(t *testing.T) {
	home := t.TempDir()
	p, err := Open(home, Options{Embed: &embed.Config{Backend: "none"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	addDrawer(t, p, "a.go", "func main() {} // API", "")

	got, err := p.SegmentQuery("我爱北京天安门API")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"我爱北京天安门", "API"}; !slices.Equal(got, want) {
		t.Errorf("query words %q, want %q", got, want)
	}
	if dictWritten(t, home) {
		t.Fatal("a Chinese query loaded the segmenter in a palace without Chinese")
	}

	addDrawer(t, p, "b.md", "我爱北京天安门", "我 爱 北京 天安门")
	got, err = p.SegmentQuery("我爱北京天安门")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got, "天安门") {
		t.Errorf("query words %q in a Chinese palace, want the segmented words", got)
	}
	if !dictWritten(t, home) {
		t.Error("the segmenter did not load for a Chinese query in a Chinese palace")
	}
}
