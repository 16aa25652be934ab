package secrets

import (
	"encoding/base64"
	"strings"
)

// shape is a token that says what it is by its prefix.
type shape struct {
	kind     string
	prefixes []string
	// body says what may follow the prefix: the byte classes of the body,
	// its length bounds, and the classes it must include (all of them).
	body     uint8
	min, max int
	need     []uint8
	// hex: the body is hex digits (and the '-' between groups of them).
	hex bool
	// notPrefix starts another shape's tokens, which this one leaves alone.
	notPrefix string
	// check, when set, validates a candidate of the right length further,
	// from where its body ends, and may move its end.
	check func(text string, end int) (int, bool)
}

var shapes = []shape{
	// AWS access key ids: AKIA long-term, ASIA temporary, plus two rarer.
	{kind: KindAWSAccessKey, prefixes: []string{"AKIA", "ASIA", "ABIA", "ACCA"}, body: cUpper | cDigit, min: 16, max: 16},
	{kind: KindGitHub, prefixes: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, body: cAlnum, min: 36, max: 255},
	{kind: KindGitHub, prefixes: []string{"github_pat_"}, body: cAlnum | cURL, min: 40, max: 255},
	{kind: KindGitLab, prefixes: []string{"glpat-", "gldt-", "glrt-", "glptt-", "glsoat-", "glcbt-", "glffct-"}, body: cAlnum | cURL, min: 20, max: 255},
	{kind: KindSlack, prefixes: []string{"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xapp-"}, body: cAlnum | cURL, min: 20, max: 255, need: []uint8{cDigit}},
	{kind: KindStripe, prefixes: []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"}, body: cAlnum, min: 16, max: 255, need: []uint8{cDigit}},
	// Anthropic's keys also start "sk-": OpenAI's check leaves them out.
	{kind: KindAnthropic, prefixes: []string{"sk-ant-"}, body: cAlnum | cURL, min: 32, max: 255, need: []uint8{cDigit}},
	// OpenAI: legacy sk-<48>, project, service-account and admin keys. A
	// mixed-case body with digits keeps kebab-case words out.
	{kind: KindOpenAI, prefixes: []string{"sk-"}, body: cAlnum | cURL, min: 32, max: 255, need: []uint8{cDigit, cUpper, cLower},
		notPrefix: "sk-ant-"},
	{kind: KindGoogleAPI, prefixes: []string{"AIza"}, body: cAlnum | cURL, min: 35, max: 35},
	{kind: KindNPM, prefixes: []string{"npm_"}, body: cAlnum, min: 36, max: 36},
	{kind: KindPyPI, prefixes: []string{"pypi-AgEIcHlwaS5vcmc"}, body: cAlnum | cURL, min: 50, max: 1000},
	{kind: KindHuggingFace, prefixes: []string{"hf_"}, body: cAlnum, min: 30, max: 40, need: []uint8{cUpper, cLower}},
	{kind: KindSendGrid, prefixes: []string{"SG."}, body: cAlnum | cURL, min: 22, max: 22, check: sendGridRest},
	// Prefixes of the rules gitleaks keeps (github.com/gitleaks/gitleaks,
	// cmd/generate/config/rules) for services not covered above.
	{kind: KindShopify, prefixes: []string{"shpat_", "shpss_", "shpca_", "shppa_"}, body: cAlnum, min: 32, max: 32, hex: true},
	{kind: KindDoppler, prefixes: []string{"dp.pt.", "dp.st.", "dp.ct.", "dp.sa."}, body: cAlnum, min: 40, max: 44},
	{kind: KindDatabricks, prefixes: []string{"dapi"}, body: cAlnum, min: 32, max: 32, hex: true},
	{kind: KindDigitalOcean, prefixes: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, body: cAlnum, min: 64, max: 64, hex: true},
	{kind: KindLinear, prefixes: []string{"lin_api_"}, body: cAlnum, min: 40, max: 40},
	{kind: KindPlanetScale, prefixes: []string{"pscale_tkn_", "pscale_pw_", "pscale_oauth_"}, body: cAlnum | cURL, min: 32, max: 64},
	{kind: KindPostman, prefixes: []string{"PMAK-"}, body: cAlnum | cURL, min: 59, max: 59, hex: true},
	{kind: KindAge, prefixes: []string{"AGE-SECRET-KEY-1"}, body: cUpper | cDigit, min: 58, max: 58},
	// A JWT is three base64url parts; header and payload are JSON objects,
	// so both start "eyJ" ('{"').
	{kind: KindJWT, prefixes: []string{"eyJ"}, body: cAlnum | cURL, min: 10, max: 8000, check: jwtRest},
}

// shapeRun is what the candidates of one shape read so far.
type shapeRun struct {
	// text[from:to] is all of the shape's body: a candidate whose body
	// starts inside it reads on from to.
	from, to int
	// judged is where the last body read whole ends. Candidates come in
	// text order, so one whose body starts before it has the end of that
	// body, followed by the same text: shorter, with fewer classes and the
	// same check, it is judged alike, unless only EXAMPLE refused the
	// earlier one and this one starts past the last EXAMPLE (at example-1).
	judged, example int
}

// shapeAt reads a token of shape k whose prefix p starts at i.
func (s *scanState) shapeAt(i, k int, p string) (span, bool) {
	text, sh := s.text, &shapes[k]
	if s.shapes == nil {
		s.shapes = make([]shapeRun, len(shapes))
	}
	r := &s.shapes[k]
	at := i + len(p)
	// A prefix glued to letters or digits is inside another word; one that
	// starts another shape's tokens is that shape's.
	if i > 0 && is(text[i-1], cAlnum) || sh.notPrefix != "" && strings.HasPrefix(text[i:], sh.notPrefix) {
		return span{}, false
	}
	if at < r.judged && (r.example == 0 || i < r.example) {
		return span{}, false // judged with the body it starts in
	}
	// The body is read no further than one byte past the longest allowed,
	// and not again where an earlier candidate read it.
	limit := min(len(text), at+sh.max+1)
	from := at
	if r.from <= at && at < r.to {
		from = min(r.to, limit)
	} else {
		r.from, r.to = at, at
	}
	end := runOf(text[:limit], from, sh.body)
	r.to = max(r.to, end)
	n := end - at
	if n > sh.max {
		return span{}, false // a later start inside the run may be short enough
	}
	r.judged, r.example = end, 0
	if n < sh.min || (end < len(text) && is(text[end], cAlnum)) || !hasAll(text[at:end], sh.need...) || sh.hex && !isHex(text[at:end]) {
		return span{}, false
	}
	if sh.check != nil {
		var ok bool
		if end, ok = sh.check(text, end); !ok {
			return span{}, false
		}
	}
	if x := strings.LastIndex(text[i:end], "EXAMPLE"); x >= 0 {
		r.example = i + x + 1
		return span{}, false
	}
	return span{start: i, end: end, kind: sh.kind, prio: prioToken}, true
}

// isExample reports AWS-style documentation keys such as
// AKIAIOSFODNN7EXAMPLE: published on purpose, and so common in docs and
// tests that blanking them would only hide what the text is about. (shapeAt
// looks for the same word itself, to know where the last one is.)
func isExample(s string) bool { return strings.Contains(s, "EXAMPLE") }

// sendGridRest checks the second part of SG.<22>.<43>.
func sendGridRest(text string, end int) (int, bool) {
	if end >= len(text) || text[end] != '.' {
		return end, false
	}
	e := runOf(text, end+1, cAlnum|cURL)
	return e, e-end-1 == 43
}

// jwtRest checks that the header is followed by ".eyJ<payload>.<signature>".
func jwtRest(text string, end int) (int, bool) {
	if !strings.HasPrefix(text[end:], ".eyJ") {
		return end, false
	}
	pe := runOf(text, end+1, cAlnum|cURL)
	if pe-end-1 < 10 || pe >= len(text) || text[pe] != '.' {
		return end, false
	}
	se := runOf(text, pe+1, cAlnum|cURL)
	return se, se-pe-1 >= 16
}

// Credentials in headers: "Bearer <token>" anywhere, "Authorization:
// Basic <base64>"; only the credential is marked.
var (
	bearerPrefixes = []string{"Bearer ", "bearer ", "BEARER "}
	basicPrefixes  = []string{"Authorization: Basic ", "authorization: basic ", "Authorization: basic ", "AUTHORIZATION: BASIC "}
)

// credentialAt reads the credential after prefix, which starts at i.
func credentialAt(text string, i int, prefix, kind string, valid func(string) bool) (span, bool) {
	if i > 0 && is(text[i-1], cAlnum) {
		return span{}, false
	}
	at := i + len(prefix)
	end := runOf(text, at, cAlnum|cURL|cB64|cKey)
	for end < len(text) && text[end] == '=' {
		end++
	}
	if !valid(text[at:end]) {
		return span{}, false
	}
	return span{start: at, end: end, kind: kind, prio: prioHeader}, true
}

// bearerToken tells a token from prose ("a bearer token is ...": no
// digits) and from a placeholder ("Bearer $TOKEN", "Bearer <token>").
func bearerToken(tok string) bool {
	return len(tok) >= 20 && hasAll(tok, cDigit, cLower|cUpper) && !isPlaceholder(tok)
}

// basicCredentials is what Basic authentication sends: base64 of
// user:password.
func basicCredentials(tok string) bool {
	b, err := base64.StdEncoding.DecodeString(tok)
	return err == nil && strings.IndexByte(string(b), ':') > 0
}

// slackWebhook starts an incoming-webhook URL's secret path.
const slackWebhook = "hooks.slack.com/services/"

// slackWebhookAt marks the secret path of the webhook URL at i.
func slackWebhookAt(text string, i int) (span, bool) {
	at := i + len(slackWebhook)
	end := runOf(text, at, cAlnum|cB64)
	if end-at < 20 {
		return span{}, false
	}
	return span{start: at, end: end, kind: KindSlackWebhook, prio: prioToken}, true
}
