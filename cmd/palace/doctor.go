package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/vectors"
)

func newDoctorCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check the palace: database integrity, schema, embedding backend and why",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			ctx := c.Context()
			r := struct {
				Home      string         `json:"home"`
				Schema    int            `json:"schema_version"`
				Supported int            `json:"schema_supported"`
				Integrity string         `json:"integrity"`
				Embedding vectors.Status `json:"embedding"`
			}{Home: p.Store.Home(), Supported: store.SchemaVersion(), Integrity: "ok"}
			if r.Schema, err = p.Store.SchemaVersionOf(ctx); err != nil {
				return err
			}
			integrity := p.Store.IntegrityCheck(ctx)
			if integrity != nil {
				r.Integrity = integrity.Error()
			}
			if r.Embedding, err = vectors.StatusOf(ctx, p); err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				if err := printJSON(out, r); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(out, "palace     %s (schema v%d of v%d)\n", r.Home, r.Schema, r.Supported)
				fmt.Fprintf(out, "integrity  %s\n", r.Integrity)
				e := r.Embedding
				fmt.Fprintf(out, "embedding  %s: %s\n", e.Backend, e.Reason)
				if e.ORTLib != "" {
					fmt.Fprintf(out, "ort lib    %s\n", e.ORTLib)
				}
				if e.Model != "" {
					fmt.Fprintf(out, "vectors    %d of model %s, %d drawers pending\n", e.Vectors, e.Model, e.Pending)
				}
			}
			if integrity != nil {
				return fmt.Errorf("the palace database failed its integrity check: %w", integrity)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}
