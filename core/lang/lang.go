// Package lang is Palace's one registry of file types: which file is which
// language, whether it is source code, which tree-sitter grammar core/code
// parses it with, and how a Markdown fence names it. Every place that asks
// what a file is asks this table (search's hit languages and file classes,
// the map's languages, core/code's parsing, the LSP hover's fences, the
// relevant panel's Markdown rule); lang_test.go fails when a table of
// extensions appears anywhere else in the module.
//
// The table is in the style of ripgrep's default_types.rs: one row per
// file type, sorted by name. A row names its extensions and file names; a
// file is looked up by its exact name first, then its extension, then the
// name patterns (Makefile.in). Standard library only.
package lang

import (
	"path"
	"path/filepath"
	"strings"
)

// Kind says what a file of a type holds.
type Kind int

const (
	// Unknown is the kind of a file no row names.
	Unknown Kind = iota
	// Code is source code in a programming language (what `palace bench
	// code` counts as source).
	Code
	// Data is data, configuration, markup and style: not code, not prose,
	// but a language's extension all the same (a history.json is no
	// changelog).
	Data
	// Prose is a document written for people (README.md, notes.txt).
	Prose
	// Build is a build file: Makefiles, CMake, Autoconf, Meson, Bazel.
	Build
)

// Type is one row of the table.
type Type struct {
	// Name is the type's name, unique in the table.
	Name string
	// Lang is the language a type belongs to, when not its own Name (a
	// .tsx file is TypeScript, parsed by the tsx grammar): the name search
	// hits and the map give (see Language).
	Lang string
	Kind Kind
	// Exts are the type's extensions, lower case, with the dot.
	Exts []string
	// Names are the type's file names, lower case: exact names, or
	// path.Match patterns ("makefile.*"), tried after extensions.
	Names []string
	// Grammar is the tree-sitter grammar core/code parses the type with,
	// "" when it is not parsed (the line chunker cuts it).
	Grammar string
	// Fence is the type's Markdown fence language, for an editor's
	// highlighting.
	Fence string
}

// Language is the language of files of type t: Lang, or else Name.
func (t Type) Language() string {
	if t.Lang != "" {
		return t.Lang
	}
	return t.Name
}

