package lsp

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/palace-dev/palace/core/relevant"
)

// documents holds the text of open documents, kept current by full-document
// didChange notifications; saves come without text.
type documents struct {
	mu   sync.Mutex
	open map[string]*document // by URI as the client sent it
}

type document struct {
	path string
	text string
}

func newDocuments() *documents { return &documents{open: map[string]*document{}} }

func (d *documents) opened(u, text string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.open[u] = &document{path: uriPath(u), text: text}
}

// changed replaces an open document's text with the editor's current text.
func (d *documents) changed(u, text string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if doc, ok := d.open[u]; ok {
		doc.text = text
		return
	}
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
		doc.text = *text
	}
	// Without text, the document already holds the editor's text (full
	// sync), which is what was saved.
}

// isOpen reports whether the client has u open.
func (d *documents) isOpen(u string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.open[u]
	return ok
}

// text returns a document's text and path: the open document's, else the
// file's on disk.
func (d *documents) text(u string) (text, path string, err error) {
	d.mu.Lock()
	doc, ok := d.open[u]
	if ok {
		text, path = doc.text, doc.path
	}
	d.mu.Unlock()
	if ok {
		return text, path, nil
	}
	if path = uriPath(u); path == "" {
		return "", "", invalidParams("textDocument.uri: %s is not open and is not a file: URI", u)
	}
	b, err := readLimited(path)
	if err != nil {
		return "", "", invalidParams("textDocument.uri: %s is not open and cannot be read: %v", u, err)
	}
	return string(b), path, nil
}

// readLimited reads a regular file of at most relevant.MaxTextBytes. A FIFO
// or device reports size 0 and would block or never end, so only regular
// files are read, and never past the limit even if the file grows.
func readLimited(path string) ([]byte, error) {
	// Stat before opening: opening a FIFO blocks until it has a writer.
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	if fi.Size() > relevant.MaxTextBytes {
		return nil, fmt.Errorf("%d bytes, over the %d byte limit", fi.Size(), relevant.MaxTextBytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, relevant.MaxTextBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > relevant.MaxTextBytes {
		return nil, fmt.Errorf("over the %d byte limit", relevant.MaxTextBytes)
	}
	return b, nil
}
