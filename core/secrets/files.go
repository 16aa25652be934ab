package secrets

import "strings"

// ---- credentials in files of their own format: .netrc, .pgpass ----

// maxNetrcLogin bounds the login name read back from a .netrc password,
// so that a line of many "password" words is not read again for each.
const maxNetrcLogin = 256

// netrcPassword reports a key [ks, ke) that is the "password" of a .netrc
// file, followed by white space and its value: after "login <name>" on
// the same line ("machine h login bob password ..."), or starting its
// line in the file's one-pair-a-line form.
func netrcPassword(text string, ks, ke int) bool {
	if text[ks:ke] != "password" {
		return false
	}
	j := backSpace(text, ks)
	if j == ks {
		return ks == 0 || text[ks-1] == '\n'
	}
	if j == 0 || text[j-1] == '\n' {
		return true
	}
	u := j
	for u > 0 && j-u <= maxNetrcLogin && text[u-1] > ' ' {
		u--
	}
	if u == j || j-u > maxNetrcLogin {
		return false
	}
	l := backSpace(text, u)
	return l < u && l >= len("login") && text[l-len("login"):l] == "login" &&
		(l == len("login") || text[l-len("login")-1] <= ' ')
}

// pgpassTriggers start the first field separator of a .pgpass line, at
// its end: host:port:database:user:password, where the port is a number
// or '*'.
var pgpassTriggers = []string{":0", ":1", ":2", ":3", ":4", ":5", ":6", ":7", ":8", ":9", ":*"}

// pgpassAt marks the password of the .pgpass line whose first ':' is at
// i. The host must start its line (after indentation), so only the first
// separator of a line reads on, and the line is read once.
func pgpassAt(text string, i int) (span, bool) {
	h := i
	for h > 0 && (is(text[h-1], cKey) || text[h-1] == '*') {
		h--
	}
	host := text[h:i]
	if h = backSpace(text, h); h > 0 && text[h-1] != '\n' {
		return span{}, false
	}
	// A host is a name, an address or '*': "12:30:45:..." is a time.
	if host != "*" && !strings.ContainsAny(host, ".abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return span{}, false
	}
	end := lineEnd(text, i)
	if end > i && text[end-1] == '\r' {
		end--
	}
	// The password is the rest of the line, and may hold escaped colons.
	fields := make([]int, 0, 4) // where each field after the host starts
	for j := i; j < end && len(fields) < 4; j++ {
		switch c := text[j]; {
		case c == ':':
			fields = append(fields, j+1)
		case c <= ' ':
			return span{}, false
		}
	}
	if len(fields) < 4 {
		return span{}, false
	}
	port := text[fields[0] : fields[1]-1]
	if port != "*" && !number(port) || fields[2]-fields[1] < 2 || fields[3]-fields[2] < 2 {
		return span{}, false
	}
	// The file escapes a ':' in the password: one unescaped makes a sixth
	// field, as in the hex pairs of a fingerprint (0c:83:d8:21:2b:82).
	pw := text[fields[3]:end]
	if len(pw) < 3 || isPlaceholder(pw) || number(pw) || strings.IndexFunc(pw, func(r rune) bool { return r <= ' ' }) >= 0 ||
		strings.Count(pw, ":") != strings.Count(pw, `\:`) {
		return span{}, false
	}
	return span{start: fields[3], end: end, kind: KindPassword, prio: prioAssign}, true
}
