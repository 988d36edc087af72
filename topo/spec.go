package topo

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/electgo/elect/algo"
)

// Kind is a topology family.
type Kind string

// The topology families. The spec forms are those of Parse.
const (
	// KindLine is line:N, the path 0-1-...-(N-1).
	KindLine Kind = "line"
	// KindRing is ring:N, the cycle 0-1-...-(N-1)-0; N >= 3.
	KindRing Kind = "ring"
	// KindStar is star:N, centre 0 joined to every other node.
	KindStar Kind = "star"
	// KindGrid is grid:WxH, the 4-neighbour lattice; node (x, y) has id y*W+x.
	KindGrid Kind = "grid"
	// KindComplete is complete:N, every pair joined.
	KindComplete Kind = "complete"
	// KindTree is tree:N, a uniformly random labelled tree (random Prüfer
	// sequence).
	KindTree Kind = "tree"
	// KindGeometric is geometric:N:RANGE[:WxH], a random unit-disk graph: N
	// positions uniform in a W by H metre area (default 1000x1000) and an edge
	// between every pair at distance <= RANGE metres.
	KindGeometric Kind = "geometric"
	// KindGNP is gnp:N:P, the Erdős–Rényi graph G(N, P): each pair joined
	// independently with probability P.
	KindGNP Kind = "gnp"
	// KindBA is ba:N:M, a Barabási–Albert preferential-attachment graph: a
	// complete graph on M+1 nodes, then every further node joined to M distinct
	// earlier nodes chosen with probability proportional to their degree.
	KindBA Kind = "ba"
	// KindFile is file:PATH, an edge list read from a file (see Spec.Build).
	KindFile Kind = "file"
	// KindLayered is layered:L, the test network of a report that ran its
	// nodes on three computers: three local networks, each a complete binary
	// tree with L levels (2^L-1 nodes), whose roots are joined in a triangle.
	// Tree t (0, 1, 2) holds ids t*(2^L-1)+i, i being the heap index (root 0,
	// children of i are 2i+1 and 2i+2), so the roots are 0, 2^L-1 and
	// 2*(2^L-1), and layered:4 has 45 nodes and 45 edges.
	KindLayered Kind = "layered"
)

// Limits on what a spec may ask for, so that a typo cannot ask for more memory
// than a machine has.
const (
	// MaxNodes is the largest node count of any topology (algo.MaxNodes,
	// 2,147,483,647).
	MaxNodes = algo.MaxNodes
	// MaxEdges is the largest edge count (expected edge count, for the random
	// families) of any topology: a link is kept once for each end, and a
	// place in the lists of every end (2 * MaxEdges) fits an int32.
	MaxEdges = 1_000_000_000
	// maxLayers is the largest L with 3*(2^L-1) <= MaxNodes.
	maxLayers = 29
	// defaultSide is the side of the default geometric area, in metres.
	defaultSide = 1000
)

// forms lists the accepted spec forms, for error messages.
const forms = "line:N, ring:N, star:N, complete:N, tree:N, grid:WxH, " +
	"geometric:N:RANGE[:WxH], gnp:N:P, ba:N:M, layered:L, file:PATH"

// Spec is a parsed topology spec. Only the fields of its Kind are meaningful.
type Spec struct {
	Kind Kind
	// N is the node count. The spec gives it for line, ring, star, complete,
	// tree, geometric, gnp and ba; Parse computes it for grid (W*H) and
	// layered (3*(2^L-1)); for file it stays 0 until the file is read by
	// Build.
	N int
	// W and H are the grid's width and height in nodes (grid:WxH).
	W, H int
	// Range is the geometric radio range in metres.
	Range float64
	// Degree, when set (geometric:N:dDEG), is the mean degree asked for;
	// Range is then the range that gives it (RangeForDegree).
	Degree float64
	// Width and Height are the geometric area in metres; Parse sets the
	// default 1000 x 1000 when the spec gives none, and Build reads zero as
	// that default.
	Width, Height float64
	// P is the gnp edge probability.
	P float64
	// M is the number of edges each new ba node brings.
	M int
	// L is the number of levels of each layered tree.
	L int
	// Path is the edge-list file of file:PATH.
	Path string
}

