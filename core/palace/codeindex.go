package palace

import (
	"encoding/json"

	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/store"
)

// CodeIndex derives a drawer's code index columns (store.CodeIndex) the
// same way wherever a drawer is written: mining passes the names the
// drawer defines, an import reads them from the drawer's metadata
// (DefinedNames). Only file drawers have one: a conversation's source is
// a transcript, whose name says nothing about its content.
func CodeIndex(kind, source, content string, defines []string) store.CodeIndex {
	if kind != store.KindFile || content == "" {
		return store.CodeIndex{}
	}
	return store.CodeIndex{
		Symbols: query.SymbolWords(defines),
		Path:    query.PathWords(source),
		Parts:   query.IdentParts(content),
	}
}

// DefinedNames reads the names a file drawer defines from its metadata,
// as mining records them (`"defines": [{"name": …, "kind": …}]`); none
// when the metadata has no such list or is not JSON.
func DefinedNames(metadata string) []string {
	var m struct {
		Defines []struct {
			Name string `json:"name"`
		} `json:"defines"`
	}
	if json.Unmarshal([]byte(metadata), &m) != nil {
		return nil
	}
	names := make([]string, 0, len(m.Defines))
	for _, d := range m.Defines {
		names = append(names, d.Name)
	}
	return names
}
