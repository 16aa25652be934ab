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
func privateKeyAt(text string, i int) (span, bool) {
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
	limit := min(len(text), start+maxKeyBody)
	var end int
	if j := strings.Index(text[start:limit], "-----END "); j >= 0 {
		end = start + j
		// Whatever precedes END on its own line (indentation, a quote of
		// string concatenation) stays, so the END line reads as it did.
		if k := strings.LastIndexByte(text[start:end], '\n'); k >= 0 {
			end = start + k + 1
		}
	} else {
		end = truncatedBody(text, start)
	}
	if end <= start || longestB64Run(text[start:end]) < minKeyRun {
		return span{}, false
	}
	return span{start: start, end: end, kind: KindPrivateKey, prio: prioKey}, true
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
func truncatedBody(text string, start int) int {
	end := start
	for end < len(text) {
		le := lineEnd(text, end)
		line := strings.TrimSpace(text[end:le])
		if line == "" || !keyLine(line) {
			break
		}
		end = min(le+1, len(text))
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

// longestB64Run is the length of the longest run of base64 characters.
func longestB64Run(s string) int {
	best := 0
	for i := 0; i < len(s); {
		j := runOf(s, i, cAlnum|cB64)
		best = max(best, j-i)
		i = j + 1
	}
	return best
}
