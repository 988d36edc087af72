package cli

import (
	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/algodoc"
)

func newAlgosCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "algos",
		Short: "List the algorithms, their messages and parameters",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			for _, name := range algo.Names() {
				a, _ := algo.Lookup(name)
				algodoc.Write(cmd.OutOrStdout(), a)
			}
			return nil
		},
	}
}