// expectedForm is the spec form of a kind, for error messages.
func expectedForm(k Kind) string {
	switch k {
	case KindGrid:
		return "grid:WxH"
	case KindGeometric:
		return "geometric:N:RANGE[:WxH]"
	case KindGNP:
		return "gnp:N:P"
	case KindBA:
		return "ba:N:M"
	case KindLayered:
		return "layered:L"
	case KindFile:
		return "file:PATH"
	}
	return string(k) + ":N"
}

// RangeForDegree is the radio range at which n nodes placed uniformly in a
// w by h area have deg neighbours on average (ignoring the border, where
// nodes have fewer): each of the n-1 others is in range with probability
// pi*r*r/(w*h).
func RangeForDegree(deg float64, n int, w, h float64) float64 {
	return math.Sqrt(deg * w * h / (math.Pi * float64(max(n-1, 1))))
}

// Parse reads a topology spec:
//
//	line:N  ring:N  star:N  complete:N  tree:N
//	grid:WxH
//	geometric:N:RANGE[:WxH]   (area W by H metres, default 1000x1000)
//	geometric:N:dDEG[:WxH]    (the range giving DEG neighbours on average)
//	gnp:N:P
//	ba:N:M
//	layered:L
//	file:PATH
//
// (see the Kind constants for what each builds). Integers are decimal digits;
// RANGE, P and the geometric area are decimal numbers such as 2.5, 1e-3 or
// 500x200.5.
//
// nodes > 0 supplies or overrides N for the families that take a node count:
// "ring" or "ring:" with nodes=10 means ring:10, and so does "ring:5" with
// nodes=10; for geometric, gnp and ba the N part may then be left empty, as
// in "gnp::0.1"; an N that is given must still be well formed. For grid, layered and file, whose node count follows from the
// rest of the spec, a nonzero nodes is an error. A negative nodes is an error.
//
// Errors name the spec and the part at fault, for example
// `topology "grid:3xq": height "q" is not a positive integer`, and list the
// accepted forms when the kind is unknown. Specs beyond MaxNodes nodes or
// (expected) MaxEdges edges are refused.
func Parse(spec string, nodes int) (Spec, error) {
	return parser{spec: spec, nodes: nodes, given: nodes != 0}.run()
}

// ParseNodes is Parse for a node count that was given on its own (a --nodes
// flag), where Parse reads 0 as none given: a count below what the family
// needs is refused, naming that need ("ring needs at least 3 nodes"), and
// grid, layered and file refuse any count, 0 too.
func ParseNodes(spec string, nodes int) (Spec, error) {
	return parser{spec: spec, nodes: nodes, given: true}.run()
}

func (p parser) run() (Spec, error) {
	s, err := p.parse()
	if err != nil {
		return Spec{}, p.wrap(err)
	}
	if err := s.check(); err != nil {
		return Spec{}, p.wrap(err)
	}
	return s, nil
}

type parser struct {
	spec  string
	nodes int
	given bool // nodes was given, even as 0 (ParseNodes)
	kind  Kind
}

func (p *parser) wrap(err error) error {
	if p.given {
		return fmt.Errorf("topology %q (nodes=%d): %w", p.spec, p.nodes, err)
	}
	return fmt.Errorf("topology %q: %w", p.spec, err)
}

