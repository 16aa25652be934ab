package secrets

import (
	"math"
	"strings"
)

// minEntropyLen is the shortest value the entropy rule looks at; shorter
// random strings cannot be told from words by their letters alone.
const minEntropyLen = 20

// valueRun is what a high-entropy value is made of: base64 and base64url
// (letters, digits, + / - _), with '=' padding at the end.
const valueRun = cAlnum | cB64 | cURL

// highEntropy marks long random-looking values assigned to keys that are
// not obviously harmless (a hash, an id, a URL, test data). It looks only
// after assignment operators, which strings.IndexByte finds fast.
func highEntropy(text string, spans []span) []span {
	for _, op := range []byte{'=', ':'} {
		for at := 0; ; {
			k := strings.IndexByte(text[at:], op)
			if k < 0 {
				break
			}
			v := at + k + 1
			at = v
			if v < len(text) {
				switch {
				case text[v] == '>': // =>
					v++
				case op == ':' && text[v] == '=': // := is read at its '='
					continue
				}
			}
			v = runOf(text, v, cSpace)
			if v+1 < len(text) && text[v] == '\\' && isQuote(text[v+1]) {
				v += 2 // \"value\", escaped inside a string
			} else if v < len(text) && isQuote(text[v]) {
				v++
			}
			e := runOf(text, v, valueRun)
			end := e
			for end < len(text) && end-e < 2 && text[end] == '=' {
				end++
			}
			if end < len(text) && is(text[end], valueRun) {
				end = e // "a=b": an operator, not padding
			}
			if end-v >= minEntropyLen {
				if s, ok := entropyValue(text, v, end); ok {
					spans = append(spans, s)
				}
			}
		}
	}
	return spans
}

// entropyValue decides on one candidate run [s, e). A quoted value counts
// wherever it is; an unquoted one only in .env (KEY=value) and YAML (key:
// value, alone on its line) form: elsewhere an unquoted word is code, such
// as v.Op = OpAMD64MOVQload. The run must be the whole value: a quote
// must close right after it, or an unquoted value end there. Those two are
// checked before valueAfter reads the value, so that it reads no further
// than the run.
func entropyValue(text string, s, e int) (span, bool) {
	from := s // the value's opening quote, if any
	if s > 0 && isQuote(text[s-1]) {
		q := text[s-1]
		from = s - 1
		closed := e < len(text) && text[e] == q
		if from > 0 && text[from-1] == '\\' {
			from--
			closed = e+1 < len(text) && text[e] == '\\' && text[e+1] == q
		}
		if !closed {
			return span{}, false
		}
	}
	l, ok := keyBefore(text, from)
	if !ok || secretKey(l.key) || harmlessKey(l.key) {
		return span{}, false
	}
	if from == s && e < len(text) && !stopsValue(text[e], inQuery(text, l.start)) {
		return span{}, false
	}
	// A URL's query parameters are literals (a.env), but long random ones
	// there are mostly public ids (a playlist, a tracking id): only
	// secret-named ones count, as env-secret.
	a, ok := valueAfter(text, l.start, l.end, l.quote)
	literal := a.quoted || a.env && !a.query || a.op == ":" && a.alone
	if !ok || a.start != s || a.end != e || !literal || !randomLooking(text[s:e]) {
		return span{}, false
	}
	return span{start: s, end: e, kind: KindHighEntropy, prio: prioEntropy}, true
}

// harmlessLast are last words of keys whose long values are public by
// nature: digests and ids (commit, h1 in go.sum, integrity in lockfiles),
// locations, names and texts, public key material, and test-table fields
// (want, input), which hold fixtures.
var harmlessLast = map[string]bool{
	"hash": true, "sha": true, "sha1": true, "sha256": true, "sha384": true, "sha512": true, "md5": true,
	"checksum": true, "digest": true, "integrity": true, "sum": true, "h1": true, "commit": true,
	"rev": true, "revision": true, "ref": true, "version": true, "id": true, "ids": true, "uuid": true,
	"guid": true, "etag": true, "url": true, "uri": true, "href": true, "src": true, "path": true,
	"file": true, "filename": true, "dir": true, "name": true, "title": true, "description": true,
	"desc": true, "message": true, "msg": true, "text": true, "label": true, "comment": true,
	"data": true, "image": true, "img": true, "icon": true, "font": true, "svg": true, "base64": true,
	"b64": true, "pubkey": true, "publickey": true, "public": true, "cert": true, "certificate": true,
	"fingerprint": true, "nonce": true, "salt": true, "iv": true, "encoding": true, "type": true,
	"kind": true, "mode": true, "format": true, "pattern": true, "regex": true, "regexp": true,
	"want": true, "got": true, "expected": true, "expect": true, "input": true, "output": true,
	"in": true, "out": true, "result": true, "golden": true, "fixture": true, "sample": true,
	"example": true, "doc": true, "docs": true, "content": true, "body": true, "html": true, "css": true,
	"js": true, "import": true, "package": true, "module": true, "class": true, "alphabet": true,
	"charset": true, "chars": true, "letters": true, "digits": true,
}

