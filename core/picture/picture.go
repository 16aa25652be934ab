// Package picture draws the palace as self-contained HTML pages: the map of
// wings and rooms (a treemap, tunnels as links between wings) and an
// entity's knowledge graph with each fact's interval on a timeline. A page
// is one file: its style and script are inline (embedded here, written by
// hand), its data is the operation's JSON, and its content security policy
// lets it load nothing else, so it works offline, in a browser or in an
// editor's webview. The package knows no palace types: it draws the JSON
// the scripts read (core/ops's MapResult and GraphResult).
package picture

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"text/template"

	"github.com/palace-dev/palace/core/input"
)

//go:embed page.html page.css dom.js map.js graph.js
var files embed.FS

var page = template.Must(template.ParseFS(files, "page.html"))

// Options say how a page is titled and which inline code its policy
// allows.
type Options struct {
	Title string
	// Nonce is put on the inline style and script, and the policy allows
	// those carrying it (a webview's host sets one per page); "" allows
	// them by their SHA-256 hashes instead.
	Nonce string
}

// nonceRE is the base64 alphabet a CSP nonce is written in; a longer or
// other string could break out of the attribute or the policy.
var nonceRE = regexp.MustCompile(`^[A-Za-z0-9+/_=-]{1,128}$`)

// CheckNonce names a nonce that cannot go in a policy.
func CheckNonce(nonce string) error {
	if nonce != "" && !nonceRE.MatchString(nonce) {
		return input.Invalid("nonce", "%s: want 1 to 128 base64 characters", input.Quote(nonce))
	}
	return nil
}

// Map draws a map of the palace: data is core/ops's MapResult.
func Map(data any, o Options) (string, error) { return render("map.js", data, o) }

// Graph draws an entity's neighbourhood and timeline: data is core/ops's
// GraphResult.
func Graph(data any, o Options) (string, error) { return render("graph.js", data, o) }

func render(script string, data any, o Options) (string, error) {
	if err := CheckNonce(o.Nonce); err != nil {
		return "", err
	}
	// encoding/json escapes <, > and & in strings, so no value can close
	// the script element it is written into.
	js, err := json.Marshal(data)
	if err != nil {
		return "", fmt.Errorf("picture: %w", err)
	}
	dom, err := files.ReadFile("dom.js")
	if err != nil {
		return "", fmt.Errorf("picture: %w", err)
	}
	code, err := files.ReadFile(script)
	if err != nil {
		return "", fmt.Errorf("picture: %w", err)
	}
	css, err := files.ReadFile("page.css")
	if err != nil {
		return "", fmt.Errorf("picture: %w", err)
	}
	p := struct {
		Title, Style, Script, StyleSrc, ScriptSrc, Nonce string
	}{Title: html.EscapeString(o.Title), Style: string(css), Script: string(dom) + "const PALACE = " + string(js) + ";\n" + string(code)}
	if o.Nonce != "" {
		p.Nonce = ` nonce="` + o.Nonce + `"`
		p.StyleSrc, p.ScriptSrc = "'nonce-"+o.Nonce+"'", "'nonce-"+o.Nonce+"'"
	} else {
		p.StyleSrc, p.ScriptSrc = hash(p.Style), hash(p.Script)
	}
	var b bytes.Buffer
	if err := page.Execute(&b, p); err != nil {
		return "", fmt.Errorf("picture: %w", err)
	}
	return b.String(), nil
}

// hash is the policy source allowing exactly this inline text.
func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}
