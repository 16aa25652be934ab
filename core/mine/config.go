package mine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"

	"go.yaml.in/yaml/v3"

	"github.com/palace-dev/palace/core/route"
	"github.com/palace-dev/palace/core/store"
)

// ConfigName is the per-project file naming the wing and its rooms.
const ConfigName = "palace.yaml"

// Config is palace.yaml. When it lists rooms, they replace the wing's
// taxonomy at every mine: the file in the project wins over the table.
type Config struct {
	Wing  string       `yaml:"wing"`
	Rooms []store.Room `yaml:"rooms,omitempty"`
	// WakeUp are the project's wake-up settings (core/ops reads them).
	WakeUp *WakeUpConfig `yaml:"wake_up,omitempty"`
}

// WakeUpConfig is palace.yaml's wake_up section.
type WakeUpConfig struct {
	// Budget is the wake-up's token budget for the project's wing when the
	// caller gives none; 0 is the default budget.
	Budget int `yaml:"budget,omitempty"`
}

// goType is how yaml's errors name this package's types.
var goType = regexp.MustCompile(` in type mine\.\w+`)

// LoadConfig reads DIR/palace.yaml; a missing file gives a nil Config.
func LoadConfig(dir string) (*Config, error) {
	path := filepath.Join(dir, ConfigName)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		// yaml's errors span lines and name Go types; keep one readable line.
		msg := goType.ReplaceAllString(err.Error(), "")
		msg = strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", "; ")), " ")
		return nil, fmt.Errorf("parse %s: %s", path, strings.ReplaceAll(msg, "errors:;", "errors:"))
	}
	if c.WakeUp != nil && c.WakeUp.Budget < 0 {
		return nil, fmt.Errorf("parse %s: wake_up.budget %d: want a number of tokens above 0", path, c.WakeUp.Budget)
	}
	for i, r := range c.Rooms {
		if strings.TrimSpace(r.Room) == "" {
			return nil, fmt.Errorf("parse %s: room %d has no name", path, i+1)
		}
		for j, k := range r.Keywords {
			c.Rooms[i].Keywords[j] = strings.ToLower(strings.TrimSpace(k))
		}
	}
	return &c, nil
}

// WingOf is the wing a folder's own palace.yaml gives it (cfg may be
// nil): the wing it names, else the folder's name. Which palace.yaml
// applies to a folder, its own or one above it, is ops.ResolveWing's rule,
// the one every front uses; a mine with neither Wing nor DefaultWing
// falls back on this.
func WingOf(dir string, cfg *Config) string {
	if cfg != nil {
		if w := strings.TrimSpace(cfg.Wing); w != "" {
			return w
		}
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return Slug(filepath.Base(dir))
}

// WingOfDir is WingOf for dir with its own palace.yaml. A palace.yaml that
// cannot be read is an error, as it is for the mine. A front wants
// ops.ResolveWing, which also finds the project above dir.
func WingOfDir(dir string) (string, error) {
	cfg, err := LoadConfig(dir)
	if err != nil {
		return "", err
	}
	return WingOf(dir, cfg), nil
}

// ProposeConfig suggests a palace.yaml for dir: the directory's name as the
// wing and one room per top-level folder that is not ignored, keyed by the
// folder's name unless that is a generic programming word (route.Generic:
// src, internal, http, context, ...), which would route nearly every query
// and claim nearly every file; such a room still holds its folder's files,
// matched by path.
func ProposeConfig(dir string) (*Config, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("init %s: %w", dir, err)
	}
	w, err := walk(abs)
	if err != nil {
		return nil, fmt.Errorf("init %s: %w", dir, err)
	}
	seen := map[string]bool{}
	for _, c := range w.files {
		top, _, nested := strings.Cut(c.rel, "/")
		if !nested || strings.HasPrefix(top, ".") {
			continue
		}
		seen[Slug(top)] = true
	}
	c := &Config{Wing: Slug(filepath.Base(abs))}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		kw := []string{n}
		if route.Generic(n) {
			kw = []string{}
		}
		c.Rooms = append(c.Rooms, store.Room{Room: n, Keywords: kw})
	}
	return c, nil
}

// WriteConfig writes c to DIR/palace.yaml, refusing to replace an existing
// file unless force is set.
func WriteConfig(dir string, c *Config, force bool) (string, error) {
	path := filepath.Join(dir, ConfigName)
	b, err := yaml.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		// Never through a symbolic link: a repository could point its
		// palace.yaml at any file of the user's.
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC | syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flag, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return "", fmt.Errorf("write %s: it is a symbolic link; Palace does not write through links (remove it)", path)
	}
	if errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("%s already exists (use --force to replace it)", path)
	}
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.Write(append([]byte("# Palace project settings: the wing this folder mines into and its rooms.\n"), b...)); err != nil {
		f.Close()
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return path, f.Close()
}

var nonSlug = regexp.MustCompile(`[^\p{L}\p{N}_.-]+`)

// Slug lower-cases a name and turns runs of characters other than letters,
// digits, '_', '.' and '-' into '-', for wing and room names derived from
// paths (any script: café and 项目 stay themselves).
func Slug(s string) string {
	s = strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-.")
	if s == "" {
		return "general"
	}
	return s
}
