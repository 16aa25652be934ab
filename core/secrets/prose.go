package secrets

import "strings"

// ---- passwords stated in prose ----

// passwordKey reports a key that names a password itself (password,
// db_password, passwd, passphrase, passcode, and the short pw, pwd and pass
// of notes and chats: "pw: …", "pwd=…", "my pass is …"), the keys whose
// value a sentence gives away whatever it looks like. "PASS" and "PWD"
// alone in capitals are a test's verdict (--- PASS: TestX1) and the
// shell's working directory, not passwords.
func passwordKey(key string) bool {
	ws := words(key)
	if len(ws) == 0 || key == "PASS" || key == "PWD" {
		return false
	}
	last := ws[len(ws)-1]
	return strings.HasSuffix(last, "password") || last == "passwd" || last == "passphrase" || last == "passcode" ||
		last == "pw" || last == "pwd" || last == "pass"
}

// statedSecretKey reports a key that names an API key, a token or a
// secret, as a sentence does: "the API key is …", "our GitHub token was …",
// "the client secret is: …". Such a sentence says as often that the key
// "is required" or "is stored in Vault", so what it states counts only
// when it looks generated (randomValue). "key" needs a qualifier, in the
// key (api_key) or as the word before it ("API key", "access key"):
// "the key is 0x1f" names no secret.
func statedSecretKey(text string, ks int) bool {
	ws := words(text[ks:runOf(text, ks, cKey)])
	if len(ws) == 0 {
		return false
	}
	switch last := ws[len(ws)-1]; {
	case last == "token" || last == "secret" || last == "apikey" || last == "secretkey" || last == "accesskey" ||
		last == "authtoken" || last == "privatekey":
		return true
	case last != "key":
		return false
	case len(ws) > 1:
		return keyQualifiers[ws[len(ws)-2]]
	}
	return keyQualifiers[wordBefore(text, ks)]
}

// maxQualifierLen bounds how far wordBefore reads back: no qualifier of
// keyQualifiers is longer, so the read is constant and the pass linear.
const maxQualifierLen = 12

// wordBefore is the word of letters one space before ks, in lower case,
// or "" when there is none or it is longer than any qualifier.
func wordBefore(text string, ks int) string {
	e := ks - 1
	if e < 1 || text[e] != ' ' {
		return ""
	}
	b := e
	for b > 0 && e-b < maxQualifierLen && is(text[b-1], cLower|cUpper) {
		b--
	}
	if b == e || b > 0 && is(text[b-1], cKey) {
		return ""
	}
	return strings.ToLower(text[b:e])
}

// randomValue reports a value a sentence states that reads as generated,
// not as a word, a number or a reference: 16 hex digits or more (grouped
// with '-' as a UUID or not, with letters and digits both), or a long
// random-looking run of base64 as the entropy rule judges one.
func randomValue(v string) bool {
	if isPlaceholder(v) {
		return false
	}
	if isHex(v) {
		return len(v)-strings.Count(v, "-") >= 16 && hasAll(v, cDigit, cLower|cUpper)
	}
	return len(v) >= minEntropyLen && runOf(v, 0, valueRun) == len(v) && randomLooking(v)
}

