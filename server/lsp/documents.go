package lsp

import (
	"sync"

	"github.com/palace-dev/palace/core/fsx"
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

// text returns a document's text and path: the open document's, else the
// file's on disk if it lies inside a workspace folder of ws, symlinks
// resolved. The client may name any file, and what is read goes back to it
// (palace/relevant's clues, hover's symbol) or into the palace
// (palace/remember), so a file the editor has not opened is read only from
// the folders the user opened. field names the URI's parameter in errors.
func (d *documents) text(field, u string, ws *folders) (text, path string, err error) {
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
		return "", "", invalidParams("%s: %s is not open and is not a file: URI", field, u)
	}
	real, inside, err := ws.holds(path)
	if err != nil {
		return "", "", invalidParams("%s: %s is not open and cannot be read: %v", field, u, err)
	}
	if !inside {
		return "", "", invalidParams("%s: %s is not open and is outside every workspace folder; only open documents and files inside the workspace are read", field, u)
	}
	b, err := fsx.ReadRegular(real, relevant.MaxTextBytes)
	if err != nil {
		return "", "", invalidParams("%s: %s is not open and cannot be read: %v", field, u, err)
	}
	return string(b), path, nil
}
