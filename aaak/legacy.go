package aaak

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseLegacy reads AAAK leniently, as MemPalace and early mempal wrote it,
// and returns a valid V1 document together with notes saying what it
// normalised (SPEC.md, "Legacy reading"). It accepts everything Parse
// accepts, without notes, and in addition:
//   - a 4-field header wing|room|date|source without "V" ('?' means empty),
//     or no header at all;
//   - zettel ids that are strings ("003", "note-007", "abc"), renumbered
//     when they are not numbers or collide;
//   - '???' or malformed entities, mapped to UNK or a 3-letter code;
//   - decimal weights w (0..1), mapped to round(1+4w) stars, clamped 1..5;
//   - optional fields left out (2 to 6 fields, told apart by their shape),
//     quotes split by a raw '|', spelled-out or over-long emotions, GENESIS
//     (read as ORIGIN) and unknown flags (dropped);
//   - lines that are not AAAK (MemPalace layer headings ...), skipped.
//
// It fails only when no zettel, tunnel or arc line is left.
func ParseLegacy(src string) (*Document, []Note, error) {
	r := &legacyReader{ids: map[string]uint64{}, used: map[uint64]bool{}}
	doc := r.read(src)
	if len(doc.Zettels) == 0 && len(doc.Arcs) == 0 {
		return nil, r.notes, errors.New("aaak: legacy: no zettel or arc line found")
	}
	if err := Validate(doc); err != nil {
		// A bug in this reader, not in the input: say so loudly.
		return nil, r.notes, fmt.Errorf("aaak: legacy reader produced an invalid document: %w", err)
	}
	return doc, r.notes, nil
}

type legacyReader struct {
	notes []Note
	ids   map[string]uint64 // legacy id text → id
	used  map[uint64]bool
	next  uint64
}

func (r *legacyReader) note(line int, format string, args ...any) {
	r.notes = append(r.notes, Note{Line: line, Message: fmt.Sprintf(format, args...)})
}

// pendingZettel waits for its id until every numeric id has been claimed.
type pendingZettel struct {
	line  int
	idKey string
	z     Zettel
	want  uint64
	hasID bool
}

type pendingTunnel struct {
	line     int
	from, to string
	label    string
}

func (r *legacyReader) read(src string) *Document {
	doc := &Document{Header: Header{Version: Version}}
	if strings.HasPrefix(src, "\uFEFF") {
		src = strings.TrimPrefix(src, "\uFEFF")
		r.note(1, "removed a byte order mark")
	}
	var (
		zs      []pendingZettel
		ts      []pendingTunnel
		header  = false
		seenAny = false
	)
	for num, text := range strings.Split(src, "\n") {
		num++
		text = strings.TrimSuffix(text, "\r")
		if !utf8.ValidString(text) {
			text = strings.ToValidUTF8(text, "\uFFFD")
			r.note(num, "replaced invalid UTF-8 with U+FFFD")
		}
		if strings.Contains(text, "\r") {
			text = strings.ReplaceAll(text, "\r", " ")
			r.note(num, "replaced a carriage return with a space")
		}
		if i := strings.IndexFunc(text, isTerminalControl); i >= 0 {
			c, _ := utf8.DecodeRuneInString(text[i:])
			text = strings.Map(func(r rune) rune {
				if isTerminalControl(r) {
					return -1
				}
				return r
			}, text)
			r.note(num, "removed control characters (the first %U)", c)
		}
		if isBlank(text) {
			continue
		}
		first := !seenAny
		seenAny = true
		firstField, _, hasBar := strings.Cut(text, "|")
		switch {
		case strings.HasPrefix(text, "T:"):
			if t, ok := r.tunnel(num, text); ok {
				ts = append(ts, t)
			}
		case strings.HasPrefix(text, "ARC:"):
			if a, ok := r.arc(num, text); ok {
				doc.Arcs = append(doc.Arcs, a)
			}
		case first && hasBar && !strings.Contains(firstField, ":"):
			r.header(num, text, &doc.Header)
			header = true
		case hasBar && strings.Contains(firstField, ":"):
			zs = append(zs, r.zettel(num, text))
		default:
			r.note(num, "skipped a line that is not AAAK: %q", clip(text))
		}
	}
	if !header && seenAny {
		r.note(0, "no header line; header fields left empty")
	}

	// Numeric ids first, in order, so that renumbered ones do not take
	// them; then ids for the rest.
	for i := range zs {
		p := &zs[i]
		if p.hasID && !r.used[p.want] {
			r.claim(p, p.want)
		} else if p.hasID {
			p.hasID = false
			r.note(p.line, "duplicate zettel id %d renumbered", p.want)
		}
	}
	for i := range zs {
		p := &zs[i]
		if !p.hasID {
			for r.used[r.next] {
				r.next++
			}
			r.claim(p, r.next)
			if !isDigits(p.idKey) {
				r.note(p.line, "zettel id %q read as %d", p.idKey, p.z.ID)
			}
		}
		doc.Zettels = append(doc.Zettels, p.z)
	}
	for _, t := range ts {
		from, okF := r.resolve(t.from)
		to, okT := r.resolve(t.to)
		if !okF || !okT {
			r.note(t.line, "dropped a tunnel to an unknown zettel (%q <-> %q)", t.from, t.to)
			continue
		}
		doc.Tunnels = append(doc.Tunnels, Tunnel{From: from, To: to, Label: t.label})
	}
	return doc
}

