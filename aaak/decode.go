package aaak

import (
	"strconv"
	"strings"
)

// Decode renders doc as readable text for people and agents, expanding
// entity codes through m (nil is allowed; unknown codes stay as they are)
// and emotion codes into words. Quotes are shown verbatim: the encoder
// never puts codes inside them, and rewriting a quote would falsify it.
//
//	palace / decisions · 2026-04-09 · notes.md
//	#0 ★★★★ DECISION TECHNICAL · determination
//	   who: Alice, SQLite
//	   topics: fts5, server
//	   "We chose SQLite because it needs no server."
//	#0 <-> #1: same index
//	arc: anxiety -> relief
func Decode(doc *Document, m *EntityMap) string {
	if doc == nil {
		return ""
	}
	var b strings.Builder
	var head []string
	for _, f := range []string{doc.Wing, doc.Room, doc.Date, doc.Source} {
		if f = oneLine(f); f != "" {
			head = append(head, f)
		}
	}
	line := func(parts ...string) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	if len(head) > 0 {
		line(strings.Join(head, " · "))
	}
	for _, z := range doc.Zettels {
		flags := make([]string, len(z.Flags))
		for i, f := range z.Flags {
			flags[i] = string(f)
		}
		emos := make([]string, len(z.Emotions))
		for i, c := range z.Emotions {
			emos[i] = emotionName(c)
		}
		line("#", uitoa(z.ID), " ", strings.Repeat("★", min(max(z.Stars, 0), 5)), " ",
			strings.Join(flags, " "), " · ", strings.Join(emos, ", "))
		if who := entityNames(z.Entities, m); len(who) > 0 {
			line("   who: ", strings.Join(who, ", "))
		}
		line("   topics: ", oneLine(strings.Join(z.Topics, ", ")))
		if z.Quote != "" {
			line(`   "`, oneLine(z.Quote), `"`)
		}
	}
	for _, t := range doc.Tunnels {
		line("#", uitoa(t.From), " <-> #", uitoa(t.To), ": ", oneLine(t.Label))
	}
	for _, a := range doc.Arcs {
		emos := make([]string, len(a.Emotions))
		for i, c := range a.Emotions {
			emos[i] = emotionName(c)
		}
		line("arc: ", strings.Join(emos, " -> "))
	}
	return b.String()
}

// entityNames expands codes, leaving out the "no entity" placeholder.
func entityNames(codes []string, m *EntityMap) []string {
	var out []string
	for _, c := range codes {
		if c == UnknownEntity {
			continue
		}
		if n, ok := m.Name(c); ok {
			c = oneLine(n)
		}
		out = append(out, c)
	}
	return out
}

func emotionName(code string) string {
	if n, ok := emotionNames[code]; ok {
		return n
	}
	return oneLine(code)
}

func uitoa(n uint64) string { return strconv.FormatUint(n, 10) }
