// Package cli is elect's command line as a library: Main runs every command
// (sim, check, algos, bench, fuzz, viz, node, cluster, emulate) with the
// algorithms registered in the process.
//
// It registers none itself. A program chooses them by importing their
// packages for their side effect, as cmd/elect does with algo/all; a user
// who writes an algorithm of their own imports its package beside them, and
// every command then takes it by name (--algo NAME, "algorithm: NAME"), with
// no change to elect:
//
//	package main
//
//	import (
//		"os"
//
//		_ "github.com/electgo/elect/algo/all" // the built-in algorithms
//		"github.com/electgo/elect/cli"
//		_ "example.org/mine/hs"               // calls algo.Register in init
//	)
//
//	func main() { os.Exit(cli.Main(os.Args[1:])) }
//
// The nodes that cluster and emulate start are processes of the same
// program (os.Executable with the node command), so they know the same
// algorithms.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/internal/blame"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/sim"
)

// Exit statuses of every command.
const (
	ExitOK        = 0 // all is well
	ExitError     = 1 // bad input, I/O failure
	ExitViolation = 2 // a run completed and the checker found violations; a study's claim fails
	ExitUndecided = 3 // a study ran, no claim fails, and some are undecided
)

// violationError ends a command whose run broke the specification.
type violationError struct{ count int }

func (e violationError) Error() string {
	return fmt.Sprintf("the checker found %d violation(s)", e.count)
}

// Main runs the command line args (without the program name) on the
// process's standard output and error, and returns the exit status:
// ExitOK, ExitError or ExitViolation.
func Main(args []string) int {
	return Run(args, os.Stdout, os.Stderr)
}

// Run runs the command line args, writing results to stdout and errors to
// stderr, and returns the exit status.
func Run(args []string, stdout, stderr io.Writer) int {
	root := newRoot()
	guardAll(root)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	fmt.Fprintln(stderr, "elect:", oneLine(err.Error()))
	var v violationError
	var p *node.PanicError // a real node's machine broke the specification
	var c claimsError
	if errors.As(err, &c) && c.undecided {
		return ExitUndecided
	}
	if errors.As(err, &v) || errors.As(err, &p) || errors.As(err, &c) {
		return ExitViolation
	}
	return ExitError
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "elect",
		Short:         "Leader election for dynamic networks: simulate, check and measure",
		Long:          helpText("elect"),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(withProfiles(newSimCmd()), newCheckCmd(), newAlgosCmd(), withProfiles(newBenchCmd()), newNodeCmd(), newClusterCmd(), newEmulateCmd(), newSoakCmd(), newVizCmd(), newFuzzCmd(), newExploreCmd(), withProfiles(newStudyCmd()))
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

// guardAll makes a panic in any command an error (exit 1) with its stack on
// stderr, not the runtime's exit 2, which reads as violations found. A
// machine's panic during a run never comes here: the driver reports it as
// a violation. What comes is elect's own bug (an internal error), or an
// algorithm's outside its machines' calls (its Build), and the message
// says which.
func guardAll(cmd *cobra.Command) {
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(c *cobra.Command, args []string) (err error) {
			defer func() {
				v := recover()
				if v == nil {
					return
				}
				var p *blame.Panic
				if ie, ok := v.(*sim.InternalError); ok {
					p = ie.Panic
				} else {
					p = blame.Recovered(v)
				}
				fmt.Fprintf(c.ErrOrStderr(), "elect %s panicked:\n%s", c.Name(), p.Stack)
				whose := "an internal error of elect (a bug of elect, not of the algorithm)"
				if p.Theirs {
					whose = "in the algorithm's code, outside its machines' calls (a bug of the algorithm, at " + p.Frames[0] + ")"
				}
				err = fmt.Errorf("%s: panic: %v: %s; the stack is above", c.CommandPath(), p.Value, whose)
			}()
			return run(c, args)
		}
	}
	for _, sub := range cmd.Commands() {
		guardAll(sub)
	}
}