func (r *legacyReader) claim(p *pendingZettel, id uint64) {
	p.z.ID, p.hasID = id, true
	r.used[id] = true
	if _, ok := r.ids[p.idKey]; !ok {
		r.ids[p.idKey] = id
	}
}

// resolve finds the zettel a tunnel names: by the legacy id text, else by
// number.
func (r *legacyReader) resolve(key string) (uint64, bool) {
	if id, ok := r.ids[key]; ok {
		return id, true
	}
	if n, ok := legacyID(key); ok && r.used[n] {
		return n, true
	}
	return 0, false
}

// legacyID reads "7", "007" or the last '-' segment of "note-007".
func legacyID(s string) (uint64, bool) {
	if i := strings.LastIndexByte(s, '-'); i >= 0 && !isDigits(s) {
		s = s[i+1:]
	}
	if !isDigits(s) {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

func (r *legacyReader) header(num int, text string, h *Header) {
	f := strings.Split(text, "|")
	if len(f) == 5 && strings.HasPrefix(f[0], "V") && isDigits(f[0][1:]) {
		if f[0] != "V1" {
			r.note(num, "header version %s read as V1", f[0])
		}
		h.Wing, h.Room, h.Date, h.Source = f[1], f[2], f[3], f[4]
		return
	}
	switch {
	case len(f) == 4:
		r.note(num, "4-field legacy header read as wing|room|date|source")
	case len(f) < 4:
		r.note(num, "header with %d fields read as wing|room|date|source, missing ones empty", len(f))
		f = append(f, make([]string, 4-len(f))...)
	default:
		r.note(num, "header with %d fields: fields after the fourth joined into source", len(f))
		f = append(f[:3], strings.Join(f[3:], "¦"))
	}
	for i := range f {
		if strings.TrimSpace(f[i]) == "?" {
			f[i] = ""
		}
	}
	h.Wing, h.Room, h.Date, h.Source = f[0], f[1], f[2], f[3]
}

func (r *legacyReader) zettel(num int, text string) pendingZettel {
	colon := strings.IndexByte(text, ':')
	p := pendingZettel{line: num, idKey: strings.TrimSpace(text[:colon])}
	if n, ok := legacyID(p.idKey); ok {
		p.want, p.hasID = n, true
		if !isDigits(p.idKey) {
			r.note(num, "zettel id %q read as %d", p.idKey, n)
		}
	}
	fields := r.joinQuotes(num, strings.Split(text[colon+1:], "|"))
	z := &p.z
	z.Entities = r.entities(num, fields[0])
	if len(fields) > 1 {
		for _, t := range strings.Split(fields[1], "_") {
			if t != "" {
				z.Topics = append(z.Topics, t)
			}
		}
	}
	if len(z.Topics) == 0 {
		z.Topics = []string{DefaultTopic}
		r.note(num, "no topic; using %q", DefaultTopic)
	}

	var haveQuote, haveStars bool
	for _, f := range fields[min(2, len(fields)):] {
		t := strings.TrimSpace(f)
		switch kind := fieldKind(t); {
		case kind == "quote" && !haveQuote:
			haveQuote = true
			inner := strings.TrimPrefix(t, `"`)
			if strings.HasSuffix(inner, `"`) && len(t) >= 2 {
				inner = strings.TrimSuffix(inner, `"`)
			} else {
				r.note(num, "quote without a closing '\"'")
			}
			if f != t {
				r.note(num, "trimmed spaces around the quote")
			}
			z.Quote = inner
		case kind == "stars" && !haveStars:
			haveStars = true
			z.Stars = utf8.RuneCountInString(t)
			if z.Stars > 5 {
				r.note(num, "%d stars clamped to 5", z.Stars)
				z.Stars = 5
			}
		case kind == "weight" && !haveStars:
			haveStars = true
			w, _ := strconv.ParseFloat(t, 64)
			z.Stars = int(math.Round(1 + 4*w))
			z.Stars = min(max(z.Stars, 1), 5)
			r.note(num, "weight %s read as %d stars", t, z.Stars)
		case kind == "flags":
			z.Flags = append(z.Flags, r.flags(num, t)...)
		case kind == "emotions":
			z.Emotions = append(z.Emotions, r.emotions(num, t)...)
		default:
			r.note(num, "ignored field %q", clip(t))
		}
	}
	if !haveQuote {
		r.note(num, "no quote; using an empty one")
	}
	if len(z.Flags) == 0 {
		z.Flags = []Flag{DefaultFlag}
		r.note(num, "no flag; using %s", DefaultFlag)
	}
	if len(z.Emotions) == 0 {
		z.Emotions = []string{DefaultEmotion}
		r.note(num, "no emotion; using %s", DefaultEmotion)
	}
	if !haveStars {
		z.Stars = starsFor(z.Flags, 0)
		r.note(num, "no weight; %d stars from the flags", z.Stars)
	}
	return p
}

// joinQuotes rejoins a quote that a raw '|' split (MemPalace did not escape
// it), writing '¦' where the '|' was.
func (r *legacyReader) joinQuotes(num int, fields []string) []string {
	var out []string
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		t := strings.TrimSpace(f)
		if i >= 2 && strings.HasPrefix(t, `"`) && (len(t) < 2 || !strings.HasSuffix(t, `"`)) {
			j := i + 1
			for j < len(fields) && !strings.HasSuffix(strings.TrimSpace(fields[j]), `"`) {
				j++
			}
			if j < len(fields) {
				f = strings.Join(fields[i:j+1], "¦")
				r.note(num, "quote contained '|'; written as '¦'")
				i = j
			}
		}
		out = append(out, f)
	}
	return out
}

// fieldKind tells optional fields apart by shape.
func fieldKind(t string) string {
	switch {
	case t == "":
		return ""
	case strings.HasPrefix(t, `"`):
		return "quote"
	case strings.Trim(t, "★") == "":
		return "stars"
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil && !strings.ContainsAny(t, "nNiI") {
		return "weight"
	}
	upper, lower := true, true // lower: letters only
	for _, part := range strings.Split(t, "+") {
		part = strings.Trim(strings.TrimSpace(part), "[]*")
		if part == "" {
			continue
		}
		for _, c := range part {
			upper = upper && (c >= 'A' && c <= 'Z' || c == '_')
			lower = lower && unicode.IsLetter(c)
		}
	}
	// All capitals are flags; other words are emotions, in any case
	// ("*Anxiety*" is MemPalace's marker style).
	switch {
	case upper:
		return "flags"
	case lower:
		return "emotions"
	}
	return ""
}

func (r *legacyReader) entities(num int, f string) []string {
	var out []string
	for _, e := range strings.Split(f, "+") {
		t := strings.TrimSpace(e)
		switch {
		case t == "":
			continue
		case t == "???":
			r.note(num, "entity ??? read as %s", UnknownEntity)
			t = UnknownEntity
		case !IsEntityCode(t):
			c := legacyCode(t)
			r.note(num, "entity %q read as %s", clip(t), c)
			t = c
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		r.note(num, "no entity; using %s", UnknownEntity)
		out = []string{UnknownEntity}
	}
	return out
}

// legacyCode makes a code of a malformed entity the way a fresh map would.
func legacyCode(s string) string {
	for c := range codeCandidates(s) {
		return c
	}
	return UnknownEntity
}

func (r *legacyReader) emotions(num int, f string) []string {
	var out []string
	for _, e := range strings.Split(f, "+") {
		orig := strings.TrimSpace(e)
		if IsEmotionCode(orig) {
			out = append(out, orig) // valid V1 stays as it is
			continue
		}
		t := strings.ToLower(strings.Trim(orig, "*"))
		c := spelledEmotion(t)
		if c == "" && IsEmotionCode(t) {
			c = t
		}
		if c == "" {
			letters := strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' {
					return r
				}
				return -1
			}, t)
			if len(letters) > 7 {
				c = letters[:7]
			} else if IsEmotionCode(letters) {
				c = letters
			}
		}
		if c == "" {
			r.note(num, "dropped emotion %q", clip(orig))
			continue
		}
		r.note(num, "emotion %q read as %s", clip(orig), c)
		out = append(out, c)
	}
	return out
}

