package transfer

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/convo"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/memory"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/route"
	"github.com/palace-dev/palace/core/store"
)

// An import is checked as strictly as the operations that write the same
// data: a file is hand-editable, and whatever it holds is stored, indexed
// and printed as if Palace had written it. Each check returns an
// input.Error naming the column at fault.

// hashRe is the form of store.ContentHash.
var hashRe = regexp.MustCompile(`^[0-9a-f]{64}$`)

// checkRow checks the columns of one row of kind r.Kind. Settings are
// checked by store.ImportRows, which owns them, for a value it can read
// back; the agent registry's entries are also checked here, as 'palace
// agent add' checks them, since they are printed in every status and
// wake-up. An unknown kind is refused there too.
func checkRow(r store.Row) error {
	f := cols(r.Cols)
	switch r.Kind {
	case "setting":
		if key, _ := f["key"].(string); key == store.SettingAgents {
			v, err := f.text("value")
			if err != nil {
				return err
			}
			return memory.CheckRegistry(v)
		}
	case "drawer":
		return checkDrawer(f)
	case "taxonomy":
		return checkTaxonomy(f)
	case "entity":
		return checkEntity(f)
	case "triple":
		return checkTriple(f)
	case "proposal":
		return checkProposal(f)
	}
	return nil
}

// checkDrawer checks a drawer row as mining, remember and purge write one:
// an id of DrawerID's form, names as remember and the taxonomy accept
// them, a known kind, a content hash that is the content's (a purged
// tombstone has no content and keeps its hash, or none), times in the
// store's layout, a sane line range, an importance within remember's
// bounds (0 for a mined drawer) and metadata that is a JSON object.
func checkDrawer(f cols) error {
	id, err := f.text("id")
	if err != nil {
		return err
	}
	if !store.IsDrawerID(id) {
		return input.Invalid("id", "%s is not a drawer id (d_ and 24 hex digits)", input.Quote(id))
	}
	if err := checkNames(f, "wing", "room"); err != nil {
		return err
	}
	kind, err := f.text("kind")
	if err != nil {
		return err
	}
	if !slices.Contains(store.DrawerKinds(), kind) {
		return input.Invalid("kind", "%s is not one of %s", input.Quote(kind), strings.Join(store.DrawerKinds(), ", "))
	}
	if _, err := f.text("source"); err != nil {
		return err
	}
	content, err := f.text("content")
	if err != nil {
		return err
	}
	hash, err := f.text("content_hash")
	if err != nil {
		return err
	}
	if err := f.time("created_at", false); err != nil {
		return err
	}
	for _, c := range []string{"deleted_at", "occurred_at", "occurred_end"} {
		if err := f.time(c, true); err != nil {
			return err
		}
	}
	if err := f.time("purged_at", true); err != nil {
		return err
	}
	if f["purged_at"] != nil {
		if content != "" {
			return input.Invalid("content", "of a purged drawer must be empty")
		}
		if f["deleted_at"] == nil {
			return input.Invalid("deleted_at", "is missing: a purged drawer is deleted")
		}
		if hash != "" && !hashRe.MatchString(hash) {
			return input.Invalid("content_hash", "%s is not a SHA-256 in hex", input.Quote(hash))
		}
	} else if want := store.ContentHash(content); hash != want {
		return input.Invalid("content_hash", "%s is not the hash of the content (%s)", input.Quote(hash), want)
	}
	start, err := f.integer("line_start", false)
	if err != nil {
		return err
	}
	end, err := f.integer("line_end", false)
	if err != nil {
		return err
	}
	switch {
	case start < 0:
		return input.Invalid("line_start", "%d is negative", start)
	case start == 0 && end != 0:
		return input.Invalid("line_end", "%d without a line_start", end)
	case end < start:
		return input.Invalid("line_end", "%d is before line_start %d", end, start)
	}
	if _, err := f.integer("source_mtime", true); err != nil {
		return err
	}
	imp, err := f.number("importance")
	if err != nil {
		return err
	}
	if imp != 0 && (imp < memory.MinImportance || imp > memory.MaxImportance) {
		return input.Invalid("importance", "%v: want %d to %d (0 for a mined drawer)", imp, memory.MinImportance, memory.MaxImportance)
	}
	return f.jsonObject("metadata")
}

// checkTaxonomy checks a room as `palace taxonomy` writes one.
func checkTaxonomy(f cols) error {
	if err := checkNames(f, "wing", "room"); err != nil {
		return err
	}
	name, err := f.text("display_name")
	if err != nil {
		return err
	}
	if err := route.CheckDisplayName(name); err != nil {
		return err
	}
	kw, err := f.text("keywords")
	if err != nil {
		return err
	}
	var words []string
	if err := json.Unmarshal([]byte(kw), &words); err != nil {
		return input.Invalid("keywords", "%s is not a JSON array of words", input.Quote(kw))
	}
	return nil
}

// checkEntity checks an entity as kg.Add writes one: a name kg.Add
// accepts, its id the name normalized, its properties a JSON object, its
// type and aliases as kg.Entity writes them (check_kg.go).
func checkEntity(f cols) error {
	id, err := f.text("id")
	if err != nil {
		return err
	}
	name, err := f.text("name")
	if err != nil {
		return err
	}
	if err := kg.CheckName("name", name); err != nil {
		return err
	}
	if id != kg.NormalizeName(name) {
		return input.Invalid("id", "%s is not the normalized name %s", input.Quote(id), input.Quote(kg.NormalizeName(name)))
	}
	if err := f.jsonObject("properties"); err != nil {
		return err
	}
	if err := checkEntityGraph(f); err != nil {
		return err
	}
	return f.time("created_at", false)
}