// proseAt marks a password a sentence states after the password-named key
// [ks, ke): "the prod db password is: …", "the password was …", "db
// password: … (rotated monthly)". With "is" or "was" the value follows
// whatever precedes the key; with a bare colon the key must start the line
// or follow a word, and the value must end the sentence or be followed by
// more words, so that code (f(user, password: pw2), Config{Password:
// pw2,}) is left alone.
func (s *scanState) proseAt(ks, ke int) (span, bool) {
	text := s.text
	i := runOf(text, ke, cSpace)
	// verb: "is" or "was" follows the key; eq: '=' is glued to it
	// ("set password=... in the config", "--password=..."); netrc: the
	// value follows the key and a space, in a .netrc file.
	verb, eq, netrc := false, false, false
	if i > ke {
		for _, w := range []string{"is", "was"} {
			if strings.HasPrefix(text[i:], w) && (i+len(w) == len(text) || !is(text[i+len(w)], cKey)) {
				i, verb = i+len(w), true
				break
			}
		}
		if !verb {
			if netrc = netrcPassword(text, ks, ke); !netrc {
				return span{}, false
			}
		}
	}
	switch {
	case netrc:
	case i < len(text) && text[i] == ':':
		i++
	case i == ke && i+1 < len(text) && text[i] == '=' && text[i+1] != '=':
		i, eq = i+1, true
	case !verb:
		return span{}, false
	}
	v := runOf(text, i, cSpace)
	// A value follows a colon or verb after a space, and '=' right away.
	if v >= len(text) || (v == i) != (eq || netrc) {
		return span{}, false
	}
	if !verb && !netrc && !proseBefore(text, ks) {
		return span{}, false
	}
	start, end := v, 0
	if isQuote(text[v]) {
		e, ok := closingQuote(text, v+1, text[v], false)
		if !ok {
			return span{}, false
		}
		start, end = v+1, e
	} else {
		end = v
		for end < len(text) && text[end] > ' ' {
			end++
		}
		s.valueEnd = max(s.valueEnd, end)
		if !verb && !endsSentence(text[v:end], text[end:]) {
			return span{}, false
		}
		// A .netrc whose key starts its line holds one pair a line.
		if netrc && startsLine(text, ks) && !endsLine(text, end) {
			return span{}, false
		}
		end = sentenceEnd(text[start:end]) + start
	}
	switch v := text[start:end]; {
	case passwordKey(text[ks:ke]) && stated(v):
		return span{start: start, end: end, kind: KindPassword, prio: prioAssign}, true
	case verb && statedSecretKey(text, ks) && randomValue(v):
		return span{start: start, end: end, kind: KindStatedSecret, prio: prioAssign}, true
	}
	return span{}, false
}

// proseBefore reports a key at ks that starts its line (after indentation
// and a list or quote marker) or follows a word: "db password:", "- password:",
// "> password:", but not "(user, password:" or "{password:".
func proseBefore(text string, ks int) bool {
	i := backSpace(text, ks)
	for i > 0 && strings.IndexByte("-*>#", text[i-1]) >= 0 {
		i = backSpace(text, i-1)
	}
	return i == 0 || text[i-1] == '\n' || i < ks && is(text[i-1], cLower|cUpper)
}

// sentenceEnd is where a password ends in token, a run of text without
// white space that follows "password is" or "password:": before the
// punctuation that ends the sentence ("… is hunter22." "… is hunter22,"),
// and before a '.', '!' or '?' followed by a quote or an entity, which
// close the string or element the sentence is in ("Password is
// incorrect.\");", "is incorrect.&quot;").
func sentenceEnd(token string) int {
	for i := 0; i < len(token); i++ {
		if c := token[i]; (c == '.' || c == '!' || c == '?') && i+1 < len(token) && strings.IndexByte("\"'`&<", token[i+1]) >= 0 {
			token = token[:i]
			break
		}
	}
	end := len(token)
	for end > 0 && strings.IndexByte(".,;:!?)]}'\"`", token[end-1]) >= 0 {
		end--
	}
	return end
}

// endsSentence reports whether a colon's value, token (up to white space),
// ends as a word of a sentence does, followed by rest: not with the ',' or
// ';' or ')' of code (pw2, / pw2);), but a comma before more words is
// prose's.
func endsSentence(token, rest string) bool {
	if token == "" {
		return false
	}
	if c := token[len(token)-1]; strings.IndexByte(",;)]}", c) >= 0 {
		return c == ',' && strings.HasPrefix(rest, " ")
	}
	return true
}

