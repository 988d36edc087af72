// Command elect runs, checks and measures leader election algorithms for
// dynamic networks. See README.md for the commands.
//
// It is the whole of the program a user writes to run an algorithm of their
// own through every tool: this file, plus a blank import of their package.
package main

import (
	"os"

	_ "github.com/electgo/elect/algo/all" // the built-in algorithms
	"github.com/electgo/elect/cli"
	_ "github.com/electgo/elect/examples/beacon"   // leader lease by heartbeat flooding
	_ "github.com/electgo/elect/examples/franklin" // Franklin (CACM 1982)
	_ "github.com/electgo/elect/examples/hs"       // Hirschberg and Sinclair (CACM 1980)
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
