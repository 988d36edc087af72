package mobility

import (
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
)

// Change is a pair of nodes coming into radio range (Up) or going out of it
// at At. A is always the lower id.
type Change struct {
	At   time.Duration
	A, B algo.NodeID
	Up   bool
}

func (c Change) String() string {
	dir := "down"
	if c.Up {
		dir = "up"
	}
	return fmt.Sprintf("%v %d-%d %s", c.At, c.A, c.B, dir)
}
