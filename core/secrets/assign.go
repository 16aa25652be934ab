package secrets

import (
	"strings"
)

// ---- credentials in URLs ----

// urlPasswordAt marks the password of scheme://user:<password>@host, where
// "://" is at i.
func urlPasswordAt(text string, i int) (span, bool) {
	if i == 0 || !is(text[i-1], cAlnum) {
		return span{}, false // no scheme
	}
	// The userinfo ends at '@'; '/', '?', '#', white space, a quote or a
	// bracket (an IPv6 host, a marker) first means there is none.
	j := i + len("://")
	colon := -1
	for j < len(text) {
		c := text[j]
		if c == '@' || c == '/' || c == '?' || c == '#' || c <= ' ' || strings.IndexByte("\"'`<>[]", c) >= 0 {
			break
		}
		if c == ':' && colon < 0 {
			colon = j
		}
		j++
	}
	if j+1 >= len(text) || text[j] != '@' || colon < 0 || !is(text[j+1], cAlnum) && text[j+1] != '[' {
		return span{}, false
	}
	if pw := text[colon+1 : j]; pw == "" || isPlaceholder(pw) {
		return span{}, false
	}
	return span{start: colon + 1, end: j, kind: KindURLPassword, prio: prioURL}, true
}

// ---- assignments ----

// assignment is key <op> value on one line, as in .env files, YAML, JSON,
// TOML, INI and most languages: KEY=v, key: v, "key": "v", key = 'v',
// key := "v", key => "v".
type assignment struct {
	start, end int  // the value, without its quotes
	quoted     bool // the value was in quotes
	// env is KEY=value with an upper-case key and nothing around '=', as
	// in .env files and shells, or a parameter of a URL's query (?key=v):
	// places where an unquoted word is a literal.
	env bool
	// alone is a key that starts its line and a value that ends it, as in
	// YAML and INI files (and not in code, where a value is followed by
	// ',' or ';' and a key is often a field: cfg.Token = ...), or a key
	// inSettings.
	alone bool
	op    string
	query bool // the key is a parameter of a URL's query (inQuery)
}

// valueAfter reads the operator and value that follow a key [ks, ke).
// quote is the quote opened before the key ("key": ...), or "".
func valueAfter(text string, ks, ke int, quote string) (assignment, bool) {
	a, i, ok := operatorAfter(text, ks, ke, quote)
	if !ok {
		return a, false
	}
	return valueAt(text, ks, i, a)
}

// operatorAfter reads the operator after a key [ks, ke), and returns where
// its value starts.
func operatorAfter(text string, ks, ke int, quote string) (assignment, int, bool) {
	var a assignment
	i := ke
	if !strings.HasPrefix(text[i:], quote) {
		return a, i, false
	}
	i += len(quote)
	sp := runOf(text, i, cSpace)
	spaced := sp > i
	i = sp
	if i >= len(text) {
		return a, i, false
	}
	switch {
	case strings.HasPrefix(text[i:], ":="), strings.HasPrefix(text[i:], "=>"):
		a.op = text[i : i+2]
	case text[i] == '=':
		if i+1 < len(text) && (text[i+1] == '=' || text[i+1] == '~') {
			return a, i, false // a comparison
		}
		a.op = "="
	case text[i] == ':':
		if i+1 < len(text) && (text[i+1] == ':' || text[i+1] == '/') {
			return a, i, false // a scope operator, a URL
		}
		a.op = ":"
	default:
		return a, i, false
	}
	i += len(a.op)
	v := runOf(text, i, cSpace)
	key := text[ks:ke]
	a.query = inQuery(text, ks)
	a.env = a.op == "=" && !spaced && v == i && (a.query || strings.ToUpper(key) == key)
	return a, v, v < len(text)
}

// inSettings reports a key at ks that follows ';' or "/:": a part of a
// connection string (Server=db;Password=...;, Azure's ...;AccountKey=...)
// or an .npmrc setting scoped to a registry (//host/:_authToken=...),
// whose unquoted value is a literal, as a YAML value alone on its line is.
func inSettings(text string, ks int) bool {
	return ks > 0 && text[ks-1] == ';' || ks > 1 && text[ks-2:ks] == "/:"
}

