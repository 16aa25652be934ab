package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/server/hook"
)

const hookLong = `Hooks close the loop between a coding agent and Palace. The agent runs
'palace hook run' at these points of a session:

  SessionStart  the wake-up of the project's wing (identity, the essential
                story, current facts, the last diary lines) is added to the
                agent's context; after a compaction, the session's
                checkpoint comes first.
  Stop          (the end of a turn) the session's checkpoint is filed in the
                project's wing (room checkpoints, one per session, replaced
                as it grows: what the user asked, the files touched, the
                decisions and facts read, what the agent saved, what is
                left open, each a line the session said), then the
                transcript and the project folder are mined there,
                incrementally.
  PreCompact    the checkpoint is filed and the transcript mined.
  SessionEnd    (Claude Code) the same, within a second.

Nothing holds the agent (--mode checkpoint, the default). With --mode block
at install, a Stop also asks the agent to save decisions, changed facts and
a diary entry every 15 human messages since the last save (--every N; a
save of its own through Palace's tools counts), naming those turns and what
is already saved, never while a stop hook is already active and never twice
within 30 seconds; a /compact typed in Claude Code is held once so the agent
saves first; after an automatic compaction the next SessionStart or Stop
asks instead.

The project's wing is the nearest palace.yaml's wing above the session's
working folder, else that folder's name; the project folder is that
palace.yaml's folder, else the git work tree's root (never your home folder).

One command sets an agent up: 'palace hook install AGENT' writes the hooks
and registers Palace's MCP server (palace serve --mcp, the tools the save
prompt names) in the agent's own files:

  claude-code  ~/.claude/settings.json; the server in ~/.claude.json
  codex        ~/.codex/hooks.json; [mcp_servers.palace] in ~/.codex/config.toml
  copilot      ~/.copilot/hooks/palace.json (Copilot CLI and VS Code's agent);
               the server in ~/.copilot/mcp-config.json and VS Code's user mcp.json
  gemini       hooks and server in ~/.gemini/settings.json
  cursor       ~/.cursor/hooks.json (SessionStart only); ~/.cursor/mcp.json

With --scope project the files are the project's: .claude/settings.local.json
(kept out of version control, since the hook names this machine's palace
binary) with the server under the project in ~/.claude.json; .codex/hooks.json
and .codex/config.toml; .github/hooks/palace.json, .vscode/mcp.json and
.mcp.json; .gemini/settings.json; .cursor/hooks.json and .cursor/mcp.json.
--no-mcp writes the hooks only. Every command names this palace binary by its
absolute path: agents do not run hooks or servers with your shell's PATH. The
changes are shown as diffs and written only when you agree (or with --yes);
other settings, hooks and servers are kept as they are, and uninstall gives
each file back byte for byte while nobody else has changed it.`

func newHookCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "hook",
		Short: "Install agent hooks that mine each session into the palace, or run one",
		Long:  hookLong,
	}
	needsSubcommand(c)
	c.AddCommand(newHookInstallCmd(g, true), newHookInstallCmd(g, false), newHookRunCmd(g), newHookPluginCmd(g))
	return c
}

