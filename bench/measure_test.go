package bench

import (
	"math"
	"testing"
)

// Past the table's 30 degrees of freedom, Student's t is interpolated: it
// stays within 0.002 of the exact quantile, never under it by more than
// rounding, and falls towards the normal's 1.96 without a jump.
func TestQuantile975PastTheTable(t *testing.T) {
	exact := map[int]float64{31: 2.0395, 35: 2.0301, 50: 2.0086, 100: 1.9840, 1000: 1.9623}
	for df, want := range exact {
		got := Quantile975(df)
		if math.Abs(got-want) > 0.002 || got < want-0.0005 {
			t.Errorf("t(%d) = %.4f, want %.4f", df, got, want)
		}
	}
	for df := 2; df < 2000; df++ {
		if Quantile975(df) > Quantile975(df-1) {
			t.Fatalf("t(%d) = %.4f above t(%d) = %.4f", df, Quantile975(df), df-1, Quantile975(df-1))
		}
	}
	if Quantile975(1<<30) < 1.96 {
		t.Error("below the normal's quantile")
	}
}
