package code

import (
	"context"
	"sync"
	"time"

	"github.com/palace-dev/palace/core/chunk"
)

// Preparer cuts the source files an editor changes while the user types,
// as gopls parses on change: the cut is kept with the file's tree
// (Trees), so the save that follows, if it writes that same text,
// finds the file cut and only writes its drawers. Parsing is most of a
// save's time, and tree-sitter reuses nothing of a file broken throughout,
// as a file mid-edit often is. What is stored does not change: the mine
// uses a kept cut only for the very text it reads from disk, cut the way
// it would cut it.
type Preparer struct {
	trees *Trees
	wake  chan struct{}
	done  chan struct{}

	mu      sync.Mutex
	pending map[string]change // by path: the latest text of each
}

// change is an editor's text of a file, its language (LanguageOf)
// and when it arrived.
type change struct {
	text, lang string
	at         time.Time
}

// PrepareDelay is how long a file's text must rest before it is cut: a
// pause in typing, so a burst of keystrokes costs one parse.
const PrepareDelay = 50 * time.Millisecond

// NewPreparer starts cutting changed files into trees until ctx ends.
func NewPreparer(ctx context.Context, trees *Trees) *Preparer {
	p := &Preparer{trees: trees, wake: make(chan struct{}, 1), done: make(chan struct{}), pending: map[string]change{}}
	go p.run(ctx)
	return p
}

// Changed queues path's new text, replacing any text still waiting. A file
// in no language this package parses, or too large to parse, is left alone.
func (p *Preparer) Changed(path, text string) {
	if len(text) > MaxBytes {
		return
	}
	lang := LanguageOf(path, text)
	if lang == "" {
		return
	}
	p.mu.Lock()
	p.pending[path] = change{text: text, lang: lang, at: time.Now()}
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// next takes a text that has rested PrepareDelay, or says how long until
// one will (0 when none waits).
func (p *Preparer) next() (string, change, time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var wait time.Duration
	for path, c := range p.pending {
		if d := PrepareDelay - time.Since(c.at); d > 0 {
			if wait == 0 || d < wait {
				wait = d
			}
			continue
		}
		delete(p.pending, path)
		return path, c, 0
	}
	return "", change{}, wait
}

func (p *Preparer) run(ctx context.Context) {
	defer close(p.done)
	ps := NewParser()
	defer ps.Close()
	ps.Trees = p.trees
	var timer <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		case <-timer:
		}
		timer = nil
		for ctx.Err() == nil {
			path, c, wait := p.next()
			if path == "" {
				if wait > 0 {
					timer = time.After(wait)
				}
				break
			}
			// The server's mines cut at the default drawer size; an error
			// here is the mine's to meet and report.
			_, _ = ps.SplitFile(path, c.text, c.lang, chunk.Default)
		}
	}
}

// Wait blocks until the goroutine has stopped (the context given to
// NewPreparer ends it).
func (p *Preparer) Wait() { <-p.done }
