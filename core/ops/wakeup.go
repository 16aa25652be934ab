package ops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/memory"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace"
)

// WakeFormats are the renderings a wake-up may ask for; "" is text.
var WakeFormats = []string{memory.FormatText, memory.FormatAAAK, memory.FormatJSON}

// Wake-up budget, in tokens as aaak.CountTokens counts them.
const (
	DefaultWakeBudget = memory.DefaultBudget
	MaxWakeBudget     = memory.MaxBudget
)

// WakeUpRequest asks for the context that opens a session.
type WakeUpRequest struct {
	// Wing is the wing the caller named: it must be one the palace holds
	// (or one with an identity file), so a typo is an error rather than a
	// wake-up with no story. "" is DefaultWing.
	Wing string
	// DefaultWing is the wing of the caller's session (the MCP client's
	// roots, the LSP's only folder), used when Wing is "". It is not
	// checked: a project not mined yet still wakes up, with the identity
	// files. "" with Wing "" is the whole palace.
	DefaultWing string
	Format      string // one of WakeFormats, or "" for text
	// Budget is the most tokens the text may take, at most MaxWakeBudget;
	// 0 is the project's (Dir), else DefaultWakeBudget.
	Budget int
	// Dir is the folder the caller works in (the hook's session folder,
	// the CLI's working directory, an MCP root, the LSP folder), or "".
	// The nearest palace.yaml at or above it sets the budget when Budget
	// is 0 (wake_up.budget), if it is the wake-up's wing's: a project
	// decides how much its sessions start with, whichever front starts
	// them.
	Dir string
}

func (r WakeUpRequest) core() memory.WakeRequest {
	w := r.Wing
	if strings.TrimSpace(w) == "" {
		w = r.DefaultWing
	}
	return memory.WakeRequest{Wing: w, Format: r.Format, Budget: r.Budget}
}

// Validate names the first bad field.
func (r WakeUpRequest) Validate() error { return r.core().Validate() }

// WakeUp builds the opening context (see memory.WakeUp).
func WakeUp(ctx context.Context, p *palace.Palace, r WakeUpRequest) (memory.WakeResult, error) {
	req := r.core()
	if err := req.Validate(); err != nil {
		return memory.WakeResult{}, err
	}
	if wing := strings.TrimSpace(r.Wing); wing != "" {
		if err := checkWing(ctx, p, "wing", wing); err != nil && !(errors.Is(err, input.ErrInvalid) && hasIdentity(p, wing)) {
			return memory.WakeResult{}, err
		}
	}
	if req.Budget == 0 && r.Dir != "" {
		b, err := ProjectWakeBudget(r.Dir, strings.Trim(req.Wing, " "))
		if err != nil {
			return memory.WakeResult{}, err
		}
		req.Budget = b
	}
	return memory.WakeUp(ctx, p, req)
}

// ProjectWakeBudget is the wake-up budget the project around dir sets for
// wing: wake_up.budget of the palace.yaml that decides dir's wing
// (ResolveWing), when that wing is wing; 0 when no palace.yaml decides it,
// it is another wing's, it sets no budget, or dir is a folder no project
// is (a home folder, /). A palace.yaml that cannot be read, or a budget
// above MaxWakeBudget, is an error naming the file: a session would
// otherwise start with a budget nobody chose.
func ProjectWakeBudget(dir, wing string) (int, error) {
	if wing == "" || BroadFolder(dir) != "" {
		return 0, nil
	}
	r, err := ResolveWing(dir)
	if err != nil {
		return 0, fmt.Errorf("wake-up budget: %w", err)
	}
	if r.From != WingFromConfig || r.Wing != wing {
		return 0, nil
	}
	cfg, err := mine.LoadConfig(r.Project)
	if err != nil || cfg == nil || cfg.WakeUp == nil {
		return 0, err
	}
	if b := cfg.WakeUp.Budget; b > MaxWakeBudget {
		return 0, fmt.Errorf("wake-up budget: %s: wake_up.budget %d: want 1 to %d tokens", filepath.Join(r.Project, mine.ConfigName), b, MaxWakeBudget)
	}
	return cfg.WakeUp.Budget, nil
}

// hasIdentity reports whether the user wrote an identity file for wing:
// a wing set up before anything was mined into it.
func hasIdentity(p *palace.Palace, wing string) bool {
	fi, err := os.Stat(filepath.Join(p.Store.Home(), memory.IdentityDir, wing+".md"))
	return err == nil && fi.Mode().IsRegular()
}
