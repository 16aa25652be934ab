package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// unit is one sentence and who said it ("" when unknown).
type unit struct{ sentence, speaker string }

// maxSentence bounds the sentences read: longer runs are pasted logs,
// tables or code, not statements.
const maxSentence = 400

// speakerLabel is a transcript line's "Name: text", as core/convo reads
// plain-text transcripts and renders the other formats.
var speakerLabel = regexp.MustCompile(`^([\p{L}][\p{L}\p{N} ._'\-]{0,31}):[ \t]+(\S.*)$`)

// roles are speaker labels that name a role, not a person: "I" on their
// lines is nobody the graph can name.
var roles = map[string]bool{
	"user": true, "human": true, "me": true, "you": true, "assistant": true, "ai": true, "claude": true,
	"chatgpt": true, "gpt": true, "gemini": true, "codex": true, "copilot": true, "bot": true, "model": true,
	"system": true, "tool": true,
}

// notLabels look like "Name:" but introduce prose.
var notLabels = map[string]bool{
	"note": true, "notes": true, "warning": true, "tip": true, "error": true, "todo": true, "fixme": true,
	"example": true, "usage": true, "summary": true, "output": true, "input": true, "result": true,
	"see": true, "source": true, "date": true, "time": true, "subject": true, "status": true, "update": true,
	"decision": true, "context": true, "why": true, "how": true, "what": true, "q": true, "a": true,
}

// units cuts text into sentences, each with its speaker: the last "Name:"
// label above it, else speaker (the diary's agent). A quoted line ("> ")
// is the user's, whom no label names. Fenced code is skipped; lines of a
// paragraph are joined, so a wrapped sentence is read whole.
func units(text, speaker string) []unit {
	var out []unit
	cur, para := speaker, []string{}
	flush := func() {
		if len(para) > 0 {
			for _, s := range sentences(strings.Join(para, " ")) {
				out = append(out, unit{sentence: s, speaker: cur})
			}
			para = para[:0]
		}
	}
	fence := false
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "```") {
			flush()
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		switch {
		case l == "":
			flush()
			continue
		case strings.HasPrefix(l, ">"):
			flush()
			cur, l = "", strings.TrimSpace(strings.TrimLeft(l, ">"))
		default:
			if m := speakerLabel.FindStringSubmatch(l); m != nil && !notLabels[strings.ToLower(m[1])] && len(strings.Fields(m[1])) <= 3 {
				flush()
				cur, l = person(m[1]), m[2]
			} else if bullet(l) {
				flush()
				l = strings.TrimSpace(strings.TrimLeft(l, "-*•"))
			}
		}
		para = append(para, l)
	}
	flush()
	return out
}

// person is a speaker label as the name "I" stands for: "" for a role.
func person(label string) string {
	label = strings.TrimSpace(label)
	if roles[strings.ToLower(label)] {
		return ""
	}
	return label
}

func bullet(l string) bool {
	return strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ") || strings.HasPrefix(l, "• ")
}

// abbreviations end with a dot that does not end a sentence.
var abbreviations = map[string]bool{"e.g.": true, "i.e.": true, "vs.": true, "etc.": true, "mr.": true, "ms.": true, "dr.": true, "approx.": true}

// sentences splits a paragraph at . ! ? followed by a space (or the end)
// and at Chinese 。！？, keeping the mark with its sentence: a question is
// told by it. Backticks are dropped (`sqlc` is sqlc); over-long sentences
// are left out.
func sentences(p string) []string {
	p = strings.ReplaceAll(p, "`", "")
	var out []string
	start := 0
	emit := func(end int) {
		if s := strings.TrimSpace(p[start:end]); s != "" && len(s) <= maxSentence {
			out = append(out, s)
		}
		start = end
	}
	for i, r := range p {
		switch r {
		case '。', '！', '？', '；':
			emit(i + utf8.RuneLen(r))
		case '.', '!', '?':
			next, _ := utf8.DecodeRuneInString(p[i+1:])
			if i+1 < len(p) && !unicode.IsSpace(next) {
				continue
			}
			if r == '.' && i > 0 && p[i-1] == '.' {
				continue // an ellipsis or a path (./...)
			}
			if r == '.' {
				words := strings.Fields(p[start : i+1])
				if len(words) > 0 && abbreviations[strings.ToLower(words[len(words)-1])] {
					continue
				}
			}
			emit(i + 1)
		}
	}
	emit(len(p))
	return out
}

// hasHan reports whether s holds a Han character: such a sentence is
// read as Chinese.
func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}
