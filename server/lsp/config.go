package lsp

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/palace-dev/palace/core/ops"
)

// InitOptions are the initializationOptions the server accepts. Every field
// is optional.
type InitOptions struct {
	// Home is the palace directory; --home on the command line wins.
	Home string `json:"home"`
	// Wing is the wing of every folder that Wings does not name (handy with
	// a single folder). Default: palace.yaml's wing, else the folder's name.
	Wing string `json:"wing"`
	// Wings maps a folder (its URI, its path or its name) to its wing.
	Wings map[string]string `json:"wings"`
	// MineOnStartup mines each workspace folder after initialized
	// (default true).
	MineOnStartup *bool `json:"mineOnStartup"`
	// MineOnSave re-mines a saved file (default true).
	MineOnSave *bool `json:"mineOnSave"`
	// Vectors embeds new drawers in the background after mining when an
	// embedding model is configured (default true, as `palace mine`).
	Vectors *bool `json:"vectors"`
	// Hover turns on textDocument/hover: how many memories mention the
	// symbol, with the top snippet (default false).
	Hover bool `json:"hover"`
	// RelevantMode is palace/relevant's default search mode: "" (hybrid
	// when the palace has vectors), lexical, vector or hybrid.
	RelevantMode string `json:"relevantMode"`
}

// config is InitOptions with defaults applied.
type config struct {
	home          string
	wing          string
	wings         map[string]string
	mineOnStartup bool
	mineOnSave    bool
	vectors       bool
	hover         bool
	relevantMode  string
}

// parseInitOptions reads initializationOptions. Unknown keys are returned
// so the server can log them: a misspelt option should not pass silently,
// but it must not stop the editor either.
func parseInitOptions(raw json.RawMessage) (config, []string, error) {
	cfg := config{mineOnStartup: true, mineOnSave: true, vectors: true}
	if len(raw) == 0 || string(raw) == "null" {
		return cfg, nil, nil
	}
	var o InitOptions
	if err := decode(raw, &o); err != nil {
		return cfg, nil, invalidParams("initializationOptions: %v", err)
	}
	var known map[string]json.RawMessage
	_ = json.Unmarshal(raw, &known)
	var unknown []string
	for k := range known {
		switch k {
		case "home", "wing", "wings", "mineOnStartup", "mineOnSave", "vectors", "hover", "relevantMode":
		default:
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	if o.RelevantMode != "" && !slices.Contains(ops.SearchModes, o.RelevantMode) {
		return cfg, unknown, invalidParams("initializationOptions.relevantMode: %q: want lexical, vector or hybrid", o.RelevantMode)
	}
	cfg.home, cfg.wing, cfg.wings, cfg.hover, cfg.relevantMode = o.Home, strings.TrimSpace(o.Wing), o.Wings, o.Hover, o.RelevantMode
	if o.MineOnStartup != nil {
		cfg.mineOnStartup = *o.MineOnStartup
	}
	if o.MineOnSave != nil {
		cfg.mineOnSave = *o.MineOnSave
	}
	if o.Vectors != nil {
		cfg.vectors = *o.Vectors
	}
	return cfg, unknown, nil
}

// wingFor is the wing the options give a folder, or "".
func (c config) wingFor(u, path, name string) string {
	for _, k := range []string{u, path, name, filepath.Base(path)} {
		if w := strings.TrimSpace(c.wings[k]); w != "" {
			return w
		}
	}
	return c.wing
}
