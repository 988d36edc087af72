package cluster_test

import (
	"os"
	"testing"

	_ "github.com/electgo/elect/algo/all" // the built-in algorithms
	"github.com/electgo/elect/cli"
)

// The nodes are processes of this test binary, as cli's tests have them:
// started with "node ..." (go test starts it with -test. flags first,
// never so), it runs as elect; Config.Binary's default, os.Executable, is
// then the program that runs `elect node`. A test may import cli: the
// package may not.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "node" {
		os.Exit(cli.Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}