// valueAt reads the value that starts at i, of the key starting at ks.
func valueAt(text string, ks, i int, a assignment) (assignment, bool) {
	open, escaped := i, false
	if text[i] == '\\' && i+1 < len(text) && isQuote(text[i+1]) {
		open, escaped = i+1, true // \"value\" in JSON written inside a string
	}
	if isQuote(text[open]) {
		end, ok := closingQuote(text, open+1, text[open], escaped)
		if !ok {
			return a, false
		}
		a.start, a.end, a.quoted = open+1, end, true
		return a, true
	}
	j := i
	for j < len(text) && !stopsValue(text[j], a.query) {
		j++
	}
	a.start, a.end = i, j
	a.alone = startsLine(text, ks) && endsLine(text, j) || a.op == "=" && inSettings(text, ks)
	return a, true
}

// inQuery reports a key at ks that follows '?' or '&': a parameter of a
// URL's query.
func inQuery(text string, ks int) bool { return ks > 0 && (text[ks-1] == '?' || text[ks-1] == '&') }

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

// stopsValue reports a byte that ends an unquoted value: white space,
// punctuation that closes or separates (',', ';', ')', ']', '}'), a quote,
// and, in a URL's query, '&'.
func stopsValue(c byte, query bool) bool {
	return c <= ' ' || strings.IndexByte(",;\"'`)]}", c) >= 0 || c == '&' && query
}

// closingQuote finds where a quoted value that starts at i ends, at the
// quote q that closes it: one not escaped by a backslash, so "a\"b" is one
// value. Written inside another string (escaped, \"a\"), the value ends at
// the next \" instead, unless its backslash is escaped in turn (\\\" is a
// quote inside the value). A line without a closing quote has no value,
// but for a last resort: a quote escaped in a language without escapes
// (a shell's 'C:\'), which closes as it did before escapes were read.
func closingQuote(text string, i int, q byte, escaped bool) (int, bool) {
	fallback := -1
	for i < len(text) && text[i] != '\n' {
		switch text[i] {
		case '\\':
			j := i
			for j < len(text) && text[j] == '\\' {
				j++
			}
			if j == len(text) || text[j] != q {
				i = j
				continue
			}
			switch k := j - i; {
			case k%2 == 0:
				return j, true // the backslashes escape each other: the quote closes
			case escaped && k%4 == 1:
				return j - 1, true // \" (or \\\\\": an escaped backslash, then \")
			case !escaped && fallback < 0:
				fallback = j
			}
			i = j + 1
		case q:
			return i, true
		default:
			i++
		}
	}
	return fallback, fallback >= 0
}

// startsLine reports a key at the start of its line, after indentation,
// a YAML list dash or a shell's export.
func startsLine(text string, i int) bool {
	i = backSpace(text, i)
	if i >= 6 && text[i-6:i] == "export" {
		i = backSpace(text, i-6)
	}
	for i > 0 && text[i-1] == '-' {
		i = backSpace(text, i-1)
	}
	return i == 0 || text[i-1] == '\n'
}

// endsLine reports a value ending its line, but for a trailing comment.
func endsLine(text string, i int) bool {
	j := runOf(text, i, cSpace)
	return j == len(text) || text[j] == '\n' || text[j] == '\r' || text[j] == '#' && j > i
}

// lhs is the key side of an assignment read backwards from its value.
type lhs struct {
	key        string
	start, end int    // of the key
	quote      string // around the key, as quoteBefore gives it
}

// keyBefore reads the operator and key that precede a value starting at
// i (at its opening quote, if quoted).
func keyBefore(text string, i int) (lhs, bool) {
	var l lhs
	j := backSpace(text, i)
	switch {
	case j >= 2 && (text[j-2:j] == ":=" || text[j-2:j] == "=>"):
		j -= 2
	case j >= 1 && (text[j-1] == '=' || text[j-1] == ':'):
		j--
		if j >= 1 && strings.IndexByte("=!<>+-*/|&^%:", text[j-1]) >= 0 {
			return l, false // ==, !=, +=, ::, ...
		}
	default:
		return l, false
	}
	end := backSpace(text, j)
	var quote string
	if end >= 1 && (text[end-1] == '"' || text[end-1] == '\'') {
		quote = text[end-1 : end]
		if end >= 2 && text[end-2] == '\\' {
			quote = text[end-2 : end]
		}
		end -= len(quote)
	}
	k := end
	for k > 0 && is(text[k-1], cKey) {
		k--
	}
	if k == end || quote != "" && quoteBefore(text, k) != quote {
		return l, false
	}
	return lhs{key: text[k:end], start: k, end: end, quote: quote}, true
}

