package search

import (
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

// Lang is the language of a drawer of kind mined from source: for a file
// drawer, the one its extension names (any case), else "". Conversations
// and notes have no language of code.
func Lang(kind, source string) string {
	if kind != store.KindFile {
		return ""
	}
	return langs[strings.ToLower(filepath.Ext(source))]
}
