package bench

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseRunList reads a sweep's run indices and ranges of them, "3,7-9",
// in the order given.
func ParseRunList(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a || b-a > MaxRuns {
			return nil, fmt.Errorf("%q: want run indices and ranges, like 3,7-9", part)
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	return out, nil
}