// stated reports a value a sentence gives as the password, not a word of
// the sentence ("is required", "is: it needs 12 characters"), a reference
// or placeholder ("is $DB_PASS", "is <password>", "is %s"), a path or URL
// ("is in /etc/app/secret"), or code ("is cfg.Password", "is hash(pw)",
// "is "+pw+"").
// As for assignments, a password of letters only reads as a word and is
// missed.
func stated(v string) bool {
	if len(v) < 4 || isPlaceholder(v) {
		return false
	}
	if strings.ContainsAny(v, "([{ ") || strings.Contains(v, "://") || strings.HasPrefix(v, "/") || joinsStrings(v) ||
		strings.HasPrefix(v, "./") || strings.HasPrefix(v, "~/") || dottedIdentifier(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x80 && !is(v[i], cLower|cUpper) {
			return true
		}
	}
	return false
}

// joinsStrings reports a "value" between the quotes of two string literals
// that code joins ("password is "+pw+"", "-p" + pw + " app"): it starts or
// ends with '+' or a space.
func joinsStrings(v string) bool {
	return strings.IndexByte("+ ", v[0]) >= 0 || strings.IndexByte("+ ", v[len(v)-1]) >= 0
}

// ---- passwords on MySQL and MariaDB command lines ----

// mysqlCommands start the name of a command whose -p option with the
// password attached (with a space, -p asks for the password and the word
// after it is the database) and --password= give the password away:
// mysql, mysqldump, mysqladmin, mariadb, mariadb-dump, ...
var mysqlCommands = []string{"mysql", "mariadb"}

// mysqlAt marks the password given to the MySQL or MariaDB command whose
// name starts at i, reading its arguments up to the end of the command (a
// newline, ';', '|' or '&'). A command name inside the arguments of one
// already read is part of it, so no line is read again for each.
func (s *scanState) mysqlAt(i int) (span, bool) {
	text := s.text
	if i < s.commandEnd || i > 0 && is(text[i-1], cAlnum|cURL) {
		return span{}, false
	}
	// A command's name is lower case, as in mysqldump or mariadb-dump,
	// and followed by its arguments; an identifier (mysqlConfig) is not one.
	name := runOf(text, i, cLower|cURL)
	if name == len(text) || !is(text[name], cSpace) {
		return span{}, false
	}
	end := i
	for end < len(text) && strings.IndexByte("\n;|&", text[end]) < 0 {
		end++
	}
	s.commandEnd = end
	for a := i; a < end; a++ {
		if !is(text[a], cSpace) {
			continue
		}
		arg := text[a+1 : end]
		var start int
		switch {
		case strings.HasPrefix(arg, "-p") && len(arg) > 2 && text[a+3] > ' ':
			start = a + 3
		case strings.HasPrefix(arg, "--password="):
			start = a + 1 + len("--password=")
		default:
			continue
		}
		stop := start
		if stop < end && isQuote(text[stop]) {
			if e, ok := closingQuote(text, stop+1, text[stop], false); ok && e < end {
				start, stop = stop+1, e
			}
		} else {
			for stop < end && text[stop] > ' ' && !isQuote(text[stop]) {
				stop++
			}
		}
		// A name in capitals (PASSWORD, DB_PASS) stands for one.
		if pw := text[start:stop]; len(pw) >= 3 && !isPlaceholder(pw) && !joinsStrings(pw) && strings.Trim(pw, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_-") != "" {
			return span{start: start, end: stop, kind: KindPassword, prio: prioAssign}, true
		}
	}
	return span{}, false
}

// ---- user:password given to curl and httpie ----

// userCommand is a command that takes a user and password in one argument,
// user:password, and the options that give it.
type userCommand struct {
	name    string
	options []string // "-u" also glued (-ubob:pw); "--user" also with '='
}

