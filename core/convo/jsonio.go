package convo

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// trimBOM drops a UTF-8 byte order mark; Windows tools add one to JSON
// exports and encoding/json rejects it.
func trimBOM(b []byte) []byte {
	return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
}

func isBlank(s string) bool {
	return strings.TrimFunc(s, unicode.IsSpace) == ""
}

// eachJSONL calls fn for every non-blank line of a JSONL file with its
// 1-based line number. A line fn rejects (bad JSON, wrong shape) is skipped
// so one corrupt record does not hide the rest of a session; the first such
// line is reported. A cut-off last line, typical of a session still being
// written, is reported as truncated.
func eachJSONL(format string, data []byte, fn func(no int, line []byte) error) *ParseError {
	return eachJSONLFrom(format, data, 0, 0, func(no int, _ int64, line []byte) error { return fn(no, line) })
}

// eachJSONLFrom is eachJSONL over data that starts at byte base of its
// file, after line lines: line numbers and offsets, passed to fn (the
// line's start) and reported, are the file's.
func eachJSONLFrom(format string, data []byte, line int, base int64, fn func(no int, off int64, line []byte) error) *ParseError {
	var first *ParseError
	bad := 0
	no := line
	off := 0
	for off < len(data) {
		no++
		end := bytes.IndexByte(data[off:], '\n')
		var line []byte
		next := len(data)
		if end >= 0 {
			line = data[off : off+end]
			next = off + end + 1
		} else {
			line = data[off:]
		}
		start := off
		off = next
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if err := fn(no, base+int64(start), line); err != nil {
			bad++
			if first == nil {
				reason := err.Error()
				if end < 0 && isTruncation(line) {
					reason = "truncated record: " + reason
				}
				first = &ParseError{Format: format, Line: no, Offset: base + int64(start), Reason: reason}
			}
		}
	}
	if first != nil && bad > 1 {
		first.Reason += " (" + strconv.Itoa(bad) + " bad lines in all)"
	}
	return first
}

// isTruncation tells a record cut mid-object from one that is complete but
// wrong: only the former ends before its JSON does.
func isTruncation(line []byte) bool {
	var v any
	err := json.Unmarshal(line, &v)
	var se *json.SyntaxError
	return err != nil && (errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &se) && se.Offset >= int64(len(line)))
}

// streamArray decodes a top-level JSON array one element at a time so that a
// truncated export still yields every element before the break. fn may
// reject an element (wrong shape); that is reported but the stream goes on.
func streamArray(format string, data []byte, fn func(i int, raw json.RawMessage) error) *ParseError {
	dec := json.NewDecoder(bytes.NewReader(data))
	p := skipWS(data, 0)
	tok, err := dec.Token()
	if err != nil {
		return decodeErr(format, data, p, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return &ParseError{Format: format, Offset: p, Reason: "expected a JSON array"}
	}
	perr, _ := streamElems(format, dec, data, fn)
	return perr
}

// streamElems reads array elements after the opening '[' up to and
// including the closing ']'. broken reports a syntax break, after which the
// decoder cannot go on; a rejected element leaves it usable.
//
// Separators are checked here rather than left to the decoder because the
// offsets in the decoder's own errors are not reliable in token mode.
func streamElems(format string, dec *json.Decoder, data []byte, fn func(i int, raw json.RawMessage) error) (perr *ParseError, broken bool) {
	for i := 0; dec.More(); i++ {
		p := skipWS(data, dec.InputOffset())
		if i > 0 {
			if p >= int64(len(data)) || data[p] != ',' {
				return firstOf(perr, &ParseError{Format: format, Offset: p, Reason: "expected comma after array element"}), true
			}
			p = skipWS(data, p+1)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return firstOf(perr, decodeErr(format, data, p, err)), true
		}
		if err := fn(i, raw); err != nil && perr == nil {
			perr = &ParseError{Format: format, Offset: p, Reason: "element " + strconv.Itoa(i) + ": " + err.Error()}
		}
	}
	p := skipWS(data, dec.InputOffset())
	if _, err := dec.Token(); err != nil {
		return firstOf(perr, decodeErr(format, data, p, err)), true
	}
	return perr, false
}

func firstOf(a, b *ParseError) *ParseError {
	if a != nil {
		return a
	}
	return b
}

// streamObject walks a top-level JSON object: the array under arrayKey is
// streamed element by element through elem, every other member is handed to
// member whole. A truncated document keeps everything read before the break.
func streamObject(format string, data []byte, arrayKey string, member func(key string, raw json.RawMessage), elem func(i int, raw json.RawMessage) error) *ParseError {
	dec := json.NewDecoder(bytes.NewReader(data))
	p := skipWS(data, 0)
	tok, err := dec.Token()
	if err != nil {
		return decodeErr(format, data, p, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return &ParseError{Format: format, Offset: p, Reason: "expected a JSON object"}
	}
	var first *ParseError
	for dec.More() {
		p := skipWS(data, dec.InputOffset())
		if p < int64(len(data)) && data[p] == ',' {
			p = skipWS(data, p+1)
		}
		tok, err := dec.Token()
		if err != nil {
			return firstOf(first, decodeErr(format, data, p, err))
		}
		key, _ := tok.(string)
		p = skipWS(data, dec.InputOffset())
		if p < int64(len(data)) && data[p] == ':' {
			p = skipWS(data, p+1)
		}
		if key != arrayKey {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return firstOf(first, decodeErr(format, data, p, err))
			}
			member(key, raw)
			continue
		}
		tok, err = dec.Token()
		if err != nil {
			return firstOf(first, decodeErr(format, data, p, err))
		}
		d, isDelim := tok.(json.Delim)
		switch {
		case isDelim && d == '[':
			perr, broken := streamElems(format, dec, data, elem)
			first = firstOf(first, perr)
			if broken {
				return first
			}
		case isDelim: // an object where the array belongs
			if err := skipRest(dec); err != nil {
				return firstOf(first, decodeErr(format, data, p, err))
			}
		}
	}
	p = skipWS(data, dec.InputOffset())
	if _, err := dec.Token(); err != nil {
		return firstOf(first, decodeErr(format, data, p, err))
	}
	return first
}

// skipRest consumes the remainder of a container whose opening delimiter
// has already been read.
func skipRest(dec *json.Decoder) error {
	depth := 1
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '[', '{':
				depth++
			default:
				depth--
			}
		}
	}
	return nil
}

