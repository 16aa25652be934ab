package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// installRecord remembers a file as it was before Palace's hooks or MCP
// server went in, so uninstalling restores it byte for byte (its formatting, key
// order, an empty "hooks" object) instead of re-encoding what is left.
// It is used only while the file is exactly as Palace wrote it: once
// anyone else has changed it, uninstall removes Palace's entries and
// keeps everything else.
type installRecord struct {
	Path string `json:"path"`
	// Before is the file's content before the first install; Absent says
	// there was no file.
	Before []byte `json:"before"`
	Absent bool   `json:"absent,omitempty"`
	// After is the SHA-256 of the file as the last install wrote it.
	After string `json:"after"`
}

// recordPath is where the record of a settings file is kept: under the
// palace home, named by a hash of the file's path and of the installation
// that changed it (agent, scope, project): ~/.claude.json holds the user
// scope's server and every project's, each with its own record. An empty
// owner gives the name records had when one file had one installation.
func recordPath(stateDir, settings, owner string) string {
	key := settings
	if owner != "" {
		key += "\x00" + owner
	}
	h := sha256.Sum256([]byte(key))
	return filepath.Join(stateDir, "hooks", "installed", hex.EncodeToString(h[:8])+".json")
}

// owner names the installation a record belongs to.
func owner(o InstallOptions) string {
	if o.Scope == ScopeProject {
		return o.Agent + "\x00" + o.Scope + "\x00" + o.projectDir()
	}
	return o.Agent + "\x00" + ScopeUser
}

// findRecord returns the record of the file for o's installation and
// where it is kept, else a record under the older name, else nil and the
// place o's record goes.
func findRecord(o InstallOptions, settings string) (*installRecord, string) {
	path := recordPath(o.StateDir, settings, owner(o))
	if r := readRecord(path, settings); r != nil {
		return r, path
	}
	legacy := recordPath(o.StateDir, settings, "")
	if r := readRecord(legacy, settings); r != nil {
		return r, legacy
	}
	return nil, path
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// readRecord returns the record of a settings file, or nil when there is
// none or it is not one for that file.
func readRecord(path, settings string) *installRecord {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var r installRecord
	if json.Unmarshal(b, &r) != nil || r.Path != settings {
		return nil
	}
	return &r
}

// exact reports whether the file holds exactly what the record's install
// wrote.
func (r *installRecord) exact(current []byte, exists bool) bool {
	return r != nil && exists && r.After == digest(current)
}

// recordInstall computes the record to keep after installing: the file's
// content before any Palace entry, when it is known; found says the file
// had Palace's entries already.
func recordInstall(p *Plan, o InstallOptions, found bool) {
	if o.StateDir == "" {
		return
	}
	p.recordPath = recordPath(o.StateDir, p.Path, owner(o))
	prev, prevPath := findRecord(o, p.Path)
	if prevPath != p.recordPath {
		p.staleRecord = prevPath // written under the older name: replaced
	}
	var r installRecord
	switch {
	case p.Old == nil:
		r = installRecord{Path: p.Path, Absent: true}
	case !found:
		r = installRecord{Path: p.Path, Before: p.Old}
	case prev.exact(p.Old, true):
		r = *prev
	default:
		// Palace's hooks are in a file changed since: what it was
		// before them is not known, and uninstall falls back to removing
		// Palace's entries.
		p.dropRecord = true
		return
	}
	r.After = digest(p.New)
	p.record = &r
}

// restoreUninstall makes an uninstall plan restore the file recorded
// before install, when the file is still exactly what install wrote.
func restoreUninstall(p *Plan, o InstallOptions) {
	if o.StateDir == "" {
		return
	}
	r, path := findRecord(o, p.Path)
	p.recordPath = path
	if r == nil {
		return
	}
	p.dropRecord = true
	if !r.exact(p.Old, p.Old != nil) {
		return
	}
	p.New, p.remove, p.Changed = r.Before, r.Absent, true
}

// applyRecord keeps or drops the record once the settings file is written.
func (p Plan) applyRecord() error {
	switch {
	case p.record != nil:
		b, err := json.Marshal(p.record)
		if err != nil {
			return err
		}
		if err := writeAtomic(p.recordPath, append(b, '\n'), 0o600); err != nil {
			return err
		}
		if p.staleRecord != "" {
			if err := os.Remove(p.staleRecord); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", p.staleRecord, err)
			}
		}
	case p.dropRecord:
		if err := os.Remove(p.recordPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", p.recordPath, err)
		}
	}
	return nil
}