func newHookInstallCmd(g *globals, install bool) *cobra.Command {
	var (
		yes, noProject, noMCP bool
		scope, dir, mode      string
		every, budget         int
	)
	agents := strings.Join(hook.Agents, "|")
	c := &cobra.Command{
		Use:       "install " + agents,
		Short:     "Set an agent up: Palace's hooks and its MCP server in the agent's settings",
		Args:      args(cobra.ExactArgs(1)),
		ValidArgs: hook.Agents,
		Example: `  palace hook install claude-code
  palace hook install codex --yes
  palace hook install copilot --scope project --dir ~/src/shop
  palace hook install gemini --no-mcp
  palace hook install claude-code --mode block --every 25 --no-project-mine`,
	}
	if !install {
		c.Use = "uninstall " + agents
		c.Short = "Remove Palace's hooks and MCP server from an agent's settings"
		c.Example = `  palace hook uninstall claude-code --yes`
	}
	c.RunE = func(c *cobra.Command, a []string) error {
		o, err := installOptions(g, a[0], scope, dir)
		if err != nil {
			return err
		}
		o.Every, o.NoProjectMine, o.NoMCP, o.Mode, o.Budget = every, noProject, noMCP, mode, budget
		plan := hook.PlanUninstall
		if install {
			plan = hook.PlanInstall
		}
		ps, err := plan(o)
		if err != nil {
			return flagError(c, err)
		}
		out := c.OutOrStdout()
		var changed, paths []string
		for _, p := range ps {
			paths = append(paths, termsafe.Line(p.Path))
			if !p.Changed {
				continue
			}
			changed = append(changed, termsafe.Line(p.Path))
			verb := "create"
			switch {
			case p.Old == nil:
			case !install && p.Removes():
				verb = "remove"
			default:
				verb = "change"
			}
			fmt.Fprintf(out, "palace will %s %s:\n%s", verb, termsafe.Line(p.Path), termsafe.Text(p.Diff()))
			for _, n := range p.Notes {
				fmt.Fprintln(out, "note:", termsafe.Line(n))
			}
		}
		if len(changed) == 0 {
			if install {
				fmt.Fprintf(out, "Palace is already in %s; nothing to do\n", strings.Join(paths, ", "))
			} else {
				fmt.Fprintf(out, "no Palace hook or server in %s; nothing to do\n", strings.Join(paths, ", "))
			}
			return nil
		}
		if !yes {
			fmt.Fprintf(out, "Write %s? [y/N] ", strings.Join(changed, ", "))
			answer, _ := bufio.NewReader(c.InOrStdin()).ReadString('\n')
			// Declining is an answer, not a failure: exit 0.
			if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
				fmt.Fprintf(out, "nothing changed: %s not written (answer y, or pass --yes)\n", strings.Join(changed, ", "))
				return nil
			}
		}
		for _, p := range ps {
			if !p.Changed {
				continue
			}
			if err := p.Apply(); err != nil {
				return err
			}
			if p.Removes() {
				fmt.Fprintf(out, "removed %s\n", termsafe.Line(p.Path))
			} else {
				fmt.Fprintf(out, "wrote %s\n", termsafe.Line(p.Path))
			}
		}
		return nil
	}
	c.Flags().BoolVarP(&yes, "yes", "y", false, "write without asking")
	c.Flags().StringVar(&scope, "scope", hook.ScopeUser, "user (the agent's settings in your home folder) or project")
	c.Flags().StringVar(&dir, "dir", "", "the project folder for --scope project (default: the current folder)")
	c.Flags().BoolVar(&noMCP, "no-mcp", false, "the hooks only: leave the agent's MCP servers as they are")
	if install {
		c.Flags().StringVar(&mode, "mode", hook.DefaultMode, modeHelp)
		c.Flags().IntVar(&every, "every", 0, fmt.Sprintf("with --mode block, ask the agent to save every N human messages (default %d)", hook.DefaultEvery))
		c.Flags().BoolVar(&noProject, "no-project-mine", false, "at Stop, mine the transcript only, not the project folder")
		c.Flags().IntVar(&budget, "budget", 0, budgetHelp)
	}
	return c
}

func newHookPluginCmd(g *globals) *cobra.Command {
	var (
		every     int
		budget    int
		noProject bool
		mode      string
	)
	c := &cobra.Command{
		Use:   "plugin [DIR]",
		Short: "Write Palace as a Claude Code plugin marketplace (MCP server and hooks) into DIR",
		Long: `Plugin writes a Claude Code marketplace holding one plugin, palace, into DIR
(default: $PALACE_HOME/claude-plugin): its manifests, the MCP server
(palace serve --mcp) and the same SessionStart, Stop, PreCompact and SessionEnd hooks
'palace hook install claude-code' writes, all naming this palace binary by
its absolute path. Then, in Claude Code:

  /plugin marketplace add DIR
  /plugin install palace@palace

Use the plugin or 'palace hook install', not both: each runs the hooks.`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			o, err := installOptions(g, hook.AgentClaudeCode, hook.ScopeUser, "")
			if err != nil {
				return err
			}
			o.Every, o.NoProjectMine, o.Mode, o.Budget = every, noProject, mode, budget
			dir := filepath.Join(o.StateDir, "claude-plugin")
			if len(a) == 1 {
				if dir, err = filepath.Abs(a[0]); err != nil {
					return usageError{fmt.Errorf("plugin folder: %w", err)}
				}
			}
			files, err := hook.Plugin(o)
			if err != nil {
				return flagError(c, err)
			}
			if err := hook.WriteFiles(dir, files); err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "wrote the Palace plugin marketplace in %s; in Claude Code, type:\n%s", termsafe.Line(dir), termsafe.Text(hook.PluginHelp(dir)))
			return nil
		},
	}
	c.Flags().StringVar(&mode, "mode", hook.DefaultMode, modeHelp)
	c.Flags().IntVar(&every, "every", 0, fmt.Sprintf("with --mode block, ask the agent to save every N human messages (default %d)", hook.DefaultEvery))
	c.Flags().BoolVar(&noProject, "no-project-mine", false, "at Stop, mine the transcript only, not the project folder")
	c.Flags().IntVar(&budget, "budget", 0, budgetHelp)
	return c
}

// modeHelp describes --mode.
const budgetHelp = "the most tokens the wake-up at SessionStart may take (default: the project's palace.yaml wake_up.budget, else the wake-up's default)"

