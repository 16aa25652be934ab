package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// kind is the JSON type a parameter accepts. There is deliberately no
// unsigned kind: schemas with uint formats make some clients warn (mempal's
// P110), so every integer is a plain signed "integer".
type kind int

const (
	kString kind = iota
	kInteger
	kNumber
	kBoolean
	kStrings // an array of strings
)

func (k kind) String() string {
	switch k {
	case kInteger:
		return "an integer"
	case kNumber:
		return "a number"
	case kBoolean:
		return "a boolean (true or false)"
	case kStrings:
		return "an array of strings"
	}
	return "a string"
}

// param is one tool parameter: its schema and the rules the server enforces
// before any core function runs. One table per tool feeds both the schema
// clients see in tools/list and the validation, so the two cannot drift.
type param struct {
	name string
	kind kind
	desc string
	// required: every call must give it.
	required bool
	// actions lists the values of the tool's "action" parameter this one
	// applies to; nil means every action. A parameter given to an action it
	// does not apply to is rejected rather than silently ignored.
	actions []string
	// requiredFor lists the actions that need it.
	requiredFor []string
	enum        []string
	min, max    *float64
	maxLen      int // bytes; 0 means no limit beyond the core's own
	// full: only the full profile lists and accepts it; the core profile
	// leaves out what a session loop seldom needs.
	full bool
}

func num(v float64) *float64 { return &v }

// argError is a call whose arguments do not fit the tool's schema. It is
// answered with JSON-RPC error -32602 (invalid params) before the tool runs.
type argError struct {
	Tool  string `json:"tool"`
	Param string `json:"parameter,omitempty"`
	Msg   string `json:"-"`
}

func (e *argError) Error() string { return e.Tool + ": " + e.Msg }

// args are a call's validated arguments; absent and null values are left out.
type args map[string]json.RawMessage

// validate checks raw call arguments against the tool's parameters: an
// object, no unknown names, every value of its declared type and range,
// required ones present, and none given to an action it does not apply to.
// JSON null counts as "not given", since some clients send null for every
// optional field.
func (t *tool) validate(raw json.RawMessage) (args, error) {
	fail := func(p, format string, a ...any) error {
		return &argError{Tool: t.name, Param: p, Msg: fmt.Sprintf(format, a...)}
	}
	raw = bytes.TrimSpace(raw)
	out := args{}
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return nil, fail("", "arguments must be a JSON object of named parameters")
	}
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		return nil, fail("", "arguments are not a valid JSON object: %v", err)
	}
	if dupe := duplicateKey(raw); dupe != "" {
		return nil, fail(cut(dupe, maxQuote), "parameter %s is given twice", quote(dupe))
	}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names) // report the same error for the same call
	for _, k := range names {
		p := t.param(k)
		if p == nil {
			if why := t.fullOnly(k); why != "" {
				return nil, fail(k, "%s", why)
			}
			// A client's name is quoted in part: it may be a megabyte.
			return nil, fail(cut(k, maxQuote), "unknown parameter %s; %s takes %s", quote(k), t.name, t.paramList())
		}
		v := bytes.TrimSpace(obj[k])
		if bytes.Equal(v, []byte("null")) {
			continue
		}
		if k == "action" {
			if why := t.movedAction(v); why != "" {
				return nil, fail(k, "%s", why)
			}
		}
		norm, err := p.check(v)
		if err != nil {
			return nil, fail(k, "%s", err)
		}
		out[k] = norm
	}
	action := ""
	if a, ok := out["action"]; ok {
		_ = json.Unmarshal(a, &action)
	}
	for i := range t.params {
		p := &t.params[i]
		_, given := out[p.name]
		switch {
		case p.required && !given:
			return nil, fail(p.name, "%q is required: %s", p.name, firstSentence(p.desc))
		case given && action != "" && p.actions != nil && !slices.Contains(p.actions, action):
			return nil, fail(p.name, "%q does not apply to action %q (it is for %s)", p.name, action, strings.Join(p.actions, ", "))
		case !given && action != "" && slices.Contains(p.requiredFor, action):
			return nil, fail(p.name, "%q is required for action %q: %s", p.name, action, firstSentence(p.desc))
		}
	}
	return out, nil
}

