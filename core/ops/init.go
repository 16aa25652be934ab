package ops

import (
	"context"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/mine"
)

// InitRequest asks for a project's palace.yaml: the wing named after Dir
// and one room per top-level folder (keyed by the folder's name unless it
// is a generic programming word, which would route nearly every query).
type InitRequest struct {
	Dir string
	// Force replaces an existing palace.yaml (never through a link).
	Force bool
	// DryRun proposes without writing.
	DryRun bool
}

// InitResult is the proposal, and the file written unless DryRun.
type InitResult struct {
	// Path is the palace.yaml written ("" on a dry run).
	Path  string `json:"path,omitempty"`
	Wing  string `json:"wing"`
	Rooms int    `json:"rooms"`
	// YAML is the proposal as palace.yaml holds it (without the file's
	// header comment).
	YAML string `json:"yaml"`
}

// Validate refuses a blank folder: an unset variable in a script would
// otherwise mean the working directory.
func (r InitRequest) Validate() error {
	if strings.TrimSpace(r.Dir) == "" {
		return input.Invalid("path", "is empty")
	}
	return nil
}

// Init proposes a palace.yaml for r.Dir and, unless r.DryRun, writes it,
// refusing to replace one unless r.Force. It needs no palace: the file
// lives in the project, and every mine of the folder reads it.
func Init(_ context.Context, r InitRequest) (InitResult, error) {
	if err := r.Validate(); err != nil {
		return InitResult{}, err
	}
	cfg, err := mine.ProposeConfig(r.Dir)
	if err != nil {
		return InitResult{}, err
	}
	b, err := yaml.Marshal(cfg)
	if err != nil {
		return InitResult{}, err
	}
	res := InitResult{Wing: cfg.Wing, Rooms: len(cfg.Rooms), YAML: string(b)}
	if r.DryRun {
		return res, nil
	}
	res.Path, err = mine.WriteConfig(r.Dir, cfg, r.Force)
	return res, err
}