// quoteBefore is the quote that opens a key at i: ", ', the same escaped
// (\"key\" in JSON written inside a string: logs, fixtures, pasted tool
// output), or "".
func quoteBefore(text string, i int) string {
	if i == 0 || text[i-1] != '"' && text[i-1] != '\'' {
		return ""
	}
	if i >= 2 && text[i-2] == '\\' {
		return text[i-2 : i]
	}
	return text[i-1 : i]
}

func backSpace(text string, i int) int {
	for i > 0 && is(text[i-1], cSpace) {
		i--
	}
	return i
}

// secretWords are what a secret-named key contains, in the three cases
// keys are written in: where one occurs, the key around it is read.
var secretWords = []string{
	"pass", "Pass", "PASS",
	"pw", "Pw", "PW", // pw, pwd
	"secret", "Secret", "SECRET",
	"token", "Token", "TOKEN",
	"key", "Key", "KEY",
	"credential", "Credential", "CREDENTIAL",
	"auth", "Auth", "AUTH",
}

// secretValueAt marks the value of the key around a secret word found at
// i (DB_PASSWORD=..., "apiKey": "...", client_secret: ...). A key with two
// such words is read once, and a key inside the unquoted value of a
// secret-named key is part of that value (judged whole, and redacted whole
// if secret), so no text is read again for every key in it.
func (s *scanState) secretValueAt(i int) (span, bool) {
	text := s.text
	if i < s.keyEnd {
		return span{}, false
	}
	ks, ke := i, runOf(text, i, cKey)
	s.keyEnd = ke
	for ks > 0 && is(text[ks-1], cKey) {
		ks--
	}
	if ks < s.valueEnd {
		return span{}, false
	}
	// Most keys in code are not assigned to here (key), keys[i]): the
	// operator is the cheapest test, so it comes first, and the value is
	// read only for a secret-named key.
	quote := quoteBefore(text, ks)
	a, v, ok := operatorAfter(text, ks, ke, quote)
	if !ok && quote != "" {
		// A header inside a string: curl -H 'X-Api-Key: ...'.
		quote = ""
		a, v, ok = operatorAfter(text, ks, ke, quote)
	}
	key := text[ks:ke]
	if ok && secretKey(key) {
		header := quote == "" && a.op == ":" && strings.IndexByte(key, '-') >= 0
		if a, ok = valueAt(text, ks, v, a); ok {
			// An HTTP header (X-Api-Key: ..., unquoted, as in a request, a
			// log or curl's -H) holds a literal, as a YAML value alone on
			// its line does: no identifier has a '-'.
			a.alone = a.alone || header
			if !a.quoted {
				s.valueEnd = a.end
			}
			if secretValue(key, text[a.start:a.end], a) {
				return span{start: a.start, end: a.end, kind: KindEnvSecret, prio: prioAssign}, true
			}
		}
	}
	if ok && basicAuthKey(key) {
		if a, ok = valueAt(text, ks, v, a); ok && basicCredentials(text[a.start:a.end]) {
			return span{start: a.start, end: a.end, kind: KindBasicAuth, prio: prioAssign}, true
		}
	}
	if sp, ok := xmlElementAt(text, ks, ke); ok {
		return sp, true
	}
	// No assignment gave it away; a sentence may ("the password is ..."),
	// or a .netrc file.
	return s.proseAt(ks, ke)
}

// basicAuthKey reports a key whose value is Basic credentials, base64 of
// user:password: "auth" in Docker's config.json, "_auth" in .npmrc.
func basicAuthKey(key string) bool { return key == "auth" || key == "_auth" }

