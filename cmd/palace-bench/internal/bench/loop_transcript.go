package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// loopTranscript is one session's transcript, written line by line as
// its agent writes it, where its agent keeps it, so the hooks read and
// accept it as they would the agent's own. The line shapes are those of
// cmd/palace/hookloop_test.go's agents (Claude Code's project .jsonl,
// Codex's rollout file).
type loopTranscript struct {
	agent, path, session, cwd string
	n                         int // ids of the lines written so far
}

// newLoopTranscript creates the session's transcript under the user's
// home: Claude Code's ~/.claude/projects/<cwd, dashed>/<session>.jsonl or
// Codex's ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl.
func newLoopTranscript(user, agent, session, cwd string) (*loopTranscript, error) {
	t := &loopTranscript{agent: agent, session: session, cwd: cwd}
	now := time.Now().UTC()
	var head string
	switch agent {
	case loopCodex:
		t.path = filepath.Join(user, ".codex", "sessions", now.Format("2006/01/02"),
			"rollout-"+now.Format("2006-01-02T15-04-05")+"-"+session+".jsonl")
		ts := stamp()
		head = jsonLine(map[string]any{"timestamp": ts, "type": "session_meta", "payload": map[string]any{
			"id": session, "timestamp": ts, "cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.130.0"}}) +
			jsonLine(codexItem(map[string]any{"type": "message", "role": "user", "content": []any{
				map[string]any{"type": "input_text", "text": "<environment_context>\n  <cwd>" + cwd + "</cwd>\n</environment_context>"}}}))
	default:
		dashed := strings.NewReplacer("/", "-", ".", "-").Replace(cwd)
		t.path = filepath.Join(user, ".claude", "projects", dashed, session+".jsonl")
	}
	if err := os.MkdirAll(filepath.Dir(t.path), 0o700); err != nil {
		return nil, fmt.Errorf("bench loop: %w", err)
	}
	if err := os.WriteFile(t.path, []byte(head), 0o600); err != nil {
		return nil, fmt.Errorf("bench loop: %w", err)
	}
	return t, nil
}

// stamp is a transcript timestamp: now, as the agent writes it.
func stamp() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

func jsonLine(v any) string {
	b, _ := json.Marshal(v)
	return string(b) + "\n"
}

func codexItem(payload map[string]any) map[string]any {
	return map[string]any{"timestamp": stamp(), "type": "response_item", "payload": payload}
}

// claudeLine is one Claude Code record: a user or assistant message with
// the session's fields.
func (t *loopTranscript) claudeLine(typ string, message map[string]any) string {
	t.n++
	return jsonLine(map[string]any{"type": typ, "message": message, "uuid": fmt.Sprintf("%s-%d", typ[:1], t.n),
		"sessionId": t.session, "cwd": t.cwd, "timestamp": stamp()})
}

func (t *loopTranscript) add(s string) error {
	f, err := os.OpenFile(t.path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("bench loop: %w", err)
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// user writes the person's message.
func (t *loopTranscript) user(text string) error {
	if t.agent == loopCodex {
		return t.add(jsonLine(codexItem(map[string]any{"type": "message", "role": "user",
			"content": []any{map[string]any{"type": "input_text", "text": text}}})) +
			jsonLine(map[string]any{"timestamp": stamp(), "type": "event_msg", "payload": map[string]any{"type": "user_message", "message": text, "kind": "plain"}}))
	}
	return t.add(t.claudeLine("user", map[string]any{"role": "user", "content": text}))
}

// tool writes one tool call and its result.
func (t *loopTranscript) tool(name string, input map[string]any, result string) error {
	t.n++
	id := fmt.Sprintf("toolu_%04d", t.n)
	if t.agent == loopCodex {
		args, _ := json.Marshal(input)
		return t.add(jsonLine(codexItem(map[string]any{"type": "function_call", "name": name, "arguments": string(args), "call_id": id})) +
			jsonLine(codexItem(map[string]any{"type": "function_call_output", "call_id": id, "output": result})))
	}
	return t.add(t.claudeLine("assistant", map[string]any{"id": "msg_" + id, "role": "assistant", "model": "claude-opus",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}}) +
		t.claudeLine("user", map[string]any{"role": "user",
			"content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": result}}}))
}

// reply writes the agent's answer.
func (t *loopTranscript) reply(text string) error {
	if t.agent == loopCodex {
		return t.add(jsonLine(codexItem(map[string]any{"type": "message", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": text}}})))
	}
	t.n++
	return t.add(t.claudeLine("assistant", map[string]any{"id": fmt.Sprintf("msg_%04d", t.n), "role": "assistant", "model": "claude-opus",
		"content": []any{map[string]any{"type": "text", "text": text}}}))
}

// readResult is what Claude Code's Read tool returns for a file: its
// lines numbered as `cat -n` does, with an arrow.
func readResult(content string) string {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	for i, l := range lines {
		lines[i] = fmt.Sprintf("%6d→%s", i+1, l)
	}
	return strings.Join(lines, "\n")
}

// mcpToolName is the name an agent's transcript gives a call to one of
// Palace's MCP tools: mcp__<server>__<tool>, Claude Code's naming; the
// bench uses it for Codex too.
func mcpToolName(tool string) string { return "mcp__palace__" + tool }
