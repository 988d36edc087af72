// Package all registers every algorithm of elect: import it for its side
// effect where all of them must be available (the CLI, tests that run any
// scenario).
//
// It imports the algorithms and nothing above them (docs/architecture.md).
package all

import (
	_ "github.com/electgo/elect/algo/bully"
	_ "github.com/electgo/elect/algo/capture"
	_ "github.com/electgo/elect/algo/echo"
	_ "github.com/electgo/elect/algo/park"
	_ "github.com/electgo/elect/algo/ring"
	_ "github.com/electgo/elect/algo/vkt"
)