func harmlessKey(key string) bool {
	ws := words(key)
	return len(ws) > 0 && harmlessLast[ws[len(ws)-1]]
}

// randomLooking reports a value that reads like a generated secret: no
// hex digest or UUID (random too, but ids, not secrets), letters and
// digits both, no digest prefix (sha512-... in lockfiles) or embedded
// image, not a lower-case path, not made of words, numbers or alphabets,
// and a Shannon entropy close to what random text of its length reaches.
func randomLooking(v string) bool {
	if isExample(v) || !hasAll(v, cDigit, cLower|cUpper) || isHex(v) {
		return false
	}
	for _, p := range notSecretPrefixes {
		if strings.HasPrefix(v, p) {
			return false
		}
	}
	if strings.IndexByte(v, '/') >= 0 && !hasAll(v, cUpper) {
		return false // crypto/internal/fips140
	}
	// Single-case text is cut into words where '_' separates them
	// (NO_RFC7540_PRIORITIES, a constant's name); random text of one case
	// rarely has a '_'.
	if (hasAll(v, cLower, cUpper) || strings.IndexByte(v, '_') >= 0) && meanWordLen(v) > maxMeanWordLen {
		return false
	}
	if longestSequence(v) >= 5 {
		return false // 0123456789abcdef..., ABCDEFGH...: an alphabet or a counter
	}
	if longestRun(v, cDigit) >= 6 {
		return false // xor_uint32_4294967295: a number in a name
	}
	return entropy(v) >= entropyThreshold(len(v))
}

// notSecretPrefixes start digests (npm's integrity field) and base64 of
// image and PDF files (PNG, JPEG, GIF, WebP, PDF), embedded as data.
var notSecretPrefixes = []string{"sha1-", "sha256-", "sha384-", "sha512-", "md5-",
	"iVBORw0KGgo", "/9j/", "R0lGOD", "UklGR", "JVBERi0"}

// longestSequence is the longest run of consecutive characters (abc, 123).
func longestSequence(v string) int {
	best, n := 1, 1
	for i := 1; i < len(v); i++ {
		if v[i] == v[i-1]+1 && is(v[i], cAlnum) {
			n++
			best = max(best, n)
		} else {
			n = 1
		}
	}
	return best
}

// maxMeanWordLen separates identifiers from random mixed-case text. Cut
// into words (a capital and its lower-case letters, a run of capitals, a
// run of digits), random base62 of 20 to 64 characters averages 1.8 per
// word, and 3.0 or less for 99% of strings (99.9% from 40 characters);
// identifiers such as framepointerRegMIPS64 (5.3) or
// or_int32_Neg2147483647 (4.0) average more.
const maxMeanWordLen = 3.0

// meanWordLen is the mean length of v's words; other bytes are skipped.
func meanWordLen(v string) float64 {
	words, chars := 0, 0
	for i := 0; i < len(v); {
		c := v[i]
		j := i + 1
		switch {
		case is(c, cDigit):
			j = runOf(v, i, cDigit)
		case is(c, cLower):
			j = runOf(v, i, cLower)
		case is(c, cUpper):
			j = runOf(v, i, cUpper)
			if j < len(v) && is(v[j], cLower) {
				if j-i > 1 {
					j-- // ABCWord: the last capital starts the next word
				} else {
					j = runOf(v, j, cLower)
				}
			}
		default:
			i = j
			continue
		}
		words++
		chars += j - i
		i = j
	}
	if words == 0 {
		return 0
	}
	return float64(chars) / float64(words)
}

// isHex reports hex digits, possibly grouped with '-' (UUIDs).
func isHex(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !is(c, cDigit) && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') && c != '-' {
			return false
		}
	}
	return true
}

// entropy is the Shannon entropy of v's bytes, in bits per byte.
func entropy(v string) float64 {
	var n [256]int
	for i := 0; i < len(v); i++ {
		n[v[i]]++
	}
	h := 0.0
	l := float64(len(v))
	for _, c := range n {
		if c > 0 {
			p := float64(c) / l
			h -= p * math.Log2(p)
		}
	}
	return h
}

// entropyThreshold is the entropy, in bits per byte, a value of n bytes
// must reach. No string of n bytes exceeds log2(n); random base62 or
// base64 text falls short of that by a margin that grows with n (letters
// start to repeat), and the threshold sits at its 1st percentile: 20,000
// random strings per length give 3.65 bits at 20 characters, 4.20 at 32,
// 4.45 at 40 and 4.90 at 64, where log2(n) - 0.5 - n/100 gives 3.62, 4.18,
// 4.42 and 4.86. So about 1% of random secrets of those lengths are
// missed, and words, paths and identifiers, which repeat letters far more,
// stay under it (TestEntropyThreshold). Long values are capped at 5.1, a
// level base64 reaches from about 90 characters.
func entropyThreshold(n int) float64 {
	return min(math.Log2(float64(n))-0.5-float64(n)/100, 5.1)
}
