// Command brokenelect is elect with the test doubles of internal/broken
// registered beside its own algorithms, for the emulator's test of a node
// whose machine panics.
package main

import (
	"os"

	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/cli"
	_ "github.com/electgo/elect/internal/broken"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
