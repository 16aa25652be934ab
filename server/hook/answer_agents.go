package hook

import (
	"bytes"
	"encoding/json"
)

// AgentAnswer rewrites an answer Run wrote in Claude Code's protocol
// (which Codex and Gemini CLI share: hookSpecificOutput.additionalContext
// at SessionStart, decision "block" with a reason at Stop) into the
// protocol of agent, for event:
//
//	copilot  the same answer, plus additionalContext at the top (what
//	         Copilot CLI's sessionStart reads; VS Code reads
//	         hookSpecificOutput) and, for a block, hookSpecificOutput
//	         {hookEventName, decision, reason} (VS Code's Stop; Copilot
//	         CLI's agentStop reads the top-level decision and reason)
//	cursor   {"additional_context": ...} at sessionStart,
//	         {"followup_message": reason} at stop
//
// Anything else, and an answer that is not a JSON object, is returned as
// it is.
func AgentAnswer(agent, event string, answer []byte) []byte {
	if len(answer) == 0 || (agent != AgentCopilot && agent != AgentCursor) {
		return answer
	}
	var a map[string]any
	if json.Unmarshal(answer, &a) != nil {
		return answer
	}
	var context string
	specific, _ := a["hookSpecificOutput"].(map[string]any)
	if specific != nil {
		context, _ = specific["additionalContext"].(string)
	}
	reason, _ := a["reason"].(string)
	block := a["decision"] == "block"
	switch agent {
	case AgentCopilot:
		if context != "" {
			a["additionalContext"] = context
		}
		if block {
			if specific == nil {
				specific = map[string]any{"hookEventName": agentEventKey(agent, event)}
			}
			specific["decision"], specific["reason"] = "block", reason
			a["hookSpecificOutput"] = specific
		}
	case AgentCursor:
		out := map[string]any{}
		if context != "" {
			out["additional_context"] = context
		}
		if block {
			out["followup_message"] = reason
		}
		a = out
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(a) != nil {
		return answer
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// agentEventKey is the name agent's hooks file gives one of Palace's
// events.
func agentEventKey(agent, event string) string {
	for _, ev := range agentSpecs[agent].events {
		if ev.event == event {
			return ev.key
		}
	}
	return event
}