// decodeErr turns a decoder error for the value starting at p into a
// ParseError whose Offset is the 0-based index of the first byte that does
// not parse (len(data) when the input just ends).
func decodeErr(format string, data []byte, p int64, err error) *ParseError {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &ParseError{Format: format, Offset: int64(len(data)), Reason: "unexpected end of input (truncated export)"}
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) || p >= int64(len(data)) {
		return &ParseError{Format: format, Offset: p, Reason: err.Error()}
	}
	// Re-read the value with a fresh decoder, whose offsets are exact.
	one := json.NewDecoder(bytes.NewReader(data[p:]))
	var raw json.RawMessage
	switch err2 := one.Decode(&raw); {
	case err2 == nil:
		p = skipWS(data, p+one.InputOffset()) // the value is fine; what follows is not
	case errors.As(err2, &se):
		p += se.Offset - 1
	default:
		p = int64(len(data))
	}
	return &ParseError{Format: format, Offset: p, Reason: err.Error()}
}

// skipWS returns the offset of the first non-whitespace byte at or after off.
func skipWS(data []byte, off int64) int64 {
	for off < int64(len(data)) && (data[off] == ' ' || data[off] == '\t' || data[off] == '\r' || data[off] == '\n') {
		off++
	}
	return off
}

// parseTime reads the timestamp spellings found in exports; unknown or empty
// values give the zero time.
func parseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// unixFloat converts the float seconds ChatGPT uses, rounded to the
// microsecond so float noise does not change a timestamp between runs.
func unixFloat(f float64) time.Time {
	if f <= 0 || math.IsNaN(f) || math.IsInf(f, 0) || f > 1e11 {
		return time.Time{}
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC()
}

// rawString returns the JSON string in raw, or "" when raw is not a string.
func rawString(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// compactJSON renders a JSON value on one line, keeping its key order.
// The value's strings are copied, not decoded, so invalid UTF-8 in them is
// replaced here, byte by byte as encoding/json does when it decodes a
// string: message text is always valid UTF-8.
func compactJSON(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "{}"
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return validUTF8(string(raw))
	}
	return validUTF8(b.String())
}

// validUTF8 replaces each byte of s that is not part of valid UTF-8 with
// U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r) // ranging yields U+FFFD for each invalid byte
	}
	return b.String()
}