func (p *parser) parse() (Spec, error) {
	text := strings.TrimSpace(p.spec)
	if text == "" {
		return Spec{}, fmt.Errorf("empty spec; accepted forms: %s", forms)
	}
	if p.nodes < 0 {
		return Spec{}, fmt.Errorf("nodes=%d is negative", p.nodes)
	}
	head, rest, hasRest := strings.Cut(text, ":")
	kind := Kind(strings.ToLower(strings.TrimSpace(head)))
	s := Spec{Kind: kind}
	p.kind = kind

	switch kind {
	case KindFile:
		s.Path = strings.TrimSpace(rest)
		if s.Path == "" {
			return s, fmt.Errorf("missing PATH; expected file:PATH")
		}
		if p.given {
			return s, fmt.Errorf("nodes=%d given, but file takes its node count from the file (largest id + 1, or its \"nodes K\" line)", p.nodes)
		}
		return s, nil
	case KindLine, KindRing, KindStar, KindComplete, KindTree,
		KindGrid, KindGeometric, KindGNP, KindBA, KindLayered:
	default:
		return s, fmt.Errorf("unknown kind %q; accepted forms: %s", head, forms)
	}

	var parts []string
	if hasRest {
		parts = strings.Split(rest, ":")
	}
	form := expectedForm(kind)
	need := func(min, max int, missing string) error {
		if len(parts) < min {
			if p.nodes > 0 && min > 1 {
				return fmt.Errorf("missing %s; expected %s (with nodes given, N may be left empty, as in %s)",
					missing, form, strings.Replace(form, ":N:", "::", 1))
			}
			return fmt.Errorf("missing %s; expected %s", missing, form)
		}
		if len(parts) > max {
			return fmt.Errorf("too many ':' parts (%d after the kind); expected %s", len(parts), form)
		}
		return nil
	}
	var err error
	switch kind {
	case KindLine, KindRing, KindStar, KindComplete, KindTree:
		if err := need(0, 1, "node count N"); err != nil {
			return s, err
		}
		part := ""
		if len(parts) == 1 {
			part = parts[0]
		}
		s.N, err = p.count(part, form)
	case KindGrid:
		if p.given {
			return s, fmt.Errorf("nodes=%d given, but grid takes its node count from WxH", p.nodes)
		}
		if err := need(1, 1, "WxH"); err != nil {
			return s, err
		}
		s.W, s.H, err = parseGridSize(parts[0])
		s.N = s.W * s.H
	case KindLayered:
		if p.given {
			return s, fmt.Errorf("nodes=%d given, but layered takes its node count from L (3*(2^L-1) nodes)", p.nodes)
		}
		if err := need(1, 1, "level count L"); err != nil {
			return s, err
		}
		s.L, err = parsePosInt("level count L", parts[0])
		if err == nil && s.L <= maxLayers {
			s.N = 3 * (1<<s.L - 1)
		}
	case KindGeometric:
		if err := need(2, 3, "RANGE"); err != nil {
			return s, err
		}
		if s.N, err = p.count(parts[0], form); err != nil {
			return s, err
		}
		if deg, ok := strings.CutPrefix(strings.TrimSpace(parts[1]), "d"); ok {
			// dDEG: the range that gives DEG neighbours on average.
			if s.Degree, err = parsePosFloat("mean degree", deg); err != nil {
				return s, err
			}
		} else if s.Range, err = parsePosFloat("range", parts[1]); err != nil {
			return s, err
		}
		s.Width, s.Height = defaultSide, defaultSide
		if len(parts) == 3 {
			if s.Width, s.Height, err = parseArea(parts[2]); err != nil {
				return s, err
			}
		}
		if s.Degree > 0 {
			s.Range = RangeForDegree(s.Degree, s.N, s.Width, s.Height)
		}
	case KindGNP:
		if err := need(2, 2, "edge probability P"); err != nil {
			return s, err
		}
		if s.N, err = p.count(parts[0], form); err != nil {
			return s, err
		}
		s.P, err = parseProb(parts[1])
	case KindBA:
		if err := need(2, 2, "edges per node M"); err != nil {
			return s, err
		}
		if s.N, err = p.count(parts[0], form); err != nil {
			return s, err
		}
		s.M, err = parsePosInt("edges per node M", parts[1])
	}
	return s, err
}

// count resolves the node count of a family that takes one, from its part of
// the spec and the nodes override.
func (p *parser) count(part, form string) (int, error) {
	if least := minNodes(p.kind); p.given && p.nodes < least {
		noun := "nodes"
		if least == 1 {
			noun = "node"
		}
		return 0, fmt.Errorf("%s needs at least %d %s, got %d", p.kind, least, noun, p.nodes)
	}
	part = strings.TrimSpace(part)
	if part == "" {
		if p.nodes > 0 {
			return p.nodes, nil
		}
		return 0, fmt.Errorf("missing node count N; expected %s (or give nodes)", form)
	}
	n, err := parsePosInt("node count", part)
	if err != nil {
		return 0, err
	}
	if p.nodes > 0 {
		return p.nodes, nil
	}
	return n, nil
}

