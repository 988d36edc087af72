package runtime

import "testing"

func TestReplayWindow(t *testing.T) {
	type step struct {
		seq  uint64
		want bool
	}
	for _, tc := range []struct {
		name  string
		fifo  bool
		steps []step
	}{
		{"first is new", false, []step{{1000, true}}},
		{"repeat refused", false, []step{{5, true}, {5, false}}},
		{"late but unseen accepted", false, []step{{10, true}, {8, true}, {9, true}, {8, false}, {10, false}}},
		{"too old refused", false, []step{{100, true}, {36, false}, {37, true}}},
		{"jump clears the bitmap", false, []step{{1, true}, {1000, true}, {999, true}, {1, false}, {999, false}}},
		{"restart numbers above", false, []step{{1 << 40, true}, {1<<40 + 1, true}, {1 << 41, true}, {1<<40 + 2, false}}},
		{"fifo refuses overtaken", true, []step{{10, true}, {9, false}, {11, true}, {11, false}, {12, true}}},
		{"zero is a number", false, []step{{0, true}, {0, false}, {1, true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w ReplayWindow
			for i, s := range tc.steps {
				if got := w.Accept(s.seq, tc.fifo); got != s.want {
					t.Fatalf("step %d: Accept(%d) = %v, want %v", i, s.seq, got, s.want)
				}
			}
		})
	}
}