// block is the union of the content block shapes of the Anthropic, OpenAI
// Responses and Gemini message formats.
type block struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text"`
	Thinking  string          `json:"thinking"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	ToolUseID string          `json:"tool_use_id"`
}

// renderContent renders a message content value: a string, an array of
// blocks or strings, or a single block. tools reports whether every block
// was a tool_result, which marks a Claude "user" line as tool output.
func renderContent(raw json.RawMessage) (text string, tools bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	switch raw[0] {
	case '"':
		s, _ := rawString(raw)
		return s, false
	case '{':
		var b block
		if json.Unmarshal(raw, &b) != nil {
			return "", false
		}
		return renderBlock(b), b.Type == "tool_result"
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return "", false
		}
		var parts []string
		tools = len(items) > 0
		for _, it := range items {
			it = bytes.TrimSpace(it)
			if len(it) > 0 && it[0] == '"' {
				s, _ := rawString(it)
				parts = append(parts, s)
				tools = false
				continue
			}
			var b block
			if json.Unmarshal(it, &b) != nil {
				tools = false
				continue
			}
			if b.Type != "tool_result" {
				tools = false
			}
			if s := renderBlock(b); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "\n"), tools
	}
	return "", false
}

func renderBlock(b block) string {
	switch b.Type {
	case "text", "input_text", "output_text", "":
		if b.Text != nil {
			return *b.Text
		}
		return ""
	case "thinking":
		if isBlank(b.Thinking) {
			return ""
		}
		return "[thinking] " + b.Thinking
	case "redacted_thinking":
		return "" // encrypted; nothing a reader could use
	case "tool_use", "server_tool_use":
		return "[tool_use " + b.Name + "] " + compactJSON(b.Input)
	case "tool_result", "web_search_tool_result":
		inner, _ := renderContent(b.Content)
		if b.IsError {
			return "[tool_result error] " + inner
		}
		return "[tool_result] " + inner
	case "image", "input_image":
		return "[image]"
	}
	if b.Text != nil {
		return *b.Text
	}
	return "[" + b.Type + "]"
}

// keyScan is what detection learns from the head of a JSON document: every
// object key with the shallowest depth it appears at, and the string value
// of each key at that depth. Scanning tokens (not substrings) is immune to
// key order and to keys quoted inside message text.
type keyScan struct {
	root  byte // '{' or '['
	depth map[string]int
	str   map[string]string
}

// scanKeys tokenizes as much of head as parses; a head cut mid-document is
// the normal case.
func scanKeys(head []byte) keyScan {
	ks := keyScan{depth: map[string]int{}, str: map[string]string{}}
	head = bytes.TrimSpace(trimBOM(head))
	if len(head) == 0 {
		return ks
	}
	ks.root = head[0]
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.UseNumber()
	type frame struct {
		obj       bool
		expectKey bool
	}
	var stack []frame
	pending := "" // key whose value comes next
	for n := 0; n < 50000; n++ {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		inObjKey := len(stack) > 0 && stack[len(stack)-1].obj && stack[len(stack)-1].expectKey
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				stack = append(stack, frame{obj: d == '{', expectKey: true})
			default:
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
				if len(stack) > 0 && stack[len(stack)-1].obj {
					stack[len(stack)-1].expectKey = true
				}
			}
			pending = ""
			continue
		}
		if inObjKey {
			k, _ := tok.(string)
			d := len(stack)
			if old, seen := ks.depth[k]; !seen || d < old {
				ks.depth[k] = d
				delete(ks.str, k)
			}
			pending = k
			stack[len(stack)-1].expectKey = false
			continue
		}
		if s, ok := tok.(string); ok && pending != "" && ks.depth[pending] == len(stack) {
			if _, seen := ks.str[pending]; !seen {
				ks.str[pending] = s
			}
		}
		pending = ""
		if len(stack) > 0 && stack[len(stack)-1].obj {
			stack[len(stack)-1].expectKey = true
		}
	}
	return ks
}

// has reports whether key appeared at exactly depth d.
func (ks keyScan) has(key string, d int) bool {
	got, ok := ks.depth[key]
	return ok && got == d
}

// setMember decodes one member of a streamed object into the matching
// tagged field of dst; a value of the wrong type leaves the field unset.
func setMember(dst any, key string, raw json.RawMessage) {
	obj, err := json.Marshal(map[string]json.RawMessage{key: raw})
	if err == nil {
		_ = json.Unmarshal(obj, dst)
	}
}
