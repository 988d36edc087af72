package explore

import (
	"slices"
	"time"

	"github.com/electgo/elect/algo"
)

// An election's outcome depends on where the values sit: Chang and
// Roberts' message count runs from 2n-1 to n(n+1)/2 with the order of the
// values round the ring. Arrangements explores the network once for every
// arrangement of its values over its nodes (every permutation), which is
// what "every state" means for an algorithm over all its inputs.
//
// Symmetry: on a ring (node v linked to v-1 and v+1 modulo n, as ring:N
// builds it) where every node or none initiates, rotating an arrangement
// (every value one node further) rotates the whole run with it: the same
// states with the nodes renamed, the same verdict. So only the
// arrangement that comes first among its rotations is explored (n times
// fewer). Reflections are not used: they turn a ring's direction, which a
// unidirectional algorithm cannot ignore. This holds for an algorithm that
// tells nodes apart by their values and by their places on the ring only,
// as the documents' algorithms do (the values are distinct, so no tie
// falls to the ids); Symmetric false turns it off.

// Arranged is the exploration of one arrangement of the values.
type Arranged struct {
	Values []int64 // by node
	*Result
}

// ArrangeResult is the exploration of every arrangement.
type ArrangeResult struct {
	// Explored are the arrangements explored, in order, up to the first
	// counterexample (its Result holds it).
	Explored []Arranged
	// Skipped counts the arrangements that symmetry mapped to one
	// explored; Total is n!.
	Skipped, Total int
	// Symmetric says whether rotations were used.
	Symmetric bool
	Elapsed   time.Duration
}

// Counterexample is the first arrangement's counterexample, if any.
func (r *ArrangeResult) Counterexample() *Arranged {
	if n := len(r.Explored); n > 0 && r.Explored[n-1].Counterexample != nil {
		return &r.Explored[n-1]
	}
	return nil
}

// Complete says every arrangement was explored completely.
func (r *ArrangeResult) Complete() bool {
	for _, a := range r.Explored {
		if !a.Complete {
			return false
		}
	}
	return len(r.Explored)+r.Skipped == r.Total
}

// Arrangements explores s once for each arrangement of s.Values over the
// nodes, in lexicographic order of the arrangements, skipping those that a
// rotation of a ring maps to an earlier one when symmetric, and stops at
// the first counterexample or limit (opt.Time bounds the whole).
func Arrangements(s *Setup, opt Options, symmetric bool) (*ArrangeResult, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	start := time.Now()
	sorted := slices.Clone(s.Values)
	slices.Sort(sorted)
	out := &ArrangeResult{Total: arrangements(sorted), Symmetric: symmetric && rotatable(s)}
	perm := slices.Clone(sorted)
	for {
		if out.Symmetric && !firstRotation(perm) {
			out.Skipped++
		} else {
			one := *s
			one.Values = slices.Clone(perm)
			o := opt
			if opt.Time > 0 {
				o.Time = opt.Time - time.Since(start)
				if o.Time <= 0 {
					break
				}
			}
			res, err := Explore(&one, o)
			if err != nil {
				return nil, err
			}
			out.Explored = append(out.Explored, Arranged{Values: one.Values, Result: res})
			if res.Counterexample != nil || !res.Complete {
				break
			}
		}
		if !nextPermutation(perm) {
			break
		}
	}
	out.Elapsed = time.Since(start)
	return out, nil
}

// arrangements counts the distinct arrangements of sorted values: n!
// over the factorials of the repeats.
func arrangements(sorted []int64) int {
	fact := func(k int) int {
		f := 1
		for i := 2; i <= k; i++ {
			f *= i
		}
		return f
	}
	total := fact(len(sorted))
	for i := 0; i < len(sorted); {
		j := i
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		total /= fact(j - i)
		i = j
	}
	return total
}

// rotatable says whether rotations are symmetries of s: a ring as ring:N
// builds it, whose initiators are every node or none.
func rotatable(s *Setup) bool {
	n := s.Graph.N()
	if n < 3 || s.Graph.M() != n {
		return false
	}
	for v := range n {
		if !s.Graph.HasEdge(algo.NodeID(v), algo.NodeID((v+1)%n)) {
			return false
		}
	}
	return len(s.Initiators) == 0 || len(s.Initiators) == n
}

// firstRotation says whether p comes first (lexicographically) among its
// rotations.
func firstRotation(p []int64) bool {
	n := len(p)
	for k := 1; k < n; k++ {
		for i := range n {
			a, b := p[(i+k)%n], p[i]
			if a < b {
				return false
			}
			if a > b {
				break
			}
		}
	}
	return true
}

// nextPermutation steps p to the next arrangement in lexicographic order
// (equal values count once), false after the last.
func nextPermutation(p []int64) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}