// minNodes is the fewest nodes a family that takes a node count is built
// with: a ring closes on three, a ba graph needs M < N with M >= 1.
func minNodes(k Kind) int {
	switch k {
	case KindRing:
		return 3
	case KindBA:
		return 2
	}
	return 1
}

// parsePosInt parses a positive decimal integer of at most MaxNodes; what
// names the part in errors.
func parsePosInt(what, part string) (int, error) {
	t := strings.TrimSpace(part)
	if t == "" {
		return 0, fmt.Errorf("%s is empty", what)
	}
	v := 0
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%s %q is not a positive integer", what, part)
		}
		v = v*10 + int(c-'0')
		if v > MaxNodes {
			return 0, fmt.Errorf("%s %q exceeds the limit of %d", what, part, MaxNodes)
		}
	}
	if v == 0 {
		return 0, fmt.Errorf("%s %q is not a positive integer", what, part)
	}
	return v, nil
}

// ParseNumber parses a finite decimal number, as specs write them: digits,
// at most one point and an optional exponent. Hexadecimal floats,
// underscores, "Inf" and "NaN" are refused; -0 reads as 0.
func ParseNumber(part string) (float64, bool) {
	t := strings.TrimSpace(part)
	if t == "" {
		return 0, false
	}
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E', c == '+', c == '-':
		default:
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v + 0, true // + 0 turns -0 into 0
}

func parsePosFloat(what, part string) (float64, error) {
	v, ok := ParseNumber(part)
	if !ok || v <= 0 {
		return 0, fmt.Errorf("%s %q is not a positive number", what, part)
	}
	return v, nil
}

func parseProb(part string) (float64, error) {
	v, ok := ParseNumber(part)
	if !ok || v < 0 || v > 1 {
		return 0, fmt.Errorf("edge probability %q is not a number between 0 and 1", part)
	}
	return v, nil
}

func splitX(part string) (string, string, bool) {
	a, b, ok := strings.Cut(part, "x")
	if !ok {
		a, b, ok = strings.Cut(part, "X")
	}
	return a, b, ok
}

func parseGridSize(part string) (w, h int, err error) {
	a, b, ok := splitX(part)
	if !ok {
		return 0, 0, fmt.Errorf("size %q is not of the form WxH", part)
	}
	if w, err = parsePosInt("width", a); err != nil {
		return 0, 0, err
	}
	if h, err = parsePosInt("height", b); err != nil {
		return 0, 0, err
	}
	return w, h, nil
}

func parseArea(part string) (w, h float64, err error) {
	a, b, ok := splitX(part)
	if !ok {
		return 0, 0, fmt.Errorf("area %q is not of the form WxH (metres, e.g. 500x200.5)", part)
	}
	if w, err = parsePosFloat("area width", a); err != nil {
		return 0, 0, err
	}
	if h, err = parsePosFloat("area height", b); err != nil {
		return 0, 0, err
	}
	return w, h, nil
}

// String writes the spec in canonical form, the one Parse reads back to the
// same Spec: numbers without redundant digits, the geometric area omitted when
// it is the default 1000x1000.
func (s Spec) String() string {
	n := strconv.Itoa(s.N)
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch s.Kind {
	case KindLine, KindRing, KindStar, KindComplete, KindTree:
		return string(s.Kind) + ":" + n
	case KindGrid:
		return "grid:" + strconv.Itoa(s.W) + "x" + strconv.Itoa(s.H)
	case KindGeometric:
		r := f(s.Range)
		if s.Degree > 0 {
			r = "d" + f(s.Degree)
		}
		out := "geometric:" + n + ":" + r
		w, h := s.area()
		if w != defaultSide || h != defaultSide {
			out += ":" + f(w) + "x" + f(h)
		}
		return out
	case KindGNP:
		return "gnp:" + n + ":" + f(s.P)
	case KindBA:
		return "ba:" + n + ":" + strconv.Itoa(s.M)
	case KindLayered:
		return "layered:" + strconv.Itoa(s.L)
	case KindFile:
		return "file:" + s.Path
	}
	return string(s.Kind)
}

// area is the geometric area, zero read as the default.
func (s Spec) area() (w, h float64) {
	w, h = s.Width, s.Height
	if w == 0 {
		w = defaultSide
	}
	if h == 0 {
		h = defaultSide
	}
	return w, h
}

