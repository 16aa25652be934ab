package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ResolveHome is the palace home every front opens: explicit (a --home flag,
// an editor's setting) when set, else DefaultHome. A leading "~/" is the
// user's home folder in both, because editor settings and environment
// variables set by a program reach Palace without a shell to expand it.
func ResolveHome(explicit string) (string, error) {
	home := explicit
	if home == "" {
		var err error
		if home, err = DefaultHome(); err != nil {
			return "", err
		}
	}
	if home != "~" && !strings.HasPrefix(home, "~"+string(filepath.Separator)) {
		return home, nil
	}
	u, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("palace home %s: %w", home, err)
	}
	return filepath.Join(u, home[1:]), nil
}
