package lsp

import (
	"context"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// fixture is a small project whose relevant drawers are known: the cursor
// on computeChecksum inside verifyUpload should bring the design note that
// names both first.
var fixture = map[string]string{
	"src/upload.go": `package upload

import "errors"

// verifyUpload checks a finished upload against the checksum the client sent.
func verifyUpload(data []byte, want uint32) error {
	got := computeChecksum(data)
	if got != want {
		return errors.New("upload corrupted")
	}
	return nil
}
`,
	"src/checksum.go": `package upload

import "hash/crc32"

var table = crc32.MakeTable(crc32.Castagnoli)

// computeChecksum returns the CRC-32C of b.
func computeChecksum(b []byte) uint32 {
	return crc32.Checksum(b, table)
}
`,
	"src/download.go": `package upload

import "errors"

// fetch reads data for a download; data is returned whole.
func fetch(data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, errors.New("no data")
	}
	return data, nil
}
`,
	"docs/decisions.md": `# Decisions

## Upload integrity

verifyUpload compares the checksum the client sent with computeChecksum, which
uses CRC-32C rather than SHA-256: every upload is checked on the request path
and CRC-32C is hardware accelerated. Revisit if uploads cross untrusted networks.

## Logging

Logs go to stderr as JSON lines.
`,
	".gitignore":   "build/\n*.tmp\n",
	"build/out.go": "package build // generated, ignored\n",
}

// cursor is where palace/relevant is asked: on computeChecksum in upload.go.
const cursorLine, cursorChar = 6, 12

// addConversation files a conversation drawer in another wing, as a mined
// chat export would be: palace/relevant searches conversations too.
func addConversation(t *testing.T, home, content string) string {
	t.Helper()
	p, err := palace.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	id := store.DrawerID("chats", "/chats/session.jsonl", 0, store.ContentHash(content))
	_, err = p.Store.InsertDrawers(context.Background(), []store.Drawer{{
		ID: id, Wing: "chats", Room: "conversations", Kind: store.KindConversation, Source: "/chats/session.jsonl",
		Content: content, ContentHash: store.ContentHash(content), CreatedAt: time.Now(), OccurredAt: time.Now(),
	}})
	if err != nil {
		t.Fatal(err)
	}
	return id
}
