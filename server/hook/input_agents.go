package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/palace-dev/palace/core/input"
)

// ReadAgentInput reads the hook JSON agent sent, as ReadInput does, and
// fills in what the agent names differently from Claude Code: VS Code
// sends sessionId (its other fields are Claude Code's), Copilot CLI sends
// sessionId and transcriptPath when its hooks are configured with
// camelCase event names, Cursor identifies the chat by conversation_id
// and the project by workspace_roots. A field under Claude Code's name
// wins.
func ReadAgentInput(agent string, r io.Reader) (Input, error) {
	b, err := firstValue(r)
	if err != nil {
		return Input{}, err
	}
	in, err := ReadInput(bytes.NewReader(b))
	if err != nil {
		return in, err
	}
	var alt struct {
		SessionID      string   `json:"sessionId"`
		TranscriptPath string   `json:"transcriptPath"`
		HookEventName  string   `json:"hookEventName"`
		ConversationID string   `json:"conversation_id"`
		WorkspaceRoots []string `json:"workspace_roots"`
	}
	// ReadInput decoded the same bytes as an object; a field of another
	// type here only leaves its alias unused.
	_ = json.NewDecoder(bytes.NewReader(b)).Decode(&alt)
	fill := func(dst *string, vals ...string) {
		for _, v := range vals {
			if *dst == "" {
				*dst = v
			}
		}
	}
	fill(&in.SessionID, alt.SessionID, alt.ConversationID)
	fill(&in.TranscriptPath, alt.TranscriptPath)
	fill(&in.HookEventName, alt.HookEventName)
	if len(alt.WorkspaceRoots) > 0 {
		fill(&in.CWD, alt.WorkspaceRoots[0])
	}
	return in, nil
}

// firstValue reads the first JSON value of r and nothing after it: an
// agent may keep the hook's stdin open once its input is written (reported
// of Claude Code at SessionEnd, whose hooks it cancels after about 1.5 s),
// and reading to the end of input would wait out the hook's deadline.
func firstValue(r io.Reader) ([]byte, error) {
	lr := &io.LimitedReader{R: r, N: MaxInput + 1}
	var raw json.RawMessage
	err := json.NewDecoder(lr).Decode(&raw)
	var syntax *json.SyntaxError
	switch {
	case lr.N <= 0 && (err != nil || len(raw) > MaxInput):
		return nil, input.Invalid("hook input", "is over %d bytes", MaxInput)
	case errors.As(err, &syntax) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, input.Invalid("hook input", "is not a JSON object (%v)", err)
	case err != nil:
		return nil, fmt.Errorf("read hook input: %w", err)
	}
	return raw, nil
}