// check validates one non-null value and returns it in the form decode
// expects (an integer written 5.0 becomes 5).
func (p *param) check(v json.RawMessage) (json.RawMessage, error) {
	bad := func() (json.RawMessage, error) {
		return nil, fmt.Errorf("%q must be %s, got %s", p.name, p.kind, describeJSON(v))
	}
	switch p.kind {
	case kString:
		var s string
		if v[0] != '"' || json.Unmarshal(v, &s) != nil {
			return bad()
		}
		if p.maxLen > 0 && len(s) > p.maxLen {
			return nil, fmt.Errorf("%q is %d bytes; the limit is %d", p.name, len(s), p.maxLen)
		}
		if !utf8.ValidString(s) {
			return nil, fmt.Errorf("%q is not valid UTF-8", p.name)
		}
		if p.enum != nil && !slices.Contains(p.enum, s) {
			return nil, fmt.Errorf("%q must be one of %s; got %s", p.name, strings.Join(p.enum, ", "), strconv.Quote(clip(s)))
		}
	case kInteger, kNumber:
		if !isNumber(v) {
			return bad()
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil || math.IsInf(f, 0) {
			return bad()
		}
		if (p.min != nil && f < *p.min) || (p.max != nil && f > *p.max) {
			return nil, fmt.Errorf("%q is %s; want %s", p.name, string(v), p.rangeText())
		}
		if p.kind == kInteger {
			// 5.0 is an integer in JSON Schema; 5.5 is not, and neither is
			// anything outside int64.
			if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
				return json.RawMessage(strconv.FormatInt(n, 10)), nil
			}
			if f != math.Trunc(f) || f < -(1<<53) || f > 1<<53 {
				return bad()
			}
			return json.RawMessage(strconv.FormatInt(int64(f), 10)), nil
		}
	case kBoolean:
		if !bytes.Equal(v, []byte("true")) && !bytes.Equal(v, []byte("false")) {
			return bad()
		}
	case kStrings:
		var ss []json.RawMessage
		if v[0] != '[' || json.Unmarshal(v, &ss) != nil {
			return bad()
		}
		for i, e := range ss {
			var s string
			if e = bytes.TrimSpace(e); len(e) == 0 || e[0] != '"' || json.Unmarshal(e, &s) != nil {
				return nil, fmt.Errorf("%q must be an array of strings; item %d is %s", p.name, i, describeJSON(e))
			}
		}
	}
	return v, nil
}

func (p *param) rangeText() string {
	switch {
	case p.min != nil && p.max != nil:
		return fmt.Sprintf("%g to %g", *p.min, *p.max)
	case p.min != nil:
		return fmt.Sprintf("%g or more", *p.min)
	case p.max != nil:
		return fmt.Sprintf("%g or less", *p.max)
	}
	return "a number"
}

// isNumber reports whether v is a JSON number token (not a numeric string).
func isNumber(v json.RawMessage) bool {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	_, ok := tok.(json.Number)
	return ok && !dec.More()
}

// describeJSON names a value's JSON type for an error message, with a short
// quote of it, so "limit must be an integer, got a string ("10")" tells the
// agent exactly what to change.
func describeJSON(v json.RawMessage) string {
	s := string(bytes.TrimSpace(v))
	if s == "" {
		return "nothing"
	}
	switch s[0] {
	case '"':
		return "a string (" + clip(s) + ")"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean (" + s + ")"
	case 'n':
		return "null"
	}
	return "the number " + clip(s)
}

func clip(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max]) + "..."
}

// duplicateKey returns a top-level key that occurs twice in the object raw:
// encoding/json keeps the last one silently, which would let a call smuggle
// a second value past the first.
func duplicateKey(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		k, _ := tok.(string)
		if seen[k] {
			return k
		}
		seen[k] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return ""
		}
	}
	return ""
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

