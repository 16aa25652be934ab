package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/mine"
)

func newInitCmd(_ *globals) *cobra.Command {
	var force bool
	var dry bool
	c := &cobra.Command{
		Use:   "init DIR",
		Short: "Propose a wing and rooms from DIR's folders and write DIR/palace.yaml",
		Long: `Init names the wing after DIR and proposes one room per top-level folder
(keyword: the folder name, except for generic programming words such as
src, internal, test, docs, util, http or context, which would route nearly
every query; those rooms get no keyword), then writes palace.yaml. Edit the file to rename
rooms or add keywords; at every mine the file replaces the wing's taxonomy.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			// A blank DIR (an unset variable in a script) would mean the
			// working directory.
			if strings.TrimSpace(a[0]) == "" {
				return usageError{input.Invalid("path", "is empty")}
			}
			cfg, err := mine.ProposeConfig(a[0])
			if err != nil {
				return err
			}
			if dry {
				b, err := yaml.Marshal(cfg)
				if err != nil {
					return err
				}
				_, err = c.OutOrStdout().Write(b)
				return err
			}
			path, err := mine.WriteConfig(a[0], cfg, force)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "wrote %s: wing %s, %d rooms\n", termLine(path), termLine(cfg.Wing), len(cfg.Rooms))
			return nil
		},
	}
	c.Flags().BoolVar(&force, "force", false, "replace an existing palace.yaml")
	c.Flags().BoolVar(&dry, "dry-run", false, "print the proposal instead of writing it")
	return c
}
