package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// referenceFile is the CLI reference, relative to the repository root.
// TestCLIReference regenerates it in memory from newRoot's command tree and
// fails when the file differs; -update rewrites it.
const referenceFile = "docs/reference/cli.md"

// referenceRegen is the command that rewrites referenceFile.
const referenceRegen = "go test ./cmd/palace -run TestCLIReference -update"

// writeReference writes the Markdown reference of every command under root
// (hidden ones left out): its usage, description, examples, subcommands and
// flags with their defaults, all taken from the commands' own help.
func writeReference(w io.Writer, root *cobra.Command) {
	// What 'palace --help' lists besides the commands palace defines.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()

	var cmds []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag() // as --help does: usage lines say [flags]
		cmds = append(cmds, c)
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() {
				walk(s)
			}
		}
	}
	walk(root)

	fmt.Fprintf(w, "# %s CLI reference\n\n", root.Name())
	fmt.Fprintf(w, "Generated from the commands' own help (`%s --help`, `%s COMMAND --help`); do not edit it by hand.\n", root.Name(), root.Name())
	fmt.Fprintf(w, "`%s` fails when it differs from the binary; rewrite it with `%s`.\n", "go test ./cmd/palace -run TestCLIReference", referenceRegen)
	fmt.Fprintf(w, "The guide with worked examples is [../cli.md](../cli.md).\n\n")
	fmt.Fprintf(w, "Exit codes: 0 ok, 1 error, 2 usage, 3 a knowledge-graph conflict (nothing written).\n")
	fmt.Fprintf(w, "Every command takes `-h, --help`; `%s --version` prints the version.\n\n", root.Name())

	fmt.Fprintf(w, "## Global flags\n\nEvery command takes these.\n\n")
	flagTable(w, root.PersistentFlags())

	fmt.Fprintf(w, "\n## Commands\n\n")
	for _, c := range cmds {
		indent := strings.Repeat("  ", depth(c))
		fmt.Fprintf(w, "%s- [%s](#%s): %s\n", indent, c.CommandPath(), anchor(c.CommandPath()), mdText(c.Short))
	}

	for _, c := range cmds {
		fmt.Fprintf(w, "\n## %s\n\n", c.CommandPath())
		if c.Short != "" {
			fmt.Fprintf(w, "%s\n\n", mdText(c.Short))
		}
		fmt.Fprintf(w, "```text\n")
		if c.Runnable() {
			fmt.Fprintf(w, "%s\n", c.UseLine())
		}
		if c.HasAvailableSubCommands() {
			fmt.Fprintf(w, "%s [command]\n", c.CommandPath())
		}
		fmt.Fprintf(w, "```\n")
		if len(c.Aliases) > 0 {
			fmt.Fprintf(w, "\nAliases: %s\n", strings.Join(c.Aliases, ", "))
		}
		if long := strings.TrimSpace(c.Long); long != "" && long != strings.TrimSpace(c.Short) {
			fmt.Fprintf(w, "\n```text\n%s\n```\n", long)
		}
		if ex := strings.TrimRight(c.Example, " \n"); strings.TrimSpace(ex) != "" {
			fmt.Fprintf(w, "\nExamples:\n\n```text\n%s\n```\n", ex)
		}
		if c.HasAvailableSubCommands() {
			fmt.Fprintf(w, "\nSubcommands:\n\n")
			for _, s := range c.Commands() {
				if s.IsAvailableCommand() {
					fmt.Fprintf(w, "- [%s](#%s): %s\n", s.Name(), anchor(s.CommandPath()), mdText(s.Short))
				}
			}
		}
		// Flags of this command, and those it inherits from a parent other
		// than the root (the root's are the global flags above).
		local := c.NonInheritedFlags()
		if c == root {
			local = c.LocalNonPersistentFlags()
		}
		if hasVisible(local) {
			fmt.Fprintf(w, "\nFlags:\n\n")
			flagTable(w, local)
		}
		inherited := pflag.NewFlagSet("inherited", pflag.ContinueOnError)
		c.InheritedFlags().VisitAll(func(f *pflag.Flag) {
			if root.PersistentFlags().Lookup(f.Name) == nil {
				inherited.AddFlag(f)
			}
		})
		if hasVisible(inherited) {
			fmt.Fprintf(w, "\nFlags inherited from its parent:\n\n")
			flagTable(w, inherited)
		}
	}
}

func depth(c *cobra.Command) int {
	d := 0
	for p := c.Parent(); p != nil; p = p.Parent() {
		d++
	}
	return d
}

// anchor is GitHub's heading anchor for a command path ("palace kg add" is
// #palace-kg-add).
func anchor(path string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(path) {
		switch {
		case r == ' ' || r == '-':
			b.WriteRune('-')
		case r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasVisible(fs *pflag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && f.Name != "help" {
			n++
		}
	})
	return n > 0
}

// flagTable lists fs's visible flags (help left out) as a Markdown table:
// the flag with its value name, its default when it has one, its usage.
func flagTable(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "| flag | default | meaning |\n|---|---|---|\n")
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		name, usage := pflag.UnquoteUsage(f)
		flag := "--" + f.Name
		if f.Shorthand != "" {
			flag = "-" + f.Shorthand + ", " + flag
		}
		if name != "" {
			flag += " " + name
		}
		def := ""
		if !zeroDefault(f) {
			def = "`" + strings.ReplaceAll(f.DefValue, "|", `\|`) + "`"
			if f.Value.Type() == "string" {
				def = "`\"" + strings.ReplaceAll(f.DefValue, "|", `\|`) + "\"`"
			}
		}
		if f.Deprecated != "" {
			usage += " (deprecated: " + f.Deprecated + ")"
		}
		fmt.Fprintf(w, "| `%s` | %s | %s |\n", flag, def, cell(usage))
	})
}

// zeroDefault is whether --help leaves f's default unsaid, as pflag does.
func zeroDefault(f *pflag.Flag) bool {
	switch f.DefValue {
	case "", "0", "false", "[]", "0s", "<nil>", "map[]":
		return true
	}
	return false
}

// mdText escapes what Markdown would take as markup in one line of help.
func mdText(s string) string {
	r := strings.NewReplacer("\\", `\\`, "*", `\*`, "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`, "`", "\\`")
	return r.Replace(s)
}

// cell is mdText for a table cell: one line, pipes escaped.
func cell(s string) string {
	return strings.ReplaceAll(mdText(strings.Join(strings.Fields(s), " ")), "|", `\|`)
}