// checkTriple checks a fact as kg.Add writes one: an id of the store's
// form, normalized entity ids and predicate, validity bounds to the second
// with the end after the start, a confidence from 0 to 1, and a source
// drawer id of DrawerID's form when there is one.
func checkTriple(f cols) error {
	id, err := f.text("id")
	if err != nil {
		return err
	}
	if !store.IsTripleID(id) {
		return input.Invalid("id", "%s is not a fact id (t_ and 24 hex digits)", input.Quote(id))
	}
	for _, c := range []string{"subject", "predicate", "object"} {
		v, err := f.text(c)
		if err != nil {
			return err
		}
		if err := kg.CheckName(c, v); err != nil {
			return err
		}
		if v != kg.NormalizeName(v) {
			return input.Invalid(c, "%s is not a normalized name", input.Quote(v))
		}
	}
	var bounds [2]time.Time
	for i, c := range []string{"valid_from", "valid_to"} {
		if f[c] == nil {
			continue
		}
		v, err := f.text(c)
		if err != nil {
			return err
		}
		if bounds[i], err = store.ParseKGBound(v); err != nil {
			return input.Invalid(c, "%s is not a time like 2025-01-02T03:04:05Z", input.Quote(v))
		}
	}
	if !bounds[0].IsZero() && !bounds[1].IsZero() && !bounds[1].After(bounds[0]) {
		return input.Invalid("valid_to", "is not after valid_from")
	}
	conf, err := f.number("confidence")
	if err != nil {
		return err
	}
	if conf < 0 || conf > 1 {
		return input.Invalid("confidence", "%v is not between 0 and 1", conf)
	}
	if f["source_drawer"] != nil {
		src, err := f.text("source_drawer")
		if err != nil {
			return err
		}
		if !store.IsDrawerID(src) {
			return input.Invalid("source_drawer", "%s is not a drawer id (d_ and 24 hex digits)", input.Quote(src))
		}
	}
	if f["wing"] != nil {
		if err := checkNames(f, "wing"); err != nil {
			return err
		}
	}
	if f["provenance"] != nil {
		s, err := f.text("provenance")
		if err != nil {
			return err
		}
		p, err := store.ParseProvenance(s)
		if err != nil {
			return input.Invalid("provenance", "%s is not a provenance object (session, turns)", input.Quote(s))
		}
		if p != nil {
			if field, err := p.Check(); err != nil {
				return input.Invalid("provenance", "%s %v", field, err)
			}
		}
	}
	return f.time("created_at", false)
}

// indexText derives what the full-text index holds for a drawer from its
// content, as mining and remember do: a conversation's noise (injected
// reminders, terminal escapes) is left out, Han text is segmented. It is
// nil when the index should hold the content itself. A mined conversation
// exchange is also indexed with the exchange before it; an imported one is
// indexed by its own text only, since which drawer came before is the
// miner's knowledge, not the file's (mining the export again restores it).
func indexText(p *palace.Palace, kind, content string) (any, error) {
	text := content
	if kind == store.KindConversation {
		text = convo.IndexText(content)
	}
	idx, err := p.IndexText(text)
	if err != nil {
		return nil, err
	}
	if idx == "" {
		idx = text
	}
	if idx == "" || idx == content {
		return nil, nil
	}
	return idx, nil
}

// cols are a row's columns as decoded (strings, json.Number, nil).
type cols map[string]any

// text is a column that must hold a string.
func (f cols) text(c string) (string, error) {
	s, ok := f[c].(string)
	if !ok {
		return "", input.Invalid(c, "is %s, want a string", describe(f[c]))
	}
	return s, nil
}

// integer is a column that must hold a whole number, or null when optional.
func (f cols) integer(c string, optional bool) (int64, error) {
	if f[c] == nil && optional {
		return 0, nil
	}
	n, ok := f[c].(json.Number)
	if !ok {
		return 0, input.Invalid(c, "is %s, want a whole number", describe(f[c]))
	}
	v, err := n.Int64()
	if err != nil {
		return 0, input.Invalid(c, "%s is not a whole number", n)
	}
	return v, nil
}

// number is a column that must hold a number.
func (f cols) number(c string) (float64, error) {
	n, ok := f[c].(json.Number)
	if !ok {
		return 0, input.Invalid(c, "is %s, want a number", describe(f[c]))
	}
	v, err := n.Float64()
	if err != nil {
		return 0, input.Invalid(c, "%s is not a number", n)
	}
	return v, nil
}

// jsonObject is a column that must hold a JSON object as text.
func (f cols) jsonObject(c string) error {
	s, err := f.text(c)
	if err != nil {
		return err
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(s), &obj); err != nil || obj == nil {
		return input.Invalid(c, "%s is not a JSON object", input.Quote(s))
	}
	return nil
}

// time is a column that must hold a time as the store writes it, or null
// when optional.
func (f cols) time(c string, optional bool) error {
	if f[c] == nil && optional {
		return nil
	}
	s, err := f.text(c)
	if err != nil {
		return err
	}
	if _, err := store.ParseTime(s); err != nil {
		return input.Invalid(c, "%s is not a time like 2025-01-02T03:04:05Z", input.Quote(s))
	}
	return nil
}

// describe names a decoded JSON value's type for an error.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "missing or null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}

// checkNames checks columns holding wing or room names by the one naming
// rule remember, mining and taxonomy edits apply.
func checkNames(f cols, columns ...string) error {
	for _, c := range columns {
		v, err := f.text(c)
		if err != nil {
			return err
		}
		if err := route.CheckName(c, v); err != nil {
			return err
		}
	}
	return nil
}
