package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
)

// palaceRemember files a note, typically a selection: {text?, uri?, range?,
// wing?, room?, importance?, force?}. Without text the selection's text is
// taken from the document. The source is the file with the selected lines
// (path:12-20), which is what the note's citation shows. The wing defaults
// to the document's folder's wing, else the only folder's.
func palaceRemember(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	var ps struct {
		Text       string          `json:"text"`
		URI        string          `json:"uri"`
		Range      *protocol.Range `json:"range"`
		Wing       string          `json:"wing"`
		Room       string          `json:"room"`
		Importance *int            `json:"importance"`
		Force      bool            `json:"force"`
	}
	if err := decodeParams(raw, &ps); err != nil {
		return nil, err
	}
	n := ops.RememberRequest{Text: ps.Text, Wing: ps.Wing, Room: ps.Room, Importance: ops.DefaultImportance, Force: ps.Force}
	if ps.Importance != nil {
		n.Importance = *ps.Importance
	}
	var path string
	if ps.URI != "" {
		path = uriPath(ps.URI)
		if ps.Range != nil && n.Text == "" {
			// Only the selection's text is read; docs.text refuses a file
			// that is neither open nor inside the workspace, so a uri
			// naming any other (file:///../../etc/passwd, or a symlink out
			// of the folder) cannot copy it into the palace.
			text, _, err := s.docs.text("uri", ps.URI, s.folders)
			if err != nil {
				return nil, err
			}
			n.Text = sliceRange(text, *ps.Range)
		}
		n.Source = path
		if n.Source == "" {
			n.Source = ps.URI
		}
		if ps.Range != nil {
			// The note records the lines it came from in its source, the
			// only place a note has for them.
			end := int(ps.Range.End.Line) + 1
			if ps.Range.End.Character == 0 && ps.Range.End.Line > ps.Range.Start.Line {
				end-- // a selection of whole lines ends at the next line's start
			}
			n.Source = fmt.Sprintf("%s:%d-%d", n.Source, ps.Range.Start.Line+1, end)
		}
	} else if ps.Range != nil {
		return nil, input.Invalid("range", "needs uri")
	}
	if strings.TrimSpace(n.Wing) == "" {
		f := s.folders.of(path)
		if f == nil {
			f = s.folders.only()
		}
		if f == nil {
			return nil, input.Invalid("wing", "is required: the document is in no workspace folder")
		}
		n.Wing = f.wing()
	}
	return ops.Remember(ctx, s.p, n)
}
