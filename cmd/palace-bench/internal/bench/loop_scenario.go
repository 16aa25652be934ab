package bench

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// loopFixtures are the scenarios `palace bench loop` runs unless told
// otherwise: testdata/loop/*.yaml.
//
//go:embed testdata/loop/*.yaml
var loopFixtures embed.FS

// LoopScenario is one scripted story of sessions: agents working in
// projects, saving through MCP, their transcripts mined by the hooks, and
// at the end what the next session must be told and what a search must
// answer first.
type LoopScenario struct {
	Name string `yaml:"name"`
	// About says what the scenario checks, for a person reading a miss.
	About string `yaml:"about"`
	// Shapes tag what it exercises: decision, correction, preference,
	// fact, diary, compaction, agents, projects.
	Shapes []string `yaml:"shapes"`
	// Projects are folders side by side, by name (the folder's name).
	Projects map[string]LoopProject `yaml:"projects"`
	// Items are what the expectations name: each a phrase, or several
	// that must all be on one line of the text.
	Items    map[string]LoopItem `yaml:"items"`
	Sessions []LoopSession       `yaml:"sessions"`
	Expect   []LoopExpect        `yaml:"expect"`
}

// LoopProject is a project folder. Without Wing it has no palace.yaml
// (the wing is the folder's name, as for a new user) and a .git folder,
// so the Stop hook finds it as a project.
type LoopProject struct {
	Wing  string            `yaml:"wing"`
	Files map[string]string `yaml:"files"`
}

// LoopItem is a list of phrases that must all appear on one line (of the
// SessionStart text) or in one drawer (a search hit); in YAML a single
// phrase may be written as a string.
type LoopItem []string

// UnmarshalYAML takes a string or a list of strings.
func (it *LoopItem) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*it = LoopItem{n.Value}
		return nil
	}
	var l []string
	if err := n.Decode(&l); err != nil {
		return err
	}
	*it = l
	return nil
}

// LoopSession is one session of one agent in one project.
type LoopSession struct {
	// Agent is claude-code (the default) or codex: whose transcript
	// format, hooks and MCP client name the session uses.
	Agent   string `yaml:"agent"`
	Project string `yaml:"project"`
	// Dir is the folder inside the project the agent was started in
	// (its working folder and MCP root); "" is the project's own.
	Dir   string     `yaml:"dir"`
	Turns []LoopTurn `yaml:"turns"`
}

// LoopTurn is one exchange: the person's message, the tools the agent
// ran (written to the transcript as tool calls and their results), its
// reply, the saves it made through MCP, and a compaction after it.
type LoopTurn struct {
	User  string     `yaml:"user"`
	Tools []LoopTool `yaml:"tools"`
	Reply string     `yaml:"reply"`
	Saves []LoopSave `yaml:"saves"`
	// Compact is "auto" or "manual": a PreCompact after the turn, then
	// the SessionStart Claude Code sends once the context is compacted.
	Compact string `yaml:"compact"`
}

// LoopTool is one tool call of the agent: its name and input, and its
// output, given as text or as a project file's content.
type LoopTool struct {
	Name   string         `yaml:"name"`
	Input  map[string]any `yaml:"input"`
	Result string         `yaml:"result"`
	File   string         `yaml:"file"`
}

// LoopSave is one MCP call that saves: exactly one of its fields, whose
// arguments are passed as written (action write for the diary, add for
// facts is added). "$WING" in a string argument is the project's wing,
// for the saves that name it as an agent told to would.
type LoopSave struct {
	Remember map[string]any `yaml:"remember"`
	Diary    map[string]any `yaml:"diary"`
	KG       map[string]any `yaml:"kg"`
}

// LoopExpect is what the next session in Project must see.
type LoopExpect struct {
	Project string `yaml:"project"`
	// Agent starts that session (default claude-code).
	Agent string `yaml:"agent"`
	// Dir is the folder inside the project it starts in.
	Dir string `yaml:"dir"`
	// Source "compact" checks the SessionStart after the last session's
	// compaction (same session, source compact) instead of a new one.
	Source string `yaml:"source"`
	// Start are the items its SessionStart text must show.
	Start []string `yaml:"start"`
	// Order are pairs [newer, older]: the newer must come first, or the
	// older be left out.
	Order [][]string `yaml:"order"`
	// Absent are items it must not show (another project's).
	Absent []string `yaml:"absent"`
	// Search are queries whose first hit must hold an item.
	Search []LoopSearch `yaml:"search"`
}

// LoopSearch is a palace_search call and the item its first hit holds.
type LoopSearch struct {
	Query string `yaml:"query"`
	First string `yaml:"first"`
}

// Agents the scenarios may name, and their events.
const (
	loopClaude      = "claude-code"
	loopCodex       = "codex"
	loopWingVar     = "$WING"
	loopSourceStart = "startup"
	loopSourceComp  = "compact"
)

var loopNamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// LoadLoopScenarios reads the scenarios of dir (every *.yaml file in it),
// or the built-in ones when dir is "", sorted by name; only keeps those
// named (all when only is empty), and refuses a name it does not know.
func LoadLoopScenarios(dir string, only []string) ([]LoopScenario, error) {
	fsys, where := fs.FS(loopFixtures), "testdata/loop"
	if dir != "" {
		fi, err := os.Stat(dir)
		if err != nil {
			return nil, fmt.Errorf("--scenarios: %w", err)
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("--scenarios %s: not a folder", dir)
		}
		fsys, where = os.DirFS(dir), "."
	}
	names, err := fs.Glob(fsys, path.Join(where, "*.yaml"))
	if err != nil {
		return nil, fmt.Errorf("list the scenarios: %w", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("--scenarios %s: no *.yaml scenario in it", dir)
	}
	var out []LoopScenario
	seen := map[string]string{}
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("read scenario %s: %w", n, err)
		}
		s, err := ParseLoopScenario(b)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", path.Base(n), err)
		}
		if other, dup := seen[s.Name]; dup {
			return nil, fmt.Errorf("scenario %s: name %q is also %s's", path.Base(n), s.Name, other)
		}
		seen[s.Name] = path.Base(n)
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	if len(only) == 0 {
		return out, nil
	}
	var kept []LoopScenario
	for _, name := range only {
		i := slices.IndexFunc(out, func(s LoopScenario) bool { return s.Name == name })
		if i < 0 {
			known := make([]string, len(out))
			for j, s := range out {
				known[j] = s.Name
			}
			return nil, fmt.Errorf("--only %q: no such scenario (there are %s)", name, strings.Join(known, ", "))
		}
		kept = append(kept, out[i])
	}
	return kept, nil
}

// ParseLoopScenario reads one scenario and checks it whole: an unknown
// key, a project, item or agent named but not defined, or a turn that
// says nothing is an error naming where.
func ParseLoopScenario(b []byte) (LoopScenario, error) {
	var s LoopScenario
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return s, err
	}
	return s, s.check()
}

func (s LoopScenario) check() error {
	if !loopNamePattern.MatchString(s.Name) {
		return fmt.Errorf("name %q: want lower-case letters, digits and dashes", s.Name)
	}
	if len(s.Projects) == 0 || len(s.Sessions) == 0 || len(s.Expect) == 0 {
		return errors.New("needs projects, sessions and expect")
	}
	for name, p := range s.Projects {
		if !loopNamePattern.MatchString(name) {
			return fmt.Errorf("project %q: want lower-case letters, digits and dashes", name)
		}
		for f := range p.Files {
			if !filepath.IsLocal(f) || inGit(f) {
				return fmt.Errorf("project %s: file %q is not a plain path inside it", name, f)
			}
		}
	}
	for id, it := range s.Items {
		if len(it) == 0 || slices.Contains(it, "") {
			return fmt.Errorf("item %s: an empty phrase", id)
		}
	}
	item := func(where, id string) error {
		if _, ok := s.Items[id]; !ok {
			return fmt.Errorf("%s: no item %q", where, id)
		}
		return nil
	}
	for i, ss := range s.Sessions {
		where := fmt.Sprintf("session %d", i+1)
		if err := s.checkAgentProject(where, ss.Agent, ss.Project, ss.Dir); err != nil {
			return err
		}
		if len(ss.Turns) == 0 {
			return fmt.Errorf("%s: no turns", where)
		}
		for j, t := range ss.Turns {
			where := fmt.Sprintf("session %d turn %d", i+1, j+1)
			if t.User == "" && t.Reply == "" && len(t.Saves) == 0 && t.Compact == "" {
				return fmt.Errorf("%s: says nothing", where)
			}
			if t.Compact != "" && t.Compact != "auto" && t.Compact != "manual" {
				return fmt.Errorf("%s: compact %q: want auto or manual", where, t.Compact)
			}
			for _, tl := range t.Tools {
				if tl.Name == "" {
					return fmt.Errorf("%s: a tool without a name", where)
				}
				if _, ok := s.Projects[ss.Project].Files[tl.File]; tl.File != "" && !ok {
					return fmt.Errorf("%s: tool %s reads %q, not a file of project %s", where, tl.Name, tl.File, ss.Project)
				}
			}
			for k, sv := range t.Saves {
				n := 0
				for _, m := range []map[string]any{sv.Remember, sv.Diary, sv.KG} {
					if m != nil {
						n++
					}
				}
				if n != 1 {
					return fmt.Errorf("%s save %d: want exactly one of remember, diary, kg", where, k+1)
				}
			}
		}
	}
	for i, e := range s.Expect {
		where := fmt.Sprintf("expect %d", i+1)
		if err := s.checkAgentProject(where, e.Agent, e.Project, e.Dir); err != nil {
			return err
		}
		if e.Source != "" && e.Source != loopSourceStart && e.Source != loopSourceComp {
			return fmt.Errorf("%s: source %q: want startup or compact", where, e.Source)
		}
		for _, id := range slices.Concat(e.Start, e.Absent) {
			if err := item(where, id); err != nil {
				return err
			}
		}
		for _, pair := range e.Order {
			if len(pair) != 2 {
				return fmt.Errorf("%s: order %q: want [newer, older]", where, pair)
			}
			for _, id := range pair {
				if err := item(where, id); err != nil {
					return err
				}
			}
		}
		for _, q := range e.Search {
			if q.Query == "" {
				return fmt.Errorf("%s: a search without a query", where)
			}
			if err := item(where, q.First); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s LoopScenario) checkAgentProject(where, agent, project, dir string) error {
	if _, ok := s.Projects[project]; !ok {
		return fmt.Errorf("%s: no project %q", where, project)
	}
	if dir != "" && (!filepath.IsLocal(dir) || inGit(dir)) {
		return fmt.Errorf("%s: dir %q is not a plain folder inside the project", where, dir)
	}
	if agent != "" && agent != loopClaude && agent != loopCodex {
		return fmt.Errorf("%s: agent %q: want %s or %s", where, agent, loopClaude, loopCodex)
	}
	return nil
}

// agentOr is the session's agent, claude-code when none is named.
func agentOr(a string) string {
	if a == "" {
		return loopClaude
	}
	return a
}

// inGit says whether a path inside a project is in its .git folder, which
// the bench writes itself.
func inGit(p string) bool {
	first, _, _ := strings.Cut(filepath.ToSlash(filepath.Clean(p)), "/")
	return first == ".git"
}