// spelledEmotion maps MemPalace's spelled-out names ("surprise",
// "anxiety") to codes.
func spelledEmotion(s string) string {
	if s == "surprise" {
		return "surpr"
	}
	for code, name := range emotionNames {
		if name == s {
			return code
		}
	}
	return ""
}

func (r *legacyReader) flags(num int, f string) []Flag {
	var out []Flag
	for _, e := range strings.Split(f, "+") {
		t := strings.Trim(strings.TrimSpace(e), "[]")
		switch {
		case t == "":
		case Flag(t).Valid():
			out = append(out, Flag(t))
		case t == "GENESIS":
			r.note(num, "flag GENESIS read as ORIGIN")
			if !slices.Contains(out, FlagOrigin) {
				out = append(out, FlagOrigin)
			}
		default:
			r.note(num, "dropped unknown flag %q", clip(t))
		}
	}
	return out
}

func (r *legacyReader) tunnel(num int, text string) (pendingTunnel, bool) {
	body := text[len("T:"):]
	ends, label, _ := strings.Cut(body, "|")
	from, to, ok := strings.Cut(ends, "<->")
	if !ok {
		from, to, ok = strings.Cut(ends, "↔")
	}
	if !ok {
		r.note(num, "skipped a tunnel without '<->'")
		return pendingTunnel{}, false
	}
	if isBlank(label) {
		r.note(num, "tunnel without a label; using \"related\"")
		label = "related"
	}
	return pendingTunnel{line: num, from: strings.TrimSpace(from), to: strings.TrimSpace(to), label: label}, true
}

func (r *legacyReader) arc(num int, text string) (Arc, bool) {
	body := strings.NewReplacer("→", "->", ",", "->", "+", "->").Replace(text[len("ARC:"):])
	var a Arc
	for _, e := range strings.Split(body, "->") {
		if t := strings.TrimSpace(e); t != "" {
			a.Emotions = append(a.Emotions, r.emotions(num, t)...)
		}
	}
	if len(a.Emotions) == 0 {
		r.note(num, "skipped an arc without a valid emotion")
		return a, false
	}
	return a, true
}

// clip shortens a value quoted in a note.
func clip(s string) string {
	if t, cut := truncateRunes(s, 40); cut {
		return t
	}
	return s
}
