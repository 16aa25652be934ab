package ops

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/memory"
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
	Budget      int    // 0: DefaultWakeBudget; at most MaxWakeBudget
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
	return memory.WakeUp(ctx, p, req)
}

// hasIdentity reports whether the user wrote an identity file for wing:
// a wing set up before anything was mined into it.
func hasIdentity(p *palace.Palace, wing string) bool {
	fi, err := os.Stat(filepath.Join(p.Store.Home(), memory.IdentityDir, wing+".md"))
	return err == nil && fi.Mode().IsRegular()
}
