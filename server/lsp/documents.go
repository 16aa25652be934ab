package lsp

import (
	"sync"

	"github.com/palace-dev/palace/core/fsx"
	"github.com/palace-dev/palace/core/ops"
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
	// size is the text's length when it is over ops.MaxDocumentBytes:
	// such a text is not kept, and reading the document says why.
	size int
}

// set keeps text, or only its size when it is over the limit the clues
// read (ops.MaxDocumentBytes); the error says so, for the log.
func (doc *document) set(u, text string) error {
	if len(text) > ops.MaxDocumentBytes {
		doc.text, doc.size = "", len(text)
		return tooLarge(u, len(text))
	}
	doc.text, doc.size = text, 0
	return nil
}

func tooLarge(u string, size int) error {
	return invalidParams("%s is %d bytes; documents over %d bytes are not kept or read", u, size, ops.MaxDocumentBytes)
}

func newDocuments() *documents { return &documents{open: map[string]*document{}} }

func (d *documents) opened(u, text string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	doc := &document{path: uriPath(u)}
	d.open[u] = doc
	return doc.set(u, text)
}

// changed replaces an open document's text with the editor's current text.
func (d *documents) changed(u, text string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	doc, ok := d.open[u]
	if !ok {
		doc = &document{path: uriPath(u)}
		d.open[u] = doc
	}
	return doc.set(u, text)
}

func (d *documents) closed(u string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.open, u)
}

// saved records a save; text is the saved text when the client sent it.
func (d *documents) saved(u string, text *string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	doc, ok := d.open[u]
	if !ok || text == nil {
		// Without text, the document already holds the editor's text
		// (full sync), which is what was saved.
		return nil
	}
	return doc.set(u, *text)
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
	size := 0
	if ok {
		text, path, size = doc.text, doc.path, doc.size
	}
	d.mu.Unlock()
	if ok && size > 0 {
		return "", "", invalidParams("%s: %v", field, tooLarge(u, size))
	}
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
	b, err := fsx.ReadRegular(real, ops.MaxDocumentBytes)
	if err != nil {
		return "", "", invalidParams("%s: %s is not open and cannot be read: %v", field, u, err)
	}
	return string(b), path, nil
}
