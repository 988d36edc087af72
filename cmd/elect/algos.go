package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
)

func newAlgosCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "algos",
		Short: "List the algorithms, their messages and parameters",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			for _, name := range algo.Names() {
				a, _ := algo.Lookup(name)
				fmt.Fprintf(w, "%s: %s\n  source: %s\n  messages: %s\n", a.Name, a.Summary, a.Source, strings.Join(a.Messages, ", "))
				if len(a.Params) > 0 {
					tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
					fmt.Fprintln(tw, "  param\tdefault\tmeaning")
					for _, p := range a.Params {
						fmt.Fprintf(tw, "  %s\t%s\t%s\n", p.Name, p.Default, p.Doc)
					}
					tw.Flush()
				}
				fmt.Fprintln(w)
			}
			return nil
		},
	}
}
