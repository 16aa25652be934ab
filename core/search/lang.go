package search

import (
	"encoding/json"

	"github.com/palace-dev/palace/core/lang"
	"github.com/palace-dev/palace/core/store"
)

// IsCodeExt reports whether ext (".go", any case) is a source code
// extension: lang.IsCodeExt, for the callers of search's file rules.
func IsCodeExt(ext string) bool { return lang.IsCodeExt(ext) }

// Lang is the language of a drawer of kind mined from source: for a file
// drawer, the one core/lang's table gives its path (any case), else "".
// Conversations and notes have no language of code. A hit's lang is a hint
// for the reader: a file the table does not know is "" rather than a
// guess.
func Lang(kind, source string) string {
	if kind != store.KindFile {
		return ""
	}
	return lang.Of(source)
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