const modeHelp = "checkpoint: file the session's checkpoint at Stop, PreCompact and SessionEnd and never hold the agent; block: also ask the agent to save every --every human messages"

// installOptions gathers what an installation needs: this binary's absolute
// path, the palace home to pass along when --home or PALACE_HOME chose it,
// and the folders the agent's settings live in.
func installOptions(g *globals, agent, scope, dir string) (hook.InstallOptions, error) {
	bin, err := os.Executable()
	if err != nil {
		return hook.InstallOptions{}, fmt.Errorf("find the palace binary: %w", err)
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return hook.InstallOptions{}, fmt.Errorf("find the palace binary: %w", err)
	}
	// The agent runs the hook without this shell's environment, so a home
	// chosen by --home or PALACE_HOME is written into the command; with
	// neither, the hook finds the same default (~/.palace) itself.
	home := ""
	if g.home != "" || os.Getenv("PALACE_HOME") != "" {
		if home, err = palace.ResolveHome(g.home); err == nil {
			home, err = filepath.Abs(home)
		}
		if err != nil {
			return hook.InstallOptions{}, fmt.Errorf("palace home: %w", err)
		}
	}
	// The record of what the agent's settings were before install lives
	// in the palace home, whichever way it was chosen.
	stateDir, err := palace.ResolveHome(g.home)
	if err != nil {
		return hook.InstallOptions{}, fmt.Errorf("palace home: %w", err)
	}
	userHome, _ := os.UserHomeDir() // checked by the plan when it is needed
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return hook.InstallOptions{}, fmt.Errorf("current folder: %w", err)
		}
	}
	// The agent and scope are checked by the plan (hook's check), which
	// names them.
	return hook.InstallOptions{Agent: agent, Scope: scope, Binary: bin, Home: home, UserHome: userHome, ProjectDir: dir, StateDir: stateDir}, nil
}

// hookGrace is how long a run past its deadline may take to stop cleanly
// (the mine notices the cancelled context between files) before the
// command returns anyway.
const hookGrace = 500 * time.Millisecond

