package mobility

import (
	"cmp"
	"math/bits"
	"slices"
	"sort"
	"time"

	"github.com/electgo/elect/algo"
)

// sortChanges puts a window's changes in order of (At, A, B), which is
// unique in a window (a pair's changes within one nanosecond cancel), and
// drops copies (a pair solved twice in a window, see watch); it returns them
// in s's scratch, and keeps evs for the next window. Each change is keyed by
// one integer in that order when the spread of the window's instants and
// the node ids fit in 64 bits (a window of 4 s, 2^32 ns, and 65,536 nodes
// take 64), with its state in the lowest bit where there is room (up to
// 32,768 nodes) or else its index alongside, and those are sorted by radix;
// otherwise the changes are compared.
func sortChanges(evs []Change, n int, t0, t1 time.Duration, s *sorter) []Change {
	if len(evs) < 2 {
		return evs
	}
	// Instants from the window's start (they are in (t0, t1]), or, should
	// the window be too long for that, from its first change.
	lo := t0
	nb := bits.Len64(uint64(n - 1))
	width := bits.Len64(uint64(t1-t0)) + 2*nb
	if width > 64 {
		hi := evs[0].At
		lo = hi
		for _, c := range evs {
			lo, hi = min(lo, c.At), max(hi, c.At)
		}
		width = bits.Len64(uint64(hi-lo)) + 2*nb
	}
	if width > 64 {
		slices.SortFunc(evs, func(a, b Change) int {
			if c := cmp.Compare(a.At, b.At); c != 0 {
				return c
			}
			if c := cmp.Compare(a.A, b.A); c != 0 {
				return c
			}
			return cmp.Compare(a.B, b.B)
		})
		return slices.Compact(evs)
	}
	out := s.evs[:0]
	s.evs = evs
	s.keys, s.idx = s.keys[:0], s.idx[:0]
	if width < 64 {
		// The state too, in the lowest bit: nothing to carry along.
		for _, c := range evs {
			k := uint64(c.At-lo)<<(2*nb+1) | uint64(c.A)<<(nb+1) | uint64(c.B)<<1
			if c.Up {
				k |= 1
			}
			s.keys = append(s.keys, k)
		}
		keys, _ := s.sort(width + 1)
		mask := uint64(1)<<nb - 1
		for i, k := range keys {
			if i == 0 || k != keys[i-1] {
				out = append(out, Change{At: lo + time.Duration(k>>(2*nb+1)), A: algo.NodeID(k >> (nb + 1) & mask), B: algo.NodeID(k >> 1 & mask), Up: k&1 == 1})
			}
		}
		return out
	}
	for i, c := range evs {
		s.keys = append(s.keys, uint64(c.At-lo)<<(2*nb)|uint64(c.A)<<nb|uint64(c.B))
		s.idx = append(s.idx, int32(i))
	}
	keys, idx := s.sort(width)
	for i, k := range keys {
		if i == 0 || k != keys[i-1] {
			out = append(out, evs[idx[i]])
		}
	}
	return out
}

// sorter sorts integers of a known width, with an index each or none, with
// its scratch; and keeps the array of changes not in use.
type sorter struct {
	keys, keys2 []uint64
	idx, idx2   []int32
	evs         []Change
}

// Radix passes of sort: two of 11 bits, the top 22 bits of a key.
const (
	digit  = 11
	passes = 2
)

// sort sorts s.keys, whose values are below 2^width, with s.idx alongside
// if it is not empty, and returns them (in scratch that the next call
// reuses). It sorts them by their top 22 bits, by radix (two passes of 11
// bits, counts in the first level of cache), and finishes by insertion:
// the keys of a window are spread evenly enough (instants: a window's some
// 2^32 ns in steps of 2^10, for ten thousand changes or so) that few share
// their top bits. Should many share them, it hands the rest over to a
// comparison sort.
func (s *sorter) sort(width int) ([]uint64, []int32) {
	m := len(s.keys)
	s.keys2 = slices.Grow(s.keys2[:0], m)[:m]
	src, dst := s.keys, s.keys2
	var isrc, idst []int32
	if len(s.idx) > 0 {
		s.idx2 = slices.Grow(s.idx2[:0], m)[:m]
		isrc, idst = s.idx, s.idx2
	}
	low := max(width-passes*digit, 0)
	for shift := low; shift < width; shift += digit {
		var count [1 << digit]int32
		for _, x := range src {
			count[x>>shift&(1<<digit-1)]++
		}
		sum := int32(0)
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		if isrc == nil {
			for _, x := range src {
				d := x >> shift & (1<<digit - 1)
				dst[count[d]] = x
				count[d]++
			}
		} else {
			for i, x := range src {
				d := x >> shift & (1<<digit - 1)
				dst[count[d]] = x
				idst[count[d]] = isrc[i]
				count[d]++
			}
		}
		src, dst = dst, src
		isrc, idst = idst, isrc
	}
	if low > 0 {
		moves := 0
		for i := 1; i < m && moves <= 4*m; i++ {
			for j := i; j > 0 && src[j] < src[j-1]; j-- {
				src[j], src[j-1] = src[j-1], src[j]
				if isrc != nil {
					isrc[j], isrc[j-1] = isrc[j-1], isrc[j]
				}
				moves++
			}
		}
		if moves > 4*m {
			if isrc != nil {
				sort.Sort(byKey{src, isrc})
			} else {
				slices.Sort(src)
			}
		}
	}
	return src, isrc
}

// byKey sorts keys with their indices.
type byKey struct {
	keys []uint64
	idx  []int32
}

func (b byKey) Len() int           { return len(b.keys) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
	b.idx[i], b.idx[j] = b.idx[j], b.idx[i]
}
