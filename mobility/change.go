package mobility

import (
	"fmt"
	"time"

	"github.com/electgo/elect/algo"
)

// Change is a pair of nodes coming into radio range (Up) or going out of it
// at At. A is always the lower id. Way, when set, says the change is of one
// direction of a link that stays as it is (Radios: ranges of their own):
// 1 what A sends B, 2 what B sends A, which carries from then on when Up,
// and does not otherwise.
type Change struct {
	At   time.Duration
	A, B algo.NodeID
	Up   bool
	Way  uint8
}

func (c Change) String() string {
	dir := "down"
	if c.Up {
		dir = "up"
	}
	switch c.Way {
	case 1:
		return fmt.Sprintf("%v %d->%d %s", c.At, c.A, c.B, dir)
	case 2:
		return fmt.Sprintf("%v %d->%d %s", c.At, c.B, c.A, dir)
	}
	return fmt.Sprintf("%v %d-%d %s", c.At, c.A, c.B, dir)
}