// userCommands: curl's --user and --proxy-user, httpie's --auth (http and
// https are its commands). Without a colon the command asks for the
// password (curl -u bob), and other commands' -u is something else
// (sort -u, set -u).
var userCommands = []userCommand{
	{"curl", []string{"-u", "-U", "--user", "--proxy-user"}},
	{"http", []string{"-a", "--auth"}},
	{"https", []string{"-a", "--auth"}},
}

// userCommandAt marks the password of the user:password argument given to
// the command of userCommands whose name starts at i, reading its
// arguments up to the end of the command: a newline that no backslash
// continues, ';', '|', or '&' ending a word (a URL's query holds '&' too).
// A command name inside the arguments of one already read is part of it,
// so no line is read again for each.
func (s *scanState) userCommandAt(i int) (span, bool) {
	text := s.text
	if i < s.userEnd || i > 0 && is(text[i-1], cAlnum|cURL) {
		return span{}, false
	}
	name := runOf(text, i, cLower)
	var cmd *userCommand
	for k := range userCommands {
		if userCommands[k].name == text[i:name] {
			cmd = &userCommands[k]
		}
	}
	if cmd == nil || name == len(text) || !is(text[name], cSpace) {
		return span{}, false
	}
	end := commandEnd(text, name)
	s.userEnd = end
	for a := name; a < end; a++ {
		if !is(text[a], cSpace) && text[a] != '\n' {
			continue
		}
		v, ok := userValue(text[a+1:end], cmd.options)
		if !ok {
			continue
		}
		v += a + 1
		start, stop := v, v
		if isQuote(text[v]) {
			e, ok := closingQuote(text, v+1, text[v], false)
			if !ok || e >= end {
				break // no value closes in the command: reading on would read its rest again for every quote
			}
			start, stop = v+1, e
		} else {
			for stop < end && text[stop] > ' ' && !isQuote(text[stop]) {
				stop++
			}
		}
		a = stop
		colon := strings.IndexByte(text[start:stop], ':')
		if colon < 0 {
			continue // curl asks for the password
		}
		if pw := text[start+colon+1 : stop]; userPassword(pw) {
			return span{start: start + colon + 1, end: stop, kind: KindPassword, prio: prioAssign}, true
		}
	}
	return span{}, false
}

// commandEnd is where the command whose arguments start at i ends.
func commandEnd(text string, i int) int {
	for ; i < len(text); i++ {
		switch text[i] {
		case '\n':
			if j := strings.TrimSuffix(text[:i], "\r"); !strings.HasSuffix(j, "\\") {
				return i
			}
		case ';', '|':
			return i
		case '&':
			if i+1 == len(text) || text[i+1] == '&' || is(text[i+1], cSpace) || text[i+1] == '\n' {
				return i
			}
		}
	}
	return i
}

// userValue reads one of options at the start of arg and returns where its
// value starts in arg: after white space, after '=' for a long option, or
// glued to a short one.
func userValue(arg string, options []string) (int, bool) {
	for _, o := range options {
		if !strings.HasPrefix(arg, o) || len(arg) == len(o) {
			continue
		}
		rest := arg[len(o):]
		switch {
		case is(rest[0], cSpace):
			v := len(o) + runOf(rest, 0, cSpace)
			return v, v < len(arg) && arg[v] > ' '
		case rest[0] == '=' && strings.HasPrefix(o, "--"):
			return len(o) + 1, len(rest) > 1 && rest[1] > ' '
		case !strings.HasPrefix(o, "--") && rest[0] > ' ':
			return len(o), true
		}
	}
	return 0, false
}

// userPassword reports a password given after user: that is one, not a
// reference ($PASS, a name in capitals), code joining strings, or the word
// a document writes in its place (curl -u user:password).
func userPassword(pw string) bool {
	if len(pw) < 3 || isPlaceholder(pw) || joinsStrings(pw) || strings.Trim(pw, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_-") == "" {
		return false
	}
	switch strings.ToLower(pw) {
	case "pass", "password", "passwd", "pwd", "secret", "token", "apikey", "api_key":
		return false
	}
	return true
}