// types is the table, sorted by Name (lang_test.go checks it, and that no
// extension or file name is in two rows).
var types = []Type{
	{Name: "asciidoc", Kind: Prose, Exts: []string{".adoc"}, Fence: "asciidoc"},
	{Name: "autoconf", Kind: Build, Names: []string{"configure.ac", "configure.in"}, Fence: "text"},
	{Name: "automake", Kind: Build, Exts: []string{".am"}, Fence: "makefile"},
	{Name: "bazel", Kind: Build, Exts: []string{".bzl"}, Names: []string{"build.bazel", "workspace", "workspace.bazel"}, Fence: "python"},
	{Name: "c", Kind: Code, Exts: []string{".c", ".h"}, Grammar: "c", Fence: "c"},
	{Name: "clojure", Kind: Code, Exts: []string{".clj", ".cljs"}, Fence: "clojure"},
	{Name: "cmake", Kind: Build, Exts: []string{".cmake"}, Names: []string{"cmakelists.txt"}, Fence: "cmake"},
	{Name: "cpp", Kind: Code, Exts: []string{".c++", ".cc", ".cpp", ".cxx", ".h++", ".hh", ".hpp", ".hxx"}, Grammar: "cpp", Fence: "cpp"},
	{Name: "csharp", Kind: Code, Exts: []string{".cs"}, Fence: "csharp"},
	{Name: "css", Kind: Data, Exts: []string{".css"}, Fence: "css"},
	{Name: "dart", Kind: Code, Exts: []string{".dart"}, Fence: "dart"},
	{Name: "elisp", Kind: Code, Exts: []string{".el"}, Fence: "elisp"},
	{Name: "elixir", Kind: Code, Exts: []string{".ex", ".exs"}, Fence: "elixir"},
	{Name: "elm", Kind: Code, Exts: []string{".elm"}, Fence: "elm"},
	{Name: "erlang", Kind: Code, Exts: []string{".erl", ".hrl"}, Fence: "erlang"},
	{Name: "fsharp", Kind: Code, Exts: []string{".fs"}, Fence: "fsharp"},
	{Name: "go", Kind: Code, Exts: []string{".go"}, Grammar: "go", Fence: "go"},
	{Name: "groovy", Kind: Code, Exts: []string{".groovy"}, Fence: "groovy"},
	{Name: "gyp", Kind: Build, Exts: []string{".gyp", ".gypi"}, Fence: "python"},
	{Name: "haskell", Kind: Code, Exts: []string{".hs"}, Fence: "haskell"},
	{Name: "html", Kind: Data, Exts: []string{".htm", ".html"}, Fence: "html"},
	{Name: "java", Kind: Code, Exts: []string{".java"}, Grammar: "java", Fence: "java"},
	{Name: "javascript", Kind: Code, Exts: []string{".cjs", ".js", ".mjs"}, Grammar: "javascript", Fence: "javascript"},
	{Name: "json", Kind: Data, Exts: []string{".json"}, Fence: "json"},
	{Name: "jsx", Lang: "javascript", Kind: Code, Exts: []string{".jsx"}, Grammar: "javascript", Fence: "jsx"},
	{Name: "julia", Kind: Code, Exts: []string{".jl"}, Fence: "julia"},
	{Name: "kconfig", Kind: Build, Names: []string{"kbuild", "kconfig"}, Fence: "text"},
	{Name: "kotlin", Kind: Code, Exts: []string{".kt", ".kts"}, Fence: "kotlin"},
	{Name: "lua", Kind: Code, Exts: []string{".lua"}, Fence: "lua"},
	{Name: "m4", Kind: Build, Exts: []string{".m4"}, Fence: "text"},
	{Name: "make", Kind: Build, Exts: []string{".mak", ".mk"}, Names: []string{"gnumakefile", "makefile", "makefile.*"}, Fence: "makefile"},
	{Name: "markdown", Kind: Prose, Exts: []string{".markdown", ".md", ".mdx", ".mkd"}, Fence: "markdown"},
	{Name: "meson", Kind: Build, Names: []string{"meson.build", "meson.options", "meson_options.txt"}, Fence: "meson"},
	{Name: "nim", Kind: Code, Exts: []string{".nim"}, Fence: "nim"},
	{Name: "ninja", Kind: Build, Exts: []string{".ninja"}, Fence: "text"},
	{Name: "objective-c", Kind: Code, Exts: []string{".m", ".mm"}, Fence: "objectivec"},
	{Name: "ocaml", Kind: Code, Exts: []string{".ml", ".mli"}, Fence: "ocaml"},
	{Name: "org", Kind: Prose, Exts: []string{".org"}, Fence: "org"},
	{Name: "perl", Kind: Code, Exts: []string{".pl", ".pm"}, Fence: "perl"},
	{Name: "php", Kind: Code, Exts: []string{".php"}, Fence: "php"},
	{Name: "protobuf", Kind: Code, Exts: []string{".proto"}, Fence: "protobuf"},
	{Name: "python", Kind: Code, Exts: []string{".py", ".pyi"}, Grammar: "python", Fence: "python"},
	{Name: "r", Kind: Code, Exts: []string{".r"}, Fence: "r"},
	{Name: "rst", Kind: Prose, Exts: []string{".rst"}, Fence: "rst"},
	{Name: "ruby", Kind: Code, Exts: []string{".gemspec", ".rake", ".rb"}, Grammar: "ruby", Fence: "ruby"},
	{Name: "rust", Kind: Code, Exts: []string{".rs"}, Grammar: "rust", Fence: "rust"},
	{Name: "scala", Kind: Code, Exts: []string{".scala"}, Fence: "scala"},
	{Name: "scons", Kind: Build, Names: []string{"sconscript", "sconstruct"}, Fence: "python"},
	{Name: "shell", Kind: Code, Exts: []string{".bash", ".sh", ".zsh"}, Fence: "sh"},
	{Name: "sql", Kind: Code, Exts: []string{".sql"}, Fence: "sql"},
	{Name: "svelte", Kind: Code, Exts: []string{".svelte"}, Fence: "svelte"},
	{Name: "swift", Kind: Code, Exts: []string{".swift"}, Fence: "swift"},
	{Name: "text", Kind: Prose, Exts: []string{".txt"}, Fence: "text"},
	{Name: "toml", Kind: Data, Exts: []string{".toml"}, Fence: "toml"},
	{Name: "tsx", Lang: "typescript", Kind: Code, Exts: []string{".tsx"}, Grammar: "tsx", Fence: "tsx"},
	{Name: "typescript", Kind: Code, Exts: []string{".cts", ".mts", ".ts"}, Grammar: "typescript", Fence: "typescript"},
	{Name: "vue", Kind: Code, Exts: []string{".vue"}, Fence: "vue"},
	{Name: "win32-build", Kind: Build, Names: []string{"config.w32"}, Fence: "javascript"},
	{Name: "yaml", Kind: Data, Exts: []string{".yaml", ".yml"}, Fence: "yaml"},
	{Name: "zig", Kind: Code, Exts: []string{".zig"}, Fence: "zig"},
}

