package transfer

import (
	"encoding/json"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/kg"
)

// checkEntityGraph checks an entity's type (one kg.ParseType reads as
// itself) and its aliases (properties.aliases: a JSON object from each
// alias's normalized name to the alias as written), so an import cannot
// leave an entity that query and traverse fail to read.
func checkEntityGraph(f cols) error {
	typ, err := f.text("type")
	if err != nil {
		return err
	}
	if t, err := kg.ParseType(typ); err != nil || t != typ {
		return input.Invalid("type", "%s is not a type as Palace writes one", input.Quote(typ))
	}
	props, _ := f.text("properties") // checked by the caller
	var p struct {
		Aliases json.RawMessage `json:"aliases"`
	}
	if json.Unmarshal([]byte(props), &p) != nil || p.Aliases == nil {
		return nil
	}
	var aliases map[string]string
	if err := json.Unmarshal(p.Aliases, &aliases); err != nil || aliases == nil {
		return input.Invalid("properties", "aliases %s is not a JSON object of names", input.Quote(string(p.Aliases)))
	}
	for id, name := range aliases {
		if err := kg.CheckName("properties", name); err != nil {
			return err
		}
		if id != kg.NormalizeName(name) {
			return input.Invalid("properties", "alias %s is not the normalized name %s", input.Quote(id), input.Quote(kg.NormalizeName(name)))
		}
	}
	return nil
}
