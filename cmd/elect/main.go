// Command elect runs, checks and measures leader election algorithms for
// dynamic networks. See README.md for the commands.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	_ "github.com/electgo/elect/algo/all"
)

// Exit codes.
const (
	exitOK        = 0
	exitError     = 1 // bad input, I/O failure
	exitViolation = 2 // the run completed and the checker found violations
)

// violationError ends a command whose run broke the specification.
type violationError struct{ count int }

func (e violationError) Error() string {
	return fmt.Sprintf("the checker found %d violation(s)", e.count)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args, writing results to stdout and errors to
// stderr, and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "elect:", oneLine(err.Error()))
	var v violationError
	if errors.As(err, &v) {
		return exitViolation
	}
	return exitError
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "elect",
		Short: "Leader election for dynamic networks: simulate, check and measure",
		Long: `elect runs the leader election algorithms of its source documents on simulated
networks (and, later, real ones), checks every run against the safety and
liveness specification, and measures message overhead, election time and time
without a leader.

Exit status: 0 when all is well, 1 on bad input or failure, 2 when a run
completed but the checker found violations.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newSimCmd(), newCheckCmd(), newAlgosCmd(), newBenchCmd(), newNodeCmd(), newClusterCmd(), newEmulateCmd(), newVizCmd(), newFuzzCmd())
	return root
}

// oneLine keeps an error on one line of stderr: cobra's "Did you mean
// this?" suggestions come as a paragraph after a blank line.
func oneLine(msg string) string {
	head, suggestions, found := strings.Cut(strings.TrimSpace(msg), "\n\nDid you mean this?\n")
	if !found {
		return msg
	}
	return head + " (did you mean " + strings.Join(strings.Fields(suggestions), " or ") + "?)"
}
