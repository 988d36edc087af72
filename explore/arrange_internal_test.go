package explore

import "testing"

// The arrangements of values are counted and visited once each, equal
// values once; a ring of 4 distinct values has 3! arrangements that come
// first among their rotations.
func TestArrangementsCount(t *testing.T) {
	for _, c := range []struct {
		v    []int64
		want int
	}{{[]int64{0, 1, 2}, 6}, {[]int64{0, 1, 2, 3, 4}, 120}, {[]int64{1, 1, 2}, 3}, {[]int64{1, 1, 2, 2}, 6}, {[]int64{5}, 1}} {
		if got := arrangements(c.v); got != c.want {
			t.Errorf("arrangements(%v) = %d, want %d", c.v, got, c.want)
		}
		p := append([]int64(nil), c.v...)
		n := 1
		for nextPermutation(p) {
			n++
		}
		if n != c.want {
			t.Errorf("nextPermutation visits %d of %v, want %d", n, c.v, c.want)
		}
	}
	first := 0
	p := []int64{0, 1, 2, 3}
	for ok := true; ok; ok = nextPermutation(p) {
		if firstRotation(p) {
			first++
		}
	}
	if first != 6 {
		t.Errorf("%d arrangements of 4 distinct values come first among their rotations, want 3! = 6", first)
	}
}
