package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// precheck looks at one incoming JSON-RPC message before mcp-go does. A
// tools/call for one of Palace's tools whose arguments break the tool's
// schema (an unknown name, a wrong type, a missing required parameter) is
// answered here with JSON-RPC error -32602 naming the parameter, and so is
// a call to a tool of the full profile that this server leaves out; mcp-go
// itself can only answer a handler's error with -32603, or turn schema
// failures into tool results. A method name longer than any MCP method is
// refused here too (-32601), quoted only in part. It returns the response to send, or nil to
// let the message through untouched.
func (s *Server) precheck(msg []byte) []byte {
	msg = bytes.TrimSpace(msg)
	if len(msg) == 0 || msg[0] != '{' {
		return nil // not a single request (batches are not MCP since 2025-06-18)
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(msg, &req) != nil {
		return nil
	}
	if resp := refuseLongMethod(req.Method, req.ID); resp != nil {
		s.log.Info("request refused", "method", cut(req.Method, maxQuote), "bytes", len(req.Method))
		return resp
	}
	if req.Method != string(mcp.MethodToolsCall) || len(req.ID) == 0 || bytes.Equal(req.ID, []byte("null")) {
		return nil
	}
	var call struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(req.Params, &call) != nil {
		return nil // malformed params: mcp-go answers those itself
	}
	t := s.tools[call.Name]
	if t == nil && s.elsewhere[call.Name] {
		s.log.Info("tool call refused", "tool", call.Name, "profile", s.opts.Profile)
		return errorLine(req.ID, mcp.INVALID_PARAMS, fmt.Sprintf("tool %q not found: it is in the full profile only; %s", call.Name, fullHint),
			&argError{Tool: call.Name})
	}
	if t == nil {
		return nil // unknown tool: mcp-go's -32602 "tool not found"
	}
	_, err := t.validate(call.Arguments)
	if err == nil {
		return nil
	}
	var ae *argError
	data := any(nil)
	if errors.As(err, &ae) {
		data = ae
	}
	s.log.Info("tool call refused", "tool", t.name, "error", err)
	return errorLine(req.ID, mcp.INVALID_PARAMS, "Invalid params: "+err.Error(), data)
}
