package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/palace-dev/palace/core/ops"
)

// LSP's own error codes: a request the client cancelled, and a valid
// request that failed for a reason the user should read.
const (
	requestCancelled jsonrpc2.Code = -32800
	requestFailed    jsonrpc2.Code = -32803
)

var errCancelled = errors.New("request cancelled")

// paramsError is a request whose parameters could not be read.
type paramsError struct{ msg string }

func (e *paramsError) Error() string { return e.msg }

func invalidParams(format string, a ...any) error {
	return &paramsError{msg: fmt.Sprintf(format, a...)}
}

// wireError maps an error to the JSON-RPC error the client sees. jsonrpc2
// v0.10 would keep only the code of a wrapped *jsonrpc2.Error and drop its
// message, so the message is built here, whole: the reason is what the
// editor shows.
func wireError(err error) *jsonrpc2.Error {
	var pe *paramsError
	var we *jsonrpc2.Error
	switch {
	case errors.As(err, &we):
		return we
	case errors.As(err, &pe):
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	case errors.Is(err, errCancelled), errors.Is(err, context.Canceled):
		return jsonrpc2.NewError(requestCancelled, "request cancelled")
	}
	switch ops.Classify(err) {
	case ops.Invalid, ops.NotFound:
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	case ops.Busy, ops.Conflict:
		// The request was valid and nothing was written: LSP's
		// RequestFailed, whose message the editor shows as it is.
		return jsonrpc2.NewError(requestFailed, err.Error())
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}

// decode reads params into v. Missing params read as an empty object, so
// each method's own checks name the missing field; malformed JSON and
// fields of the wrong type are reported with the field's name. LSP's own
// methods tolerate fields this server does not know (clients add them as
// the protocol grows).
func decode(params json.RawMessage, v any) error { return decodeJSON(params, v, false) }

// decodeParams is decode for Palace's own palace/* methods, which refuse a
// parameter they do not take, as the MCP tools do: a misspelt or
// unsupported option must not be ignored silently.
func decodeParams(params json.RawMessage, v any) error { return decodeJSON(params, v, true) }

func decodeJSON(params json.RawMessage, v any, strict bool) error {
	if len(params) == 0 || string(params) == "null" {
		params = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(params))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	if err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te):
			field := te.Field
			if field == "" {
				return invalidParams("params: want an object, got %s", te.Value)
			}
			return invalidParams("%s: want %s, got %s", field, jsonType(te.Type.String()), te.Value)
		case errors.As(err, &se):
			return invalidParams("params are not valid JSON: %v", se)
		}
		// encoding/json names an unknown field only in its message.
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return invalidParams("%s: unknown parameter", strings.Trim(name, `"`))
		}
		return invalidParams("params: %v", err)
	}
	return nil
}

// jsonType names a Go type as the JSON a client should send.
func jsonType(t string) string {
	switch {
	case strings.HasPrefix(t, "uint"):
		return "a non-negative integer"
	case strings.HasPrefix(t, "int"):
		return "an integer"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "string", strings.HasSuffix(t, "URI"):
		return "a string"
	case t == "bool":
		return "a boolean"
	case strings.HasPrefix(t, "[]"):
		return "an array"
	}
	return "an object"
}