func (t *tool) param(name string) *param {
	for i := range t.params {
		if t.params[i].name == name {
			return &t.params[i]
		}
	}
	return nil
}

func (t *tool) paramList() string {
	if len(t.params) == 0 {
		return "no parameters"
	}
	names := make([]string, len(t.params))
	for i, p := range t.params {
		names[i] = p.name
	}
	return strings.Join(names, ", ")
}

// schemaOptions turns the parameter table into mcp-go tool options. The
// hints whose absence means true in the spec (destructive, open-world) are
// always given: mcp-go's defaults say destructive and open-world, which
// would make clients ask before every search. Those whose absence means
// false (read-only, idempotent) are given only when true, and a read-only
// tool gets no destructive or idempotent hint, which the spec ignores for
// it: every session reads tools/list, so it says nothing twice.
func (t *tool) schemaOptions() []mcp.ToolOption {
	opts := []mcp.ToolOption{
		mcp.WithDescription(t.desc),
		mcp.WithTitleAnnotation(t.title),
		func(mt *mcp.Tool) {
			a := &mt.Annotations
			a.ReadOnlyHint, a.DestructiveHint, a.IdempotentHint = nil, nil, nil
			a.OpenWorldHint = mcp.ToBoolPtr(false) // only this machine's palace and files
			if t.readOnly {
				a.ReadOnlyHint = mcp.ToBoolPtr(true)
				return
			}
			a.DestructiveHint = mcp.ToBoolPtr(t.destructive)
			if t.idempotent {
				a.IdempotentHint = mcp.ToBoolPtr(true)
			}
		},
		// Unknown names are refused, and the schema says so, so clients and
		// models see the same contract the server enforces.
		mcp.WithSchemaAdditionalProperties(false),
	}
	for _, p := range t.params {
		po := []mcp.PropertyOption{mcp.Description(p.schemaDesc())}
		if p.required {
			po = append(po, mcp.Required())
		}
		if p.enum != nil {
			po = append(po, mcp.Enum(p.enum...))
		}
		// maxLen is enforced (validate names the limit) but not listed: the
		// limits are far above what an agent writes, and every listed
		// keyword costs every session its characters.
		if p.min != nil {
			po = append(po, mcp.Min(*p.min))
		}
		if p.max != nil {
			po = append(po, mcp.Max(*p.max))
		}
		switch p.kind {
		case kString:
			opts = append(opts, mcp.WithString(p.name, po...))
		case kInteger:
			opts = append(opts, mcp.WithInteger(p.name, po...))
		case kNumber:
			opts = append(opts, mcp.WithNumber(p.name, po...))
		case kBoolean:
			opts = append(opts, mcp.WithBoolean(p.name, po...))
		case kStrings:
			opts = append(opts, mcp.WithArray(p.name, append(po, mcp.WithStringItems())...))
		}
	}
	return opts
}

// schemaDesc is the description a client shows: the text, plus which
// actions use the parameter, and need it, when that is not all of them:
// "For add, check (required)." or "For query (required), timeline."
func (p *param) schemaDesc() string {
	if p.actions == nil {
		if len(p.requiredFor) > 0 {
			return p.desc + " Required for " + strings.Join(p.requiredFor, ", ") + "."
		}
		return p.desc
	}
	if slices.Equal(p.actions, p.requiredFor) {
		return p.desc + " For " + strings.Join(p.actions, ", ") + " (required)."
	}
	names := make([]string, len(p.actions))
	for i, a := range p.actions {
		names[i] = a
		if slices.Contains(p.requiredFor, a) {
			names[i] += " (required)"
		}
	}
	return p.desc + " For " + strings.Join(names, ", ") + "."
}

// decode fills dst (a struct with json tags naming the parameters) from
// validated arguments.
func (a args) decode(dst any) error {
	b, err := json.Marshal(map[string]json.RawMessage(a))
	if err != nil {
		return fmt.Errorf("arguments: %w", err)
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return fmt.Errorf("arguments: %w", err)
	}
	return nil
}
