// Package secrets finds known shapes of secrets in text (private key
// blocks, provider tokens, credentials in URLs, values of secret-named keys,
// passwords stated in prose, given to a command (mysql -p, curl -u
// user:password) or kept in .netrc and .pgpass files, API keys and tokens a
// sentence states, high-entropy values in assignments) and replaces each with a marker that
// names what was removed, such as [REDACTED:github-token]. A marker never
// holds any part of the secret.
//
// Redaction keeps every line where it was: drawers cite exact line ranges
// that editors jump to, so a redacted text has as many lines as the
// original and every unredacted character on the same line.
//
// Look-alikes are left alone on purpose: hashes and checksums (commit ids,
// go.sum h1: hashes, lockfile integrity), UUIDs and URNs, names in code
// (NO_RFC7540_PRIORITIES), base64 outside an
// assignment, references such as ${TOKEN} or os.Getenv("KEY"), empty
// values, names of secrets ("db-password"), and AWS's documented example
// keys (they contain EXAMPLE). The rules trade a few missed weak passwords
// (a letters-only value in code) for not blanking ordinary code.
package secrets

import (
	"sort"
	"strings"
)

// Kinds of secret, as reported and written in markers.
const (
	KindPrivateKey   = "private-key"
	KindAWSAccessKey = "aws-access-key"
	KindGitHub       = "github-token"
	KindGitLab       = "gitlab-token"
	KindSlack        = "slack-token"
	KindSlackWebhook = "slack-webhook"
	KindStripe       = "stripe-key"
	KindOpenAI       = "openai-key"
	KindAnthropic    = "anthropic-key"
	KindGoogleAPI    = "google-api-key"
	KindNPM          = "npm-token"
	KindPyPI         = "pypi-token"
	KindHuggingFace  = "huggingface-token"
	KindSendGrid     = "sendgrid-key"
	KindShopify      = "shopify-token"
	KindDoppler      = "doppler-token"
	KindDatabricks   = "databricks-token"
	KindDigitalOcean = "digitalocean-token"
	KindLinear       = "linear-key"
	KindPlanetScale  = "planetscale-token"
	KindPostman      = "postman-key"
	KindAge          = "age-secret-key"
	KindJWT          = "jwt"
	KindBearer       = "bearer-token"
	KindBasicAuth    = "basic-auth"
	KindURLPassword  = "url-password"
	KindEnvSecret    = "env-secret"
	KindHighEntropy  = "high-entropy"
	// KindPassword is a password a sentence states ("the db password is:
	// ...") or a MySQL or MariaDB command line gives (-pPASSWORD).
	KindPassword = "password"
	// KindStatedSecret is an API key, token or secret a sentence states
	// ("the API key is 9f86…"), when its value looks generated.
	KindStatedSecret = "stated-secret"
)

// Finding is one secret removed from a text.
type Finding struct {
	Kind string `json:"kind"`
	// Line is the 1-based line of the text where the secret starts.
	Line int `json:"line"`
}

// Kinds lists the kind of each finding, in order; never nil, so that a
// result with no secret reports an empty list.
func Kinds(fs []Finding) []string {
	kinds := make([]string, len(fs))
	for i, f := range fs {
		kinds[i] = f.Kind
	}
	return kinds
}

// Marker is what replaces a secret of kind.
func Marker(kind string) string { return "[REDACTED:" + kind + "]" }

// span is a stretch of text to replace. Lower prio wins an overlap: a
// specific shape says more than "a secret-named key" or "high entropy".
type span struct {
	start, end int
	kind       string
	prio       int
}

const (
	prioKey = iota
	prioToken
	prioHeader // after tokens: "Bearer eyJ..." is reported as the JWT it is
	prioURL
	prioAssign
	prioEntropy
)

// Redact returns text with every secret it recognises replaced by its
// marker, and what it replaced, in order. Newlines inside a secret (a
// private key's body) are kept after the marker, so line numbers do not
// move. Text without secrets is returned as is, unallocated. The time
// taken is linear in the length of text, whatever it holds.
func Redact(text string) (string, []Finding) {
	spans := highEntropy(text, scan(text))
	if len(spans) == 0 {
		return text, nil
	}
	spans = resolve(spans)
	var b strings.Builder
	b.Grow(len(text))
	fs := make([]Finding, 0, len(spans))
	line, at := 1, 0
	for _, s := range spans {
		line += strings.Count(text[at:s.start], "\n")
		b.WriteString(text[at:s.start])
		b.WriteString(Marker(s.kind))
		nl := strings.Count(text[s.start:s.end], "\n")
		b.WriteString(strings.Repeat("\n", nl))
		fs = append(fs, Finding{Kind: s.kind, Line: line})
		line += nl
		at = s.end
	}
	b.WriteString(text[at:])
	return b.String(), fs
}

// resolve keeps, among overlapping spans, the one of lowest prio (then the
// earliest, then the first found), and returns the kept ones in text order.
// It takes the spans one prio at a time, merging each group into those
// kept: linear in the spans once sorted, however many there are.
func resolve(spans []span) []span {
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].prio != spans[j].prio {
			return spans[i].prio < spans[j].prio
		}
		return spans[i].start < spans[j].start
	})
	var kept []span
	for g := 0; g < len(spans); {
		h := g + 1
		for h < len(spans) && spans[h].prio == spans[g].prio {
			h++
		}
		kept = merge(kept, spans[g:h])
		g = h
	}
	return kept
}

// merge returns kept (in text order, none overlapping) with the spans of
// group (one prio, in text order) that overlap neither a kept one nor an
// earlier one of the group.
func merge(kept, group []span) []span {
	out := make([]span, 0, len(kept)+len(group))
	k, last := 0, -1 // last: the end of the last span taken from group
	for _, s := range group {
		for k < len(kept) && kept[k].end <= s.start {
			out = append(out, kept[k])
			k++
		}
		if k < len(kept) && kept[k].start < s.end || last > s.start {
			continue
		}
		out = append(out, s)
		last = s.end
	}
	return append(out, kept[k:]...)
}

// ---- character classes ----

const (
	cLower = 1 << iota
	cUpper
	cDigit
	cB64   // + / (base64's two symbols)
	cURL   // - _ (base64url's two symbols, and common in token bodies)
	cKey   // may appear in a key name: letters, digits, _ - .
	cSpace // space and tab, never a newline
)

var class = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= cLower | cKey
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] |= cUpper | cKey
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= cDigit | cKey
	}
	t['+'] |= cB64
	t['/'] |= cB64
	t['-'] |= cURL | cKey
	t['_'] |= cURL | cKey
	t['.'] |= cKey
	t[' '] |= cSpace
	t['\t'] |= cSpace
	return t
}()

const cAlnum = cLower | cUpper | cDigit

func is(c byte, mask uint8) bool { return class[c]&mask != 0 }

// runOf returns the end of the run of bytes of class mask starting at i.
func runOf(text string, i int, mask uint8) int {
	for i < len(text) && class[text[i]]&mask != 0 {
		i++
	}
	return i
}

// classes ORs the classes of the bytes of s.
func classes(s string) uint8 {
	var m uint8
	for i := 0; i < len(s); i++ {
		m |= class[s[i]]
	}
	return m
}

func hasAll(s string, masks ...uint8) bool {
	m := classes(s)
	for _, want := range masks {
		if m&want == 0 {
			return false
		}
	}
	return true
}

// lineEnd is the index of the newline ending the line at i, or len(text).
func lineEnd(text string, i int) int {
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(text)
}
