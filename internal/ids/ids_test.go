package ids

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/electgo/elect/algo"
)

// Find answers as slices.BinarySearch does, on every length around the
// switch between its two searches, for ids present, absent, below and above.
func TestFindMatchesBinarySearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 3*linearMax; n++ {
		s := make([]algo.NodeID, 0, n)
		for len(s) < n {
			s = append(s, algo.NodeID(rng.IntN(4*n+1)))
			slices.Sort(s)
			s = slices.Compact(s)
		}
		for x := algo.NodeID(-2); x <= algo.NodeID(4*n+2); x++ {
			i, ok := Find(s, x)
			wi, wok := slices.BinarySearch(s, x)
			if i != wi || ok != wok {
				t.Fatalf("Find(%v, %d) = %d, %v; want %d, %v", s, x, i, ok, wi, wok)
			}
		}
	}
}

// benchLists are lists of a network of mean degree 10 (lengths 4 to 16),
// searched for members at random.
func benchLists() ([][]algo.NodeID, []int) {
	rng := rand.New(rand.NewPCG(3, 4))
	lists := make([][]algo.NodeID, 4096)
	for i := range lists {
		n := 4 + rng.IntN(13)
		for range n {
			lists[i] = append(lists[i], algo.NodeID(rng.IntN(10000)))
		}
		slices.Sort(lists[i])
	}
	picks := make([]int, 1<<16)
	for i := range picks {
		picks[i] = rng.IntN(1 << 20)
	}
	return lists, picks
}

// BenchmarkFind searches such lists with Find and with slices.BinarySearch.
func BenchmarkFind(b *testing.B) {
	lists, picks := benchLists()
	for _, c := range []struct {
		name string
		find func([]algo.NodeID, algo.NodeID) (int, bool)
	}{{"Find", Find}, {"BinarySearch", slices.BinarySearch[[]algo.NodeID]}} {
		b.Run(c.name, func(b *testing.B) {
			hits := 0
			for i := range b.N {
				p := picks[i%len(picks)]
				s := lists[p%len(lists)]
				if _, ok := c.find(s, s[p%len(s)]); ok {
					hits++
				}
			}
			if hits != b.N {
				b.Fatalf("%d of %d members found", hits, b.N)
			}
		})
	}
}
