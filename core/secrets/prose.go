package secrets

import "strings"

// ---- passwords stated in prose ----

// passwordKey reports a key that names a password itself (password,
// db_password, passwd, passphrase, passcode), the only keys whose value a
// sentence gives away: "the token is rotated" or "the key is in the vault"
// say nothing secret, and shapes of real tokens and keys are found anyway.
func passwordKey(key string) bool {
	ws := words(key)
	if len(ws) == 0 {
		return false
	}
	last := ws[len(ws)-1]
	return strings.HasSuffix(last, "password") || last == "passwd" || last == "passphrase" || last == "passcode"
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
	if !passwordKey(text[ks:ke]) || !stated(text[start:end]) {
		return span{}, false
	}
	return span{start: start, end: end, kind: KindPassword, prio: prioAssign}, true
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
