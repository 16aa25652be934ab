package mine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace/palacetest"
)

// A file a mine refused for its content is not read again while its size
// and mtime are as that mine saw them: the next mine reports the same
// skip from the record. The proof is a file whose bytes change behind an
// unchanged size and mtime, which a mine that reads would now keep.
func TestSkippedFileIsNotReadAgain(t *testing.T) {
	ctx := context.Background()
	blob := "\x00\x01\x02 binary " + strings.Repeat("x", 100)
	bad := "caf\xe9 latin-1, not UTF-8 " + strings.Repeat("y", 100)
	root := tree(t, map[string]string{"a.go": "package a\n", "blob.bin": blob, "old.txt": bad})
	p := palacetest.OpenPalace(t)
	mineOnce := func() *Summary {
		t.Helper()
		s, err := Run(ctx, p, root, Options{Wing: "w"})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := mineOnce()
	if first.SkippedBy[ReasonBinary] != 1 || first.SkippedBy[ReasonInvalidUTF8] != 1 || first.FilesMined != 1 {
		t.Fatalf("first mine: mined %d, skipped %v", first.FilesMined, first.SkippedBy)
	}

	// Same size, same mtime, text now: the record decides, nothing is read.
	for name, was := range map[string]string{"blob.bin": blob, "old.txt": bad} {
		path := filepath.Join(root, name)
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		write(t, root, name, strings.Repeat("t", len(was)))
		if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	again := mineOnce()
	if again.FilesMined != 0 || again.SkippedBy[ReasonBinary] != 1 || again.SkippedBy[ReasonInvalidUTF8] != 1 {
		t.Fatalf("unchanged skipped files were read again: mined %d, skipped %v", again.FilesMined, again.SkippedBy)
	}
	for _, s := range again.Skipped {
		if s.Reason == ReasonBinary && (s.Path != filepath.Join(root, "blob.bin") || s.Detail == "") {
			t.Fatalf("recalled skip %+v, want blob.bin with its detail", s)
		}
	}

	// A new mtime: the file is read, mined, and its record forgotten.
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(root, "blob.bin"), later, later); err != nil {
		t.Fatal(err)
	}
	if s := mineOnce(); s.FilesMined != 1 || s.SkippedBy[ReasonBinary] != 0 {
		t.Fatalf("changed file: mined %d, skipped %v", s.FilesMined, s.SkippedBy)
	}
	// A gone file's record goes too.
	if err := os.Remove(filepath.Join(root, "old.txt")); err != nil {
		t.Fatal(err)
	}
	mineOnce()
	recs, err := p.Store.SkippedFiles(ctx, "w", root+string(filepath.Separator))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 0 {
		t.Fatalf("records left after the files were mined or removed: %v", recs)
	}
}

// A record is the content's verdict, not the options': a limit below the
// file's size still says too large, and a conversations-only mine, which
// judges a file by its format before reading it, still says so.
func TestSkippedFileRecordYieldsToOptions(t *testing.T) {
	ctx := context.Background()
	root := tree(t, map[string]string{"blob.bin": "\x00" + strings.Repeat("z", 200)})
	p := palacetest.OpenPalace(t)
	if _, err := Run(ctx, p, root, Options{Wing: "w"}); err != nil {
		t.Fatal(err)
	}
	s, err := Run(ctx, p, root, Options{Wing: "w", MaxSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	if s.SkippedBy[ReasonTooLarge] != 1 {
		t.Fatalf("with --max-size 100: skipped %v, want too_large", s.SkippedBy)
	}
	s, err = Run(ctx, p, root, Options{Wing: "w", Mode: ModeConvos})
	if err != nil {
		t.Fatal(err)
	}
	if s.SkippedBy[ReasonNotConversation] != 1 {
		t.Fatalf("in convos mode: skipped %v, want not_conversation", s.SkippedBy)
	}
}