// The lookups, built from types.
var (
	byExt      = map[string]int{}
	byName     = map[string]int{}
	byPattern  []int // rows with a name pattern, in table order
	patternsOf = map[int][]string{}
)

func init() {
	for i, t := range types {
		for _, e := range t.Exts {
			byExt[e] = i
		}
		for _, n := range t.Names {
			if strings.ContainsAny(n, "*?[") {
				if len(patternsOf[i]) == 0 {
					byPattern = append(byPattern, i)
				}
				patternsOf[i] = append(patternsOf[i], n)
				continue
			}
			byName[n] = i
		}
	}
}

// Types is a copy of the table, sorted by name.
func Types() []Type {
	out := make([]Type, len(types))
	copy(out, types)
	return out
}

// ByExt is the type of extension ext (".go", any case), the zero Type when
// no row has it.
func ByExt(ext string) Type {
	if i, ok := byExt[strings.ToLower(ext)]; ok {
		return types[i]
	}
	return Type{}
}

// ByName is the type a file's base name says by itself, exactly
// (CMakeLists.txt, any case) or by a pattern (Makefile.in), the zero Type
// when no row names it.
func ByName(base string) Type {
	n := strings.ToLower(base)
	if i, ok := byName[n]; ok {
		return types[i]
	}
	for _, i := range byPattern {
		for _, p := range patternsOf[i] {
			if ok, _ := path.Match(p, n); ok {
				return types[i]
			}
		}
	}
	return Type{}
}

// ByPath is the type of the file at p: its exact name's, else its
// extension's, else its name pattern's (Makefile.PL is Perl, Makefile.in a
// Makefile); the zero Type when none says.
func ByPath(p string) Type {
	base := strings.ToLower(filepath.Base(p))
	if i, ok := byName[base]; ok {
		return types[i]
	}
	if t := ByExt(filepath.Ext(base)); t.Name != "" {
		return t
	}
	return ByName(base)
}

// Of is the language of the file at p ("go", "typescript" for a .tsx,
// "shell"), "" when the table does not know it. Build files (a Makefile,
// CMakeLists.txt) are a type, for search's file classes and fences, but
// name no language: a hit from one has none.
func Of(p string) string {
	if t := ByPath(p); t.Kind != Build {
		return t.Language()
	}
	return ""
}

// IsCodeExt reports whether ext (".go", any case) is a source code
// extension.
func IsCodeExt(ext string) bool { return ByExt(ext).Kind == Code }

// Fence is the Markdown fence language of the file at p, "text" when the
// table does not know it.
func Fence(p string) string {
	if f := ByPath(p).Fence; f != "" {
		return f
	}
	return "text"
}
