package store

import (
	"encoding/json"
	"fmt"
)

// Settings are the meta keys that change what a palace does with the data
// it holds, so an export carries them: a palace imported from another must
// refuse the contradictions the original refused, give a name the same
// AAAK code and know the same specialist agents. The other meta keys are
// local or derived and stay behind: the vector index's model and dimension
// (vectors are rebuilt), the audit sequence (each palace's own log), and
// the embedding model folder (a path on this machine).
const (
	// SettingKGFunctional is the knowledge graph's functional-predicate
	// list, a JSON array of predicate names; unset means core/kg's defaults.
	SettingKGFunctional = "kg.functional"
	// SettingAAAKEntities is the AAAK entity map, a JSON object from name
	// to 3-letter code.
	SettingAAAKEntities = "aaak.entities"
	// SettingAgents is the registry of specialist agents, a JSON array of
	// Agent sorted by agent id; unset or [] means none.
	SettingAgents = "agents"
)

// setting describes one key an export may carry.
type setting struct {
	key string
	// wholePalace: only a whole-palace export carries it, because it
	// holds names from every wing and a one-wing export must not.
	wholePalace bool
	// empty is the value that means "nothing set yet" ("" for none): an
	// import replaces it as if the key were unset.
	empty string
	// check refuses a value the palace could not read back.
	check func(string) error
}

var settings = []setting{
	{key: SettingKGFunctional, check: func(v string) error {
		var list []string
		return json.Unmarshal([]byte(v), &list)
	}},
	{key: SettingAAAKEntities, wholePalace: true, empty: "{}", check: func(v string) error {
		var m map[string]string
		return json.Unmarshal([]byte(v), &m)
	}},
	// Agents name the wings they work and write in, from every wing, so
	// only a whole-palace export carries them; one wing's export would
	// hand another palace agents whose wings it does not hold.
	{key: SettingAgents, wholePalace: true, empty: "[]", check: func(v string) error {
		_, err := DecodeAgents(v)
		return err
	}},
}

func settingOf(key string) (setting, bool) {
	for _, s := range settings {
		if s.key == key {
			return s, true
		}
	}
	return setting{}, false
}

// exportedSettings lists the keys an export of wing ("" for all) carries.
func exportedSettings(wing string) []any {
	var keys []any
	for _, s := range settings {
		if wing == "" || !s.wholePalace {
			keys = append(keys, s.key)
		}
	}
	return keys
}

// isEmpty reports whether a stored value means "nothing set yet".
func (s setting) isEmpty(stored any) bool { return s.empty != "" && stored == s.empty }

// checkSetting refuses a setting row this palace does not carry or could
// not read back.
func checkSetting(cols map[string]any) (setting, error) {
	key, _ := cols["key"].(string)
	s, ok := settingOf(key)
	if !ok {
		return s, fmt.Errorf("setting %q is not one a palace carries", key)
	}
	v, ok := cols["value"].(string)
	if !ok {
		return s, fmt.Errorf("setting %s without a text value", key)
	}
	if err := s.check(v); err != nil {
		return s, fmt.Errorf("setting %s: %w", key, err)
	}
	return s, nil
}
