package secrets

import "strings"

// maxKeyBody bounds the search for a key's END line: the largest armoured
// private keys (RSA 8192, PGP with subkeys) stay well under it.
const maxKeyBody = 64 << 10

// minKeyRun is how long a run of base64 a block must hold to be a key and
// not, say, code that names the BEGIN and END lines as constants. The
// shortest real body, an Ed25519 PKCS#8 key, is one line of 64.
const minKeyRun = 40

// beginArmor starts an armoured block.
const beginArmor = "-----BEGIN "

// privateKeyAt reads the block whose "-----BEGIN ... PRIVATE KEY...-----"
// line starts at i, and marks its body, keeping the BEGIN and END lines.
// Certificates and public keys are not secret and are left alone. A block
// cut short (no END line) loses the base64 lines that follow its BEGIN.
func (s *scanState) privateKeyAt(i int) (span, bool) {
	text := s.text
	at := i + len(beginArmor)
	label, ok := armorLabel(text, at)
	if !ok || !strings.Contains(label, "PRIVATE KEY") {
		return span{}, false
	}
	start := at + len(label) + len("-----")
	// The marker goes on the body's first line, indented like it, not
	// after the header.
	if strings.HasPrefix(text[start:], "\r\n") {
		start = runOf(text, start+2, cSpace)
	} else if strings.HasPrefix(text[start:], "\n") {
		start = runOf(text, start+1, cSpace)
	}
	if start < s.keysDone {
		return span{}, false
	}
	limit := min(len(text), start+maxKeyBody)
	var end int
	if e := s.armorEndFrom(start); e >= 0 && e+len(endArmor) <= limit {
		end = e
		// Whatever precedes END on its own line (indentation, a quote of
		// string concatenation) stays, so the END line reads as it did.
		if k := strings.LastIndexByte(text[start:end], '\n'); k >= 0 {
			end = start + k + 1
		}
	} else {
		end = s.truncatedBody(start)
	}
	if end <= start || longestRun(text[start:end], cAlnum|cB64) < minKeyRun {
		// A later BEGIN whose body starts inside this one (glued to a
		// line of it) reads on to the same END line, or through the same
		// lines: its body is a part of this one, and no key either.
		s.keysDone = end
		return span{}, false
	}
	return span{start: start, end: end, kind: KindPrivateKey, prio: prioKey}, true
}

// endArmor starts the line that closes an armoured block.
const endArmor = "-----END "

// armorEndFrom is the index of the first END line at or after i, or -1.
// BEGIN lines before one END all look for it: it is searched for once.
func (s *scanState) armorEndFrom(i int) int {
	if s.armorFrom < 0 || i < s.armorFrom || s.armorEnd >= 0 && i > s.armorEnd {
		s.armorFrom, s.armorEnd = i, strings.Index(s.text[i:], endArmor)
		if s.armorEnd >= 0 {
			s.armorEnd += i
		}
	}
	return s.armorEnd
}

// armorLabel reads the label of an armour header from i (after "-----BEGIN
// ") up to its closing "-----": upper-case words such as "RSA PRIVATE KEY"
// or "PGP PRIVATE KEY BLOCK".
func armorLabel(text string, i int) (string, bool) {
	j := i
	for j < len(text) && j-i <= 40 && (text[j] == ' ' || is(text[j], cUpper|cDigit)) {
		j++
	}
	if j == i || !strings.HasPrefix(text[j:], "-----") {
		return "", false
	}
	return text[i:j], true
}

// truncatedBody is where a key body with no END line stops: after the run
// of lines from start that hold only base64 (armour headers such as
// "Proc-Type: 4,ENCRYPTED", quotes and escaped newlines of a key pasted
// into code are allowed too).
func (s *scanState) truncatedBody(start int) int {
	end := start
	for end < len(s.text) {
		le := s.lineEnd(end)
		line := strings.TrimSpace(s.text[end:le])
		if line == "" || !keyLine(line) {
			break
		}
		end = min(le+1, len(s.text))
	}
	return end
}

// keyLine reports a line of a key's body: base64 (at least 16 characters,
// or padding), possibly quoted in code ("MIIE...\n" +), or an armour header.
func keyLine(line string) bool {
	if strings.HasPrefix(line, "Proc-Type:") || strings.HasPrefix(line, "DEK-Info:") || strings.HasPrefix(line, "Comment:") {
		return true
	}
	line = strings.TrimRight(line, " +,")
	line = strings.Trim(line, `"'`)
	line = strings.TrimSuffix(line, `\n`)
	if len(line) < 16 && !strings.Contains(line, "=") {
		return false
	}
	for i := 0; i < len(line); i++ {
		if !is(line[i], cAlnum|cB64) && line[i] != '=' {
			return false
		}
	}
	return true
}

// longestRun is the length of the longest run of bytes of class mask.
func longestRun(s string, mask uint8) int {
	best := 0
	for i := 0; i < len(s); {
		j := runOf(s, i, mask)
		best = max(best, j-i)
		i = j + 1
	}
	return best
}