// xmlElementAt marks the text of an XML element named by the secret-named
// key [ks, ke): <password>...</password> as in Maven's settings.xml,
// <apiToken>...</apiToken>. The text is judged as a quoted value is.
func xmlElementAt(text string, ks, ke int) (span, bool) {
	if ks == 0 || text[ks-1] != '<' || ke >= len(text) || text[ke] != '>' {
		return span{}, false
	}
	key := text[ks:ke]
	start := ke + 1
	end := start
	for end < len(text) && text[end] != '<' && text[end] != '\n' {
		end++
	}
	if !strings.HasPrefix(text[end:], "</"+key+">") || !secretKey(key) ||
		!secretValue(key, text[start:end], assignment{quoted: true}) {
		return span{}, false
	}
	return span{start: start, end: end, kind: KindEnvSecret, prio: prioAssign}, true
}

// words splits a key into lower-case words: snake_case, kebab-case,
// dot.separated and camelCase ("clientSecret", "APIKey" -> api, key).
func words(key string) []string {
	var out []string
	var cur []byte
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '_' || c == '-' || c == '.':
			flush()
			continue
		case is(c, cUpper) && len(cur) > 0:
			prevLower := is(key[i-1], cLower|cDigit)
			nextLower := i+1 < len(key) && is(key[i+1], cLower)
			if prevLower || (is(key[i-1], cUpper) && nextLower) {
				flush()
			}
		}
		cur = append(cur, c)
	}
	flush()
	return out
}

// secretLast are last words that make a key secret-named.
var secretLast = map[string]bool{
	"password": true, "passwd": true, "pass": true, "passphrase": true, "pwd": true,
	"secret": true, "token": true, "apikey": true, "secretkey": true, "accesskey": true,
	"privatekey": true, "credential": true, "credentials": true, "authtoken": true,
	"pat": true, "passcode": true, "pw": true,
}

// keyQualifiers make a final "key" secret: api_key, secret_key, ... but not
// primary_key, sort_key or key alone.
var keyQualifiers = map[string]bool{
	"api": true, "access": true, "secret": true, "private": true, "signing": true, "encryption": true,
	"master": true, "client": true, "auth": true, "app": true, "session": true, "service": true,
	"account": true, "license": true, "admin": true, "webhook": true, "consumer": true, "shared": true,
	"hmac": true, "jwt": true, "crypt": true, "cipher": true, "decryption": true, "storage": true,
}

// secretKey reports whether a key names a secret: its last word is one
// (DB_PASSWORD, clientSecret, GITHUB_TOKEN, x-api-key), or ends in
// "password" (PGPASSWORD, MYSQL_ROOTPASSWORD), not a name, file, URL, type
// or count of one (secret_name, token_url, max_tokens). Alone, PWD is the
// shell's working directory and PASS a test's verdict.
func secretKey(key string) bool {
	ws := words(key)
	if len(ws) == 0 {
		return false
	}
	last := ws[len(ws)-1]
	if (last == "pwd" || last == "pass") && len(ws) == 1 {
		return false
	}
	if secretLast[last] || strings.HasSuffix(last, "password") {
		return true
	}
	if last == "key" && len(ws) > 1 {
		return keyQualifiers[ws[len(ws)-2]]
	}
	if last == "auth" && len(ws) > 1 {
		return ws[len(ws)-2] == "basic" || ws[len(ws)-2] == "npm" || ws[len(ws)-2] == "registry"
	}
	return false
}

