package mcp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func toolByName(t *testing.T, name string) *tool {
	t.Helper()
	for _, tl := range allTools() {
		if tl.name == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func TestValidateRejects(t *testing.T) {
	cases := []struct {
		tool, args, want string
	}{
		{"palace_search", `{"query":"x","wng":"a"}`, `unknown parameter "wng"; palace_search takes query, wing`},
		{"palace_search", `{}`, `"query" is required`},
		{"palace_search", `{"query":null}`, `"query" is required`},
		{"palace_search", `{"query":"x","limit":"10"}`, `"limit" must be an integer, got a string ("10")`},
		{"palace_search", `{"query":"x","limit":2.5}`, `"limit" must be an integer, got the number 2.5`},
		{"palace_search", `{"query":"x","limit":0}`, `"limit" is 0; want 1 to 100`},
		{"palace_search", `{"query":"x","limit":1e300}`, `"limit" is 1e300; want 1 to 100`},
		{"palace_search", `{"query":7}`, `"query" must be a string, got the number 7`},
		{"palace_search", `{"query":["a"]}`, `"query" must be a string, got an array`},
		{"palace_search", `{"query":"x","kind":"files"}`, `"kind" must be one of file, conversation, note, diary; got "files"`},
		{"palace_search", `{"query":"x","query":"y"}`, `parameter "query" is given twice`},
		{"palace_search", `["x"]`, `arguments must be a JSON object`},
		{"palace_search", `"x"`, `arguments must be a JSON object`},
		{"palace_remember", `{"content":"x","force":"true"}`, `"force" must be a boolean (true or false), got a string`},
		{"palace_remember", `{"content":"x","importance":9}`, `"importance" is 9; want 1 to 5`},
		{"palace_kg", `{"action":"add","subject":"a","predicate":"b"}`, `"object" is required for action "add"`},
		{"palace_kg", `{"action":"stats","subject":"a"}`, `"subject" does not apply to action "stats" (it is for add, check, invalidate)`},
		{"palace_kg", `{"action":"delete"}`, `"action" must be one of add, check, invalidate, query, timeline, stats`},
		{"palace_kg", `{"action":"query"}`, `"entity" is required for action "query"`},
		{"palace_kg", `{"action":"add","subject":"a","predicate":"b","object":"c","confidence":"high"}`, `"confidence" must be a number`},
		{"palace_taxonomy", `{"action":"set","room":"r","keywords":"a,b"}`, `"keywords" must be an array of strings, got a string`},
		{"palace_taxonomy", `{"action":"set","room":"r","keywords":["a",1]}`, `item 1 is the number 1`},
		{"palace_diary", `{"action":"read","text":"x"}`, `"text" does not apply to action "read"`},
		{"palace_status", `{"verbose":true}`, `unknown parameter "verbose"; palace_status takes no parameters`},
	}
	for _, c := range cases {
		_, err := toolByName(t, c.tool).validate(json.RawMessage(c.args))
		if err == nil {
			t.Errorf("%s %s: accepted", c.tool, c.args)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s:\n got  %q\n want %q", c.tool, c.args, err, c.want)
		}
	}
}

func TestValidateAccepts(t *testing.T) {
	cases := []struct{ tool, args, norm string }{
		{"palace_search", `{"query":"x"}`, ""},
		{"palace_search", ``, "missing-query"},
		{"palace_search", `{"query":"x","limit":5.0,"wing":null}`, `{"limit":5,"query":"x"}`},
		{"palace_status", `null`, `{}`},
		{"palace_status", `{}`, `{}`},
		{"palace_kg", `{"action":"stats"}`, ""},
		{"palace_taxonomy", `{"action":"set","room":"r","keywords":[]}`, ""},
	}
	for _, c := range cases {
		a, err := toolByName(t, c.tool).validate(json.RawMessage(c.args))
		if c.norm == "missing-query" {
			if err == nil {
				t.Errorf("%s %q: empty arguments accepted without the required query", c.tool, c.args)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", c.tool, c.args, err)
			continue
		}
		if c.norm != "" {
			b, _ := json.Marshal(map[string]json.RawMessage(a))
			if string(b) != c.norm {
				t.Errorf("%s %s: normalised to %s, want %s", c.tool, c.args, b, c.norm)
			}
		}
	}
}

// TestSchemas checks what tools/list shows: unknown names refused in the
// schema too, every annotation set explicitly (mcp-go's defaults say
// destructive and open-world), integers plain signed "integer".
func TestSchemas(t *testing.T) {
	seen := map[string]bool{}
	for _, tl := range allTools() {
		if seen[tl.name] {
			t.Errorf("tool %s twice", tl.name)
		}
		seen[tl.name] = true
		mt := mcp.NewTool(tl.name, tl.schemaOptions()...)
		b, err := json.Marshal(mt)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Description string `json:"description"`
			InputSchema struct {
				Type                 string                    `json:"type"`
				AdditionalProperties *bool                     `json:"additionalProperties"`
				Properties           map[string]map[string]any `json:"properties"`
			} `json:"inputSchema"`
			Annotations map[string]any `json:"annotations"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if got.InputSchema.Type != "object" || got.InputSchema.AdditionalProperties == nil || *got.InputSchema.AdditionalProperties {
			t.Errorf("%s: schema must be an object with additionalProperties false: %s", tl.name, b)
		}
		// The hints whose absence means true are always given; those whose
		// absence means false only when true; a read-only tool has no
		// destructive or idempotent hint (the spec ignores them for it).
		if _, ok := got.Annotations["title"]; !ok {
			t.Errorf("%s: no title", tl.name)
		}
		if got.Annotations["openWorldHint"] != false {
			t.Errorf("%s: openWorldHint must be false", tl.name)
		}
		want := map[string]any{"readOnlyHint": true}
		if !tl.readOnly {
			want = map[string]any{"destructiveHint": tl.destructive}
			if tl.idempotent {
				want["idempotentHint"] = true
			}
		}
		for _, h := range []string{"readOnlyHint", "destructiveHint", "idempotentHint"} {
			if v, ok := got.Annotations[h]; v != want[h] || ok != (want[h] != nil) {
				t.Errorf("%s: annotation %s is %v (given %v), want %v", tl.name, h, v, ok, want[h])
			}
		}
		if tl.readOnly && tl.destructive {
			t.Errorf("%s: read-only and destructive", tl.name)
		}
		if len(got.Description) < 80 {
			t.Errorf("%s: description too thin for an agent: %q", tl.name, got.Description)
		}
		for name, prop := range got.InputSchema.Properties {
			if d, _ := prop["description"].(string); len(d) < 15 {
				t.Errorf("%s.%s: parameter needs a description written for the agent", tl.name, name)
			}
			if _, ok := prop["format"]; ok {
				t.Errorf("%s.%s: no formats (uint formats make some clients warn)", tl.name, name)
			}
			if m, ok := prop["minimum"].(float64); ok && prop["type"] == "integer" && m < 0 {
				t.Errorf("%s.%s: odd minimum %v", tl.name, name, m)
			}
		}
	}
	if len(seen) > 12 {
		t.Errorf("%d tools: the default set should stay about a dozen", len(seen))
	}
}

// TestArgsStructsMatchTables keeps each tool's parameter table and the
// struct its adapter decodes into in step: a parameter the struct lacks
// would be validated and then silently dropped.
func TestArgsStructsMatchTables(t *testing.T) {
	structs := map[string]any{
		"palace_search": searchArgs{}, "palace_get": getArgs{}, "palace_remember": rememberArgs{},
		"palace_kg": kgArgs{}, "palace_kg_graph": kgGraphArgs{}, "palace_kg_review": kgReviewArgs{},
		"palace_taxonomy": taxonomyArgs{}, "palace_diary": diaryArgs{},
		"palace_wake_up": wakeArgs{}, "palace_mine": mineArgs{},
		"palace_forget": forgetArgs{},
	}
	for _, tl := range allTools() {
		s, ok := structs[tl.name]
		if !ok {
			if len(tl.params) > 0 {
				t.Errorf("%s: no args struct listed in this test", tl.name)
			}
			continue
		}
		tags := map[string]bool{}
		rt := reflect.TypeOf(s)
		for i := 0; i < rt.NumField(); i++ {
			tags[strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]] = true
		}
		for _, p := range tl.params {
			if !tags[p.name] {
				t.Errorf("%s: parameter %s has no field in %T", tl.name, p.name, s)
			}
			delete(tags, p.name)
		}
		for tag := range tags {
			t.Errorf("%s: field %s of %T is no parameter", tl.name, tag, s)
		}
	}
}

func TestInstructionsNameRealTools(t *testing.T) {
	text := Instructions()
	if !strings.Contains(text, "Before answering about this project's past") || !strings.Contains(text, "palace_diary write") {
		t.Fatalf("instructions lack the protocol:\n%s", text)
	}
	// Both profiles send the same instructions, so they name only the
	// tools of the core profile.
	names := map[string]bool{}
	for _, tl := range allTools() {
		names[tl.name] = !tl.full
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r == '`' || r == ' ' || r == '\n' || r == ',' || r == '(' || r == ')' }) {
		if strings.HasPrefix(w, "palace_") && !names[strings.TrimRight(w, ".:;")] {
			t.Errorf("instructions name %q, which is no tool of the core profile", w)
		}
	}
	if !strings.Contains(AAAKLegend(), "V1|wing|room|date|source") {
		t.Errorf("legend lacks the header line")
	}
}