func newHookRunCmd(g *globals) *cobra.Command {
	var (
		o       hook.RunOptions
		timeout time.Duration
		roots   []string
	)
	c := &cobra.Command{
		Use:   "run --agent AGENT --event stop|precompact|sessionstart|sessionend",
		Short: "Answer the agent hook reported on stdin (what installed hooks run)",
		Long: `Run is what the installed hooks execute. It reads the agent's hook JSON
(session_id, transcript_path, cwd, stop_hook_active, trigger, source; the
names VS Code, Copilot CLI and Cursor use for them too) from standard input,
and answers in the agent's protocol.

At stop, precompact and sessionend it checks that the transcript is a .jsonl
file inside the agent's own transcript folder (or a --transcripts-root),
files the session's checkpoint in the project's wing (read from where the
last one stopped), and mines the transcript there, incrementally; a stop
also mines the project folder (unless --no-project-mine), followed by as
much embedding as the deadline allows; a sessionend keeps to one second.
With --mode block, a stop due for a save prompt (every --every human
messages since the last save, counted from the transcript; the state is kept
per session in $PALACE_HOME/hooks/sessions) answers with the agent's block
decision and a reason that asks it to save. At sessionstart it answers with
the wake-up of the project's wing as additional context, after a compaction
with the session's checkpoint first.

A transcript that grew is read from its last exchange on, so a run costs
what the agent appended. One too long to mine within --timeout is stored
piece by piece, in order, and the next run goes on where this one stopped
(logged as "partial"), so every session is stored whole in the end.

It never holds the agent up: it returns within --timeout (plus half a
second) whatever happens and always exits 0. Standard output carries only
the answer in the agent's hook protocol (one JSON object), or nothing; a
run that fails answers nothing, so a failure never blocks the agent.
Failures go to one line on standard error and to $PALACE_HOME/logs/hook.log,
where every run is recorded.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			o.Roots = nil
			if len(roots) > 0 {
				o.Roots = append(hook.TranscriptRoots(o.Agent, userHomeDir(), nil), roots...)
			}
			o.UserHome = userHomeDir()
			runHook(c.Context(), g, o, timeout, c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr())
			return nil // the agent must never see a failure as its own
		},
	}
	c.Flags().StringVar(&o.Agent, "agent", "", "the agent that runs the hook: "+strings.Join(hook.Agents, ", "))
	c.Flags().StringVar(&o.Event, "event", "", "the hook event: stop, precompact, sessionstart or sessionend")
	c.Flags().StringVar(&o.Mode, "mode", hook.DefaultMode, modeHelp)
	c.Flags().IntVar(&o.Every, "every", 0, fmt.Sprintf("with --mode block, ask the agent to save every N human messages (default %d)", hook.DefaultEvery))
	c.Flags().BoolVar(&o.NoProjectMine, "no-project-mine", false, "at stop, mine the transcript only, not the project folder")
	c.Flags().IntVar(&o.Budget, "budget", 0, budgetHelp)
	c.Flags().DurationVar(&timeout, "timeout", hook.DefaultTimeout, "the most time the run may take")
	c.Flags().StringArrayVar(&roots, "transcripts-root", nil, "also accept transcripts under this folder (repeatable)")
	return c
}

func userHomeDir() string {
	h, _ := os.UserHomeDir()
	return h
}

// hookLogEntry is one line of $PALACE_HOME/logs/hook.log.
type hookLogEntry struct {
	Time   time.Time    `json:"time"`
	MS     int64        `json:"ms"`
	Status string       `json:"status"` // ok, partial, refused, failed or timeout
	Error  string       `json:"error,omitempty"`
	Result *hook.Result `json:"result,omitempty"`
}

// runHook does the work of `palace hook run` under a hard deadline: the
// work runs on its own goroutine, and when the deadline (plus a short
// grace) passes the command returns whatever the work is doing; a write in
// flight is then rolled back by SQLite when the process exits, and the next
// hook mines the transcript again.
func runHook(parent context.Context, g *globals, o hook.RunOptions, timeout time.Duration, stdin io.Reader, stdout, stderr io.Writer) {
	start := time.Now()
	if timeout <= 0 {
		timeout = hook.DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	home, _ := palace.ResolveHome(g.home)
	o.Home = home
	type outcome struct {
		res hook.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		in, err := hook.ReadAgentInput(o.Agent, stdin)
		if err != nil {
			done <- outcome{err: err}
			return
		}
		res := hook.Result{Agent: o.Agent, Event: o.Event, Session: in.SessionID}
		// Refuse bad input before the palace is even opened.
		if _, _, err := hook.Check(in, o); err != nil {
			done <- outcome{res: res, err: err}
			return
		}
		p, err := ops.Open(ctx, home, palace.Options{ModelDir: g.modelDir, Actor: "hook", Client: o.Agent})
		if err != nil {
			done <- outcome{res: res, err: err}
			return
		}
		res, err = hook.Run(ctx, p, in, o)
		if cerr := p.Close(); err == nil && cerr != nil {
			err = cerr
		}
		done <- outcome{res: res, err: err}
	}()
	var out outcome
	status := "ok"
	select {
	case out = <-done:
	case <-ctx.Done():
		select {
		case out = <-done:
		case <-time.After(hookGrace):
			status, out.err = "timeout", fmt.Errorf("stopped at the %s deadline so the agent is not kept waiting; the next hook mines the session again", timeout)
		}
	}
	if out.err == nil && out.res.Partial {
		status = "partial"
	}
	if out.err != nil && status == "ok" {
		status = "failed"
		if errors.Is(out.err, hook.ErrInvalid) {
			status = "refused"
		}
	}
	entry := hookLogEntry{Time: start.UTC(), MS: time.Since(start).Milliseconds(), Status: status}
	if out.res.Agent != "" || out.res.Transcript != "" {
		r := out.res
		entry.Result = &r
	}
	if out.err == nil && status != "timeout" && len(out.res.Answer) > 0 {
		answer := hook.AgentAnswer(o.Agent, o.Event, out.res.Answer)
		if _, err := fmt.Fprintf(stdout, "%s\n", termsafe.JSON(answer)); err != nil {
			out.err = fmt.Errorf("answer the agent: %w", err)
		}
	}
	if out.err != nil {
		entry.Error = out.err.Error()
		fmt.Fprintf(stderr, "palace hook: %s (see %s)\n", hookOneLine(out.err.Error()), termsafe.Line(filepath.Join(home, "logs", "hook.log")))
	}
	if err := appendHookLog(home, entry); err != nil {
		fmt.Fprintf(stderr, "palace hook: log: %s\n", termsafe.Line(err.Error()))
	}
}

// hookOneLine keeps a message on one short line for the agent's log view,
// its control characters escaped.
func hookOneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return termsafe.Line(s) // after the cut, which may split a rune
}

// hookLogMax is the size at which hook.log is rotated to hook.log.1, so a
// hook that runs at every turn cannot fill the disk.
const hookLogMax = 1 << 20

func appendHookLog(home string, e hookLogEntry) error {
	if home == "" {
		return errors.New("no palace home")
	}
	dir := filepath.Join(home, "logs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	path := filepath.Join(dir, "hook.log")
	if fi, err := os.Stat(path); err == nil && fi.Size() > hookLogMax {
		_ = os.Rename(path, path+".1")
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	// Never through a symbolic link planted in the log's place.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