// errTooBig builds the error for specs beyond MaxEdges.
func errTooBig(what string, edges float64) error {
	return fmt.Errorf("%s %.0f edges, more than the limit of %d", what, edges, MaxEdges)
}

// check validates the meaningful fields of s: ranges, MaxNodes, MaxEdges. It
// allocates nothing proportional to the spec.
func (s Spec) check() error {
	switch s.Kind {
	case KindFile:
		if s.Path == "" {
			return errors.New("missing PATH; expected file:PATH")
		}
		return nil
	case KindGrid:
		if s.W < 1 || s.H < 1 {
			return fmt.Errorf("grid needs W, H >= 1, got %dx%d", s.W, s.H)
		}
		if s.W > MaxNodes || s.H > MaxNodes || s.W*s.H > MaxNodes {
			return fmt.Errorf("grid %dx%d has more than the limit of %d nodes", s.W, s.H, MaxNodes)
		}
		if s.N != 0 && s.N != s.W*s.H {
			return fmt.Errorf("grid %dx%d has %d nodes, not N=%d", s.W, s.H, s.W*s.H, s.N)
		}
		return nil
	case KindLayered:
		if s.L < 1 {
			return fmt.Errorf("layered needs L >= 1, got %d", s.L)
		}
		if s.L > maxLayers {
			return fmt.Errorf("layered:%d has more than the limit of %d nodes (L <= %d)", s.L, MaxNodes, maxLayers)
		}
		if n := 3 * (1<<s.L - 1); s.N != 0 && s.N != n {
			return fmt.Errorf("layered:%d has %d nodes, not N=%d", s.L, n, s.N)
		}
		return nil
	case KindLine, KindRing, KindStar, KindComplete, KindTree,
		KindGeometric, KindGNP, KindBA:
	default:
		return fmt.Errorf("unknown kind %q; accepted forms: %s", string(s.Kind), forms)
	}

	if s.N < 1 {
		return fmt.Errorf("node count %d is not positive", s.N)
	}
	if s.N > MaxNodes {
		return fmt.Errorf("node count %d exceeds the limit of %d", s.N, MaxNodes)
	}
	pairs := float64(s.N) * float64(s.N-1) / 2
	switch s.Kind {
	case KindRing:
		if s.N < 3 {
			return fmt.Errorf("ring needs at least 3 nodes, got %d", s.N)
		}
	case KindComplete:
		if pairs > MaxEdges {
			return errTooBig(fmt.Sprintf("complete:%d has", s.N), pairs)
		}
	case KindGeometric:
		if !(s.Range > 0) || math.IsInf(s.Range, 0) {
			return fmt.Errorf("range %v is not a positive number", s.Range)
		}
		w, h := s.area()
		if !(w > 0) || !(h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
			return fmt.Errorf("area %vx%v is not positive and finite", s.Width, s.Height)
		}
		// A disk of radius Range covers at most this share of the area.
		share := min(1, math.Pi*(s.Range/w)*(s.Range/h))
		if e := pairs * share; e > MaxEdges {
			return errTooBig(fmt.Sprintf("geometric:%d:%v in %vx%v expects about", s.N, s.Range, w, h), e)
		}
	case KindGNP:
		if !(s.P >= 0 && s.P <= 1) {
			return fmt.Errorf("edge probability %v is not between 0 and 1", s.P)
		}
		if e := pairs * s.P; e > MaxEdges {
			return errTooBig(fmt.Sprintf("gnp:%d:%v expects about", s.N, s.P), e)
		}
	case KindBA:
		if s.M < 1 || s.M >= s.N {
			return fmt.Errorf("ba needs 1 <= M < N, got M=%d with N=%d", s.M, s.N)
		}
		if e := baEdges(s.N, s.M); e > MaxEdges {
			return errTooBig(fmt.Sprintf("ba:%d:%d has", s.N, s.M), e)
		}
	}
	return nil
}

// baEdges is the edge count of ba:n:m: the complete graph on m+1 nodes and m
// edges for each further node.
func baEdges(n, m int) float64 {
	return float64(m)*float64(m+1)/2 + float64(n-m-1)*float64(m)
}
