package lsp

import (
	"fmt"
	"os"
	"sync"

	"github.com/palace-dev/palace/core/relevant"
)

// documents holds the text of open documents. The server asks for open and
// close only (no edits) and saves without text, so an open document's text
// is what was opened or last saved; after a save it is read again from disk
// when next needed.
type documents struct {
	mu   sync.Mutex
	open map[string]*document // by URI as the client sent it
}

type document struct {
	path  string
	text  string
	stale bool // saved since read: read the file again
}

func newDocuments() *documents { return &documents{open: map[string]*document{}} }

func (d *documents) opened(u, text string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.open[u] = &document{path: uriPath(u), text: text}
}

func (d *documents) closed(u string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.open, u)
}

// saved records a save; text is the saved text when the client sent it.
func (d *documents) saved(u string, text *string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	doc, ok := d.open[u]
	if !ok {
		return
	}
	if text != nil {
		doc.text, doc.stale = *text, false
		return
	}
	doc.stale = true
}

// text returns a document's text and path: the open document's, else the
// file's on disk.
func (d *documents) text(u string) (text, path string, err error) {
	d.mu.Lock()
	doc, ok := d.open[u]
	var stale bool
	if ok {
		text, path, stale = doc.text, doc.path, doc.stale
	}
	d.mu.Unlock()
	if ok && !stale {
		return text, path, nil
	}
	if path == "" {
		path = uriPath(u)
	}
	if path == "" {
		if ok {
			return text, "", nil // an unsaved buffer: its text as opened
		}
		return "", "", invalidParams("textDocument.uri: %s is not open and is not a file: URI", u)
	}
	b, err := readLimited(path)
	if err != nil {
		if ok {
			return text, path, nil
		}
		return "", "", invalidParams("textDocument.uri: %s is not open and cannot be read: %v", u, err)
	}
	if ok {
		d.mu.Lock()
		if cur := d.open[u]; cur == doc {
			doc.text, doc.stale = string(b), false
		}
		d.mu.Unlock()
	}
	return string(b), path, nil
}

func readLimited(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() > relevant.MaxTextBytes {
		return nil, fmt.Errorf("%d bytes, over the %d byte limit", fi.Size(), relevant.MaxTextBytes)
	}
	return os.ReadFile(path)
}
