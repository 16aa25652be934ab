//go:build unix

package lsp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// documents.text reads from disk only files inside a workspace folder,
// symlinks resolved; an open document is the editor's text wherever it is.
func TestDocumentTextStaysInTheWorkspace(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := writeTree(t, filepath.Join(base, "proj"), map[string]string{"a.go": "package a // tokinside\n"})
	outside := writeTree(t, filepath.Join(base, "outside"), map[string]string{"secret.go": "package s // toksecret\n"})
	secret := filepath.Join(outside, "secret.go")
	if err := os.Symlink(secret, filepath.Join(root, "leak.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.go"), 0o600); err != nil {
		t.Fatal(err)
	}
	ws := &folders{}
	ws.add(fileURI(root), "", config{})
	d := newDocuments()

	inside := filepath.Join(root, "a.go")
	if text, path, err := d.text("textDocument.uri", fileURI(inside), ws); err != nil || path != inside || !strings.Contains(text, "tokinside") {
		t.Errorf("a closed file inside the workspace: %q, %q, %v", text, path, err)
	}
	for name, u := range map[string]string{
		"a file outside":             fileURI(secret),
		"a symlink leading out":      fileURI(filepath.Join(root, "leak.go")),
		"a file under a linked dir":  fileURI(filepath.Join(root, "linkdir", "secret.go")),
		"dot-dots out of the folder": "file://" + root + "/../outside/secret.go",
		"/etc/passwd by dot-dots":    "file:///../../etc/passwd",
	} {
		text, _, err := d.text("textDocument.uri", u, ws)
		var pe *paramsError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), "outside every workspace folder") || !strings.HasPrefix(err.Error(), "textDocument.uri: ") || text != "" {
			t.Errorf("%s (%s): %q, %v; want a params error saying it is outside the workspace", name, u, text, err)
		}
	}
	// A missing file inside is unreadable, not outside.
	if _, _, err := d.text("uri", fileURI(filepath.Join(root, "missing.go")), ws); err == nil || !strings.Contains(err.Error(), "cannot be read") {
		t.Errorf("missing file: %v", err)
	}
	// A FIFO inside the workspace is refused at once rather than opened.
	done := make(chan error, 1)
	go func() {
		_, _, err := d.text("uri", fileURI(filepath.Join(root, "fifo.go")), ws)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("FIFO: %v, want not a regular file", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO in the workspace blocked")
	}
	// The editor's open document is its text, wherever the file is; once
	// closed, the file outside is refused again.
	d.opened(fileURI(secret), "package s // edited")
	if text, path, err := d.text("uri", fileURI(secret), ws); err != nil || text != "package s // edited" || path != secret {
		t.Errorf("open document outside the workspace: %q, %q, %v", text, path, err)
	}
	d.closed(fileURI(secret))
	if _, _, err := d.text("uri", fileURI(secret), ws); err == nil {
		t.Errorf("closed document outside the workspace was read")
	}
	// With no workspace folder, nothing unopened is read.
	if _, _, err := d.text("uri", fileURI(inside), &folders{}); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("no folders: %v", err)
	}
}
