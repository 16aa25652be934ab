// Package palace is the handle every front opens: the store plus the shared,
// lazily loaded helpers that mining and search need (the Chinese segmenter).
// Feature packages (mine, search, ...) take a *Palace, so the CLI, MCP and
// LSP fronts wire nothing themselves.
package palace

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/palace-dev/palace/core/cjk"
	"github.com/palace-dev/palace/core/store"
)

// Palace is an open palace home.
type Palace struct {
	Store *store.Store
	// Seg segments Chinese text for the index and for queries. It loads its
	// dictionaries (about 130 MB) only when Han text first appears.
	Seg *cjk.Segmenter
}

// Open opens the palace at home, creating it if needed.
func Open(home string) (*Palace, error) {
	st, err := store.Open(home)
	if err != nil {
		return nil, err
	}
	return &Palace{Store: st, Seg: cjk.New(filepath.Join(st.Home(), "cache"))}, nil
}

// Close releases the segmenter and the database.
func (p *Palace) Close() error {
	return errors.Join(p.Seg.Close(), p.Store.Close())
}

// IndexText is what the full-text index should hold for content: segmented
// when it contains Han text, else "" (index the content itself). An
// English-only palace never loads the segmenter.
func (p *Palace) IndexText(content string) (string, error) {
	if !cjk.HasCJK(content) {
		return "", nil
	}
	t, err := p.Seg.SegmentForIndex(content)
	if err != nil {
		return "", fmt.Errorf("segment Chinese text: %w", err)
	}
	return t, nil
}

// SegmentQuery splits a query term written in Han into words; other terms
// come back whole.
func (p *Palace) SegmentQuery(term string) ([]string, error) {
	if !cjk.HasCJK(term) {
		return []string{term}, nil
	}
	ws, err := p.Seg.SegmentQuery(term)
	if err != nil {
		return nil, fmt.Errorf("segment query %q: %w", term, err)
	}
	return ws, nil
}
