package cli_test

import (
	"fmt"
	"io"
	"os"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/cli"
)

// maxFlood is a user's algorithm, as small as one can be: an initiator
// floods the most valued node it knows within a computation <num, id>; a
// node takes up a higher computation or a better node and floods it on.
// Every node follows, in Norm, the best node of the highest computation it
// knows. It lives in the user's own package, which registers it in init.
type maxFlood struct {
	idx  algo.Index
	best algo.Peer
}

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "example-maxflood",
		Summary:  "flood the most valued node from the initiators",
		Source:   "the cli package's example",
		Messages: []string{"flood"},
		Model:    algo.Model{FIFO: true}, // initiated (node 0 by default), static, reliable
		Build: func(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
			return func(algo.NodeID) algo.Machine { return &maxFlood{best: algo.NoPeer} }, nil
		},
	})
}

func (f *maxFlood) Start(algo.Env)   {}
func (f *maxFlood) Restart(algo.Env) {}
func (f *maxFlood) Recover(algo.Env, []byte) error {
	return nil
}
func (f *maxFlood) Save() []byte { return nil }
func (f *maxFlood) Elect(env algo.Env) {
	f.idx = algo.Index{Num: f.idx.Num + 1, ID: env.ID()}
	f.best = algo.Peer{ID: env.ID(), Value: env.Value()}
	f.flood(env)
}
func (f *maxFlood) Receive(env algo.Env, m *algo.Message) {
	switch {
	case f.idx.Less(m.Index):
		f.idx, f.best = m.Index, algo.Peer{ID: env.ID(), Value: env.Value()}.Max(m.Peer)
	case m.Index == f.idx && m.Peer.Better(f.best):
		f.best = m.Peer
	default:
		return
	}
	f.flood(env)
}
func (f *maxFlood) flood(env algo.Env) {
	for _, u := range env.Neighbors() {
		env.Send(u, algo.Message{Type: 0, Index: f.idx, Peer: f.best})
	}
}
func (f *maxFlood) Timer(algo.Env, algo.Timer)         {}
func (f *maxFlood) NeighborUp(algo.Env, algo.NodeID)   {}
func (f *maxFlood) NeighborDown(algo.Env, algo.NodeID) {}
func (f *maxFlood) Status() algo.Status {
	if f.idx.IsZero() {
		return algo.Status{Leader: algo.None}
	}
	return algo.Status{Leader: f.best.ID, State: algo.Norm, Index: f.idx}
}

// A user's program runs the whole command line with their algorithm beside
// the built-ins: its main is os.Exit(cli.Main(os.Args[1:])), with blank
// imports of github.com/electgo/elect/algo/all and of the package that
// registers the algorithm (here, this file's init). Every command then takes
// it by name: sim, check, fuzz, bench, viz, and node, cluster and emulate
// where the runtime can serve its model.
func Example() {
	code := cli.Run([]string{"sim", "--algo", "example-maxflood", "--topology", "grid:5x5", "--values", "random", "--json"}, io.Discard, os.Stderr)
	fmt.Println("sim exit status:", code)
	code = cli.Run([]string{"fuzz", "--algo", "example-maxflood", "--runs", "50", "--out", os.TempDir()}, io.Discard, os.Stderr)
	fmt.Println("fuzz exit status:", code)
	// Output:
	// sim exit status: 0
	// fuzz exit status: 0
}