// secretValue reports whether the value of a secret-named key is a
// literal worth hiding, not a reference, a placeholder, a label or code.
func secretValue(key, v string, a assignment) bool {
	// Unquoted, a literal is a .env value or stands alone on its line
	// (YAML, INI); in code it is an expression (cfg.Token, loadKey(),
	// -1000 - iota). This costs nothing, so it comes first.
	if !a.env && !a.quoted && !a.alone {
		return false
	}
	// isPlaceholder also refuses AWS's documented keys (EXAMPLE).
	if len(v) < 4 || isPlaceholder(v) {
		return false
	}
	switch strings.ToLower(v) {
	case "true", "false", "null", "nil", "none", "undefined", "required", "optional":
		return false
	}
	// A URN names something (urn:uuid:..., a WebDAV lock token); a few
	// hex digits are a test's value ("token":"0304"), not a credential
	// for anything but a password (a PIN).
	if len(v) > 4 && strings.EqualFold(v[:4], "urn:") || len(v) < 8 && isHex(v) && !passwordKey(key) {
		return false
	}
	if tokenPrefix(v) {
		return false // GITHUB_TOKEN=ghp_ + rest, in code that builds one
	}
	// A name made from the key's is a name ("encryptionKey":
	// "encryptionKey1024" in Go's ML-KEM tables).
	if len(v) > len(key) && strings.EqualFold(v[:len(key)], key) && identifier(v) {
		return false
	}
	if a.env {
		return true
	}
	if !a.quoted {
		if number(v) || strings.ContainsAny(v, "([{") || strings.HasPrefix(v, "/") ||
			strings.HasPrefix(v, "./") || strings.HasPrefix(v, "~/") || dottedIdentifier(v) {
			return false
		}
		if a.op != ":" && identifier(v) && !hasAll(v, cDigit) {
			return false // key = otherVariable
		}
	}
	// A space makes prose: a description, a label, a comment marker
	// ("Token": "// indirect").
	if strings.IndexByte(v, ' ') >= 0 {
		return false
	}
	// A value of only letters is a word: an identifier, a type (token:
	// string) or a label ("password": "Mot de passe"). Secrets have digits
	// or symbols.
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < 0x80 && !is(c, cLower|cUpper) && strings.IndexByte("_-.':?!,", c) < 0 {
			return true
		}
	}
	return false
}

// tokenPrefix reports a value that is only the prefix of a provider's
// tokens (ghp_, sk-): what code or a document writes before the rest.
func tokenPrefix(v string) bool {
	for _, sh := range shapes {
		for _, p := range sh.prefixes {
			if v == p {
				return true
			}
		}
	}
	return false
}

// number reports a numeric literal: 42, -1000, 0x000C, 1.5e3, 1_000.
func number(v string) bool {
	v = strings.TrimPrefix(v, "-")
	if strings.HasPrefix(v, "0x") || strings.HasPrefix(v, "0X") {
		return len(v) > 2 && isHex(v[2:])
	}
	for i := 0; i < len(v); i++ {
		if !is(v[i], cDigit) && strings.IndexByte("._eE+", v[i]) < 0 {
			return false
		}
	}
	return v != "" && is(v[0], cDigit)
}

// identifier reports a bare identifier such as otherVariable or key_2.
func identifier(v string) bool {
	if v == "" || is(v[0], cDigit) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !is(v[i], cAlnum) && v[i] != '_' {
			return false
		}
	}
	return true
}

// dottedIdentifier reports a selector such as cfg.Token2 or
// process.env.API_KEY.
func dottedIdentifier(v string) bool {
	if !strings.Contains(v, ".") {
		return false
	}
	for _, part := range strings.Split(v, ".") {
		if !identifier(part) {
			return false
		}
	}
	return true
}

// isPlaceholder reports values that stand for a secret rather than being
// one: references (${TOKEN}, $TOKEN, %(token)s, {{ token }}, <token>),
// masks (***, xxxx), markers of an earlier redaction and the usual
// fill-me-in words.
func isPlaceholder(v string) bool {
	if v == "" {
		return true
	}
	switch v[0] {
	case '$', '%', '{', '[', '<', '*', '&', '!', '@', '#', '|', '>', '\\':
		return true // also a marker, [REDACTED:...], and escapes such as \u3299
	}
	if strings.Contains(v, "${") || strings.Contains(v, "{{") || strings.Contains(v, "$(") {
		return true
	}
	if strings.Trim(v, "xX*.-_•…") == "" {
		return true
	}
	l := strings.ToLower(v)
	for _, w := range []string{"changeme", "change_me", "change-me", "placeholder", "your_", "your-", "yourpassword", "yourtoken",
		"xxxx", "redacted", "replace_me", "replace-me", "<", "example"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}
