package ops

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/palace-dev/palace/core/convo"
)

// SplitRequest asks to cut multi-session text transcripts into one file
// per session.
type SplitRequest struct {
	// Path is a transcript, or a folder whose transcripts (the names
	// convo.TextName accepts, not hidden, not in subfolders, not pieces an
	// earlier split wrote) are each split.
	Path string
	// Out is the folder the pieces go to; "" is each transcript's own.
	Out string
}

// Validate names the first bad field.
func (r SplitRequest) Validate() error { return checkText("path", r.Path) }

// SplitResult says what became of each transcript.
type SplitResult struct {
	// Folder is true when Path was a folder.
	Folder bool `json:"folder"`
	// Earlier are the files of the folder left alone as pieces of an
	// earlier split.
	Earlier []string `json:"earlier"`
	// Transcripts are the transcripts split (or found to hold one
	// session), in order.
	Transcripts []SplitTranscript `json:"transcripts"`
}

// SplitTranscript is one transcript and the files its sessions went to
// (none when it holds one session).
type SplitTranscript struct {
	Source string   `json:"source"`
	Pieces []string `json:"pieces"`
	parts  [][]byte
}

// splitPiece matches the names a split writes, FILE-stem.session-NN.ext.
var splitPiece = regexp.MustCompile(`\.session-\d{2,}(\.[^.]*)?$`)

// Split cuts each transcript at its sessions into FILE-stem.session-NN.ext
// files whose bytes join back to the transcript. No file is ever
// overwritten: when any piece's name is taken, on disk or by another
// piece, nothing is written.
func Split(r SplitRequest) (SplitResult, error) {
	res := SplitResult{Earlier: []string{}, Transcripts: []SplitTranscript{}}
	if err := r.Validate(); err != nil {
		return res, err
	}
	fi, err := os.Stat(r.Path)
	if err != nil {
		return res, fmt.Errorf("split: %w", err)
	}
	srcs := []string{r.Path}
	if res.Folder = fi.IsDir(); res.Folder {
		if srcs, res.Earlier, err = transcriptsIn(r.Path); err != nil {
			return res, err
		}
	}
	if res.Transcripts, err = planSplits(srcs, r.Out); err != nil {
		return res, err
	}
	for _, t := range res.Transcripts {
		for i, n := range t.Pieces {
			if err := os.MkdirAll(filepath.Dir(n), 0o755); err != nil {
				return res, fmt.Errorf("split %s: %w", t.Source, err)
			}
			if err := os.WriteFile(n, t.parts[i], 0o644); err != nil {
				return res, fmt.Errorf("split %s: %w", t.Source, err)
			}
		}
	}
	return res, nil
}

// transcriptsIn lists dir's transcripts, and apart the files left out for
// being pieces of an earlier split.
func transcriptsIn(dir string) (srcs, earlier []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("split %s: %w", dir, err)
	}
	earlier = []string{}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || strings.HasPrefix(name, ".") || !convo.TextName(name) {
			continue
		}
		path := filepath.Join(dir, name)
		if splitPiece.MatchString(name) {
			earlier = append(earlier, path)
			continue
		}
		srcs = append(srcs, path)
	}
	return srcs, earlier, nil
}

// planSplits reads each transcript and names its pieces, refusing before
// anything is written when a name is taken, on disk or by another piece.
func planSplits(srcs []string, outDir string) ([]SplitTranscript, error) {
	taken := map[string]string{}
	plans := make([]SplitTranscript, 0, len(srcs))
	for _, src := range srcs {
		data, err := os.ReadFile(src)
		if err != nil {
			return nil, fmt.Errorf("split: %w", err)
		}
		p := SplitTranscript{Source: src, Pieces: []string{}}
		if p.parts = convo.SplitSessions(data); len(p.parts) < 2 {
			p.parts = nil
			plans = append(plans, p)
			continue
		}
		dir := outDir
		if dir == "" {
			dir = filepath.Dir(src)
		}
		ext := filepath.Ext(src)
		stem := strings.TrimSuffix(filepath.Base(src), ext)
		for i := range p.parts {
			n := filepath.Join(dir, fmt.Sprintf("%s.session-%02d%s", stem, i+1, ext))
			if other, ok := taken[n]; ok {
				return nil, fmt.Errorf("split: %s and %s would both write %s; nothing written (split them one at a time)", other, src, n)
			}
			if _, err := os.Lstat(n); err == nil {
				return nil, fmt.Errorf("split: %s already exists; nothing written (choose another --out)", n)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("split: %w", err)
			}
			taken[n] = src
			p.Pieces = append(p.Pieces, n)
		}
		plans = append(plans, p)
	}
	return plans, nil
}
