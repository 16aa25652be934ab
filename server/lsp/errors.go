package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/store"
)

// requestCancelled is LSP's code for a request the client cancelled.
const requestCancelled jsonrpc2.Code = -32800

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
	case errors.As(err, &pe), errors.Is(err, input.ErrInvalid), errors.Is(err, store.ErrNotFound):
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	case errors.Is(err, errCancelled), errors.Is(err, context.Canceled):
		return jsonrpc2.NewError(requestCancelled, "request cancelled")
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}

// decode reads params into v. Missing params read as an empty object, so
// each method's own checks name the missing field; malformed JSON and
// fields of the wrong type are reported with the field's name.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		params = json.RawMessage("{}")
	}
	if err := json.Unmarshal(params, v); err != nil {
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

// retryBusy runs fn until it succeeds, fails for another reason, or ctx
// ends. A busy palace is a wait, never an error shown in the editor: the
// core's writes are single transactions, so running one again is safe.
// (Writes that go through core/ops get ops' own retries; this serves the
// methods not yet moved there.)
func retryBusy[T any](ctx context.Context, s *server, what string, fn func() (T, error)) (T, error) {
	delay := 50 * time.Millisecond
	for {
		v, err := fn()
		if err == nil || !store.IsBusy(err) || ctx.Err() != nil {
			return v, err
		}
		s.logf("%s: the palace is busy (another process is writing); retrying in %s", what, delay)
		select {
		case <-ctx.Done():
			return v, err
		case <-time.After(delay):
		}
		delay = min(delay*2, 2*time.Second)
	}
}
