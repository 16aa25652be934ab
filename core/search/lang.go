package search

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/palace-dev/palace/core/store"
)

// langs names a file's language by its extension, in the words an agent
// filters and reads by. A small table: a hit's lang is a hint for the
// reader, and an extension not listed is "" rather than a guess.
var langs = map[string]string{
	".go":       "go",
	".py":       "python",
	".pyi":      "python",
	".ts":       "typescript",
	".tsx":      "typescript",
	".mts":      "typescript",
	".cts":      "typescript",
	".js":       "javascript",
	".jsx":      "javascript",
	".mjs":      "javascript",
	".cjs":      "javascript",
	".rs":       "rust",
	".java":     "java",
	".kt":       "kotlin",
	".kts":      "kotlin",
	".c":        "c",
	".h":        "c",
	".cc":       "cpp",
	".cpp":      "cpp",
	".cxx":      "cpp",
	".hpp":      "cpp",
	".hh":       "cpp",
	".hxx":      "cpp",
	".c++":      "cpp",
	".h++":      "cpp",
	".rake":     "ruby",
	".gemspec":  "ruby",
	".cs":       "csharp",
	".rb":       "ruby",
	".php":      "php",
	".swift":    "swift",
	".scala":    "scala",
	".sh":       "shell",
	".bash":     "shell",
	".zsh":      "shell",
	".sql":      "sql",
	".md":       "markdown",
	".markdown": "markdown",
	".rst":      "rst",
	".html":     "html",
	".htm":      "html",
	".css":      "css",
	".json":     "json",
	".yaml":     "yaml",
	".yml":      "yaml",
	".toml":     "toml",
	".proto":    "protobuf",
}

// codeExts are the extensions of source code in any language, a wider set
// than langs names: what `palace bench code` counts as source, and what
// keeps a file named like a changelog or a document (history.lua,
// install.pl) from being taken for one.
var codeExts = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields(`go py pyi js jsx mjs cjs ts tsx mts cts vue svelte java kt kts scala groovy
		rb rs c h cc cpp cxx hpp hh hxx cs fs php swift m mm dart ex exs erl hrl hs ml mli clj cljs lua pl pm
		r jl sh bash zsh zig nim elm proto sql`) {
		m["."+e] = true
	}
	return m
}()

// IsCodeExt reports whether ext (".go", any case) is a source code
// extension.
func IsCodeExt(ext string) bool { return codeExts[strings.ToLower(ext)] }

// Lang is the language of a drawer of kind mined from source: for a file
// drawer, the one its extension names (any case), else "". Conversations
// and notes have no language of code.
func Lang(kind, source string) string {
	if kind != store.KindFile {
		return ""
	}
	return langs[strings.ToLower(filepath.Ext(source))]
}

// hitLang is the language of a drawer: its extension's, except for a C
// file mining parsed as C++ (code.LanguageOf: a .h holding C++), whose
// metadata says so.
func hitLang(kind, source, metadata string) string {
	l := Lang(kind, source)
	if l == "c" {
		var m struct {
			Lang string `json:"lang"`
		}
		if json.Unmarshal([]byte(metadata), &m) == nil && m.Lang == "cpp" {
			return "cpp"
		}
	}
	return l
}
