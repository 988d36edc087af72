package mobility

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/topo"
)

// The ns-2 movement format, as ns-2's setdest writes it:
//
//	$node_(0) set X_ 83.36
//	$node_(0) set Y_ 239.46
//	$node_(0) set Z_ 0.0
//	$ns_ at 2.0 "$node_(0) setdest 90.44 49.72 4.41"
//	$god_ set-dist 0 1 2
//
// Node ids are the indices i of $node_(i). A setdest at time t sends the node
// from wherever it is at t toward (x, y) at the given speed in m/s; a later
// setdest redirects it from where it has got to. Lines about $god_ (also
// scheduled ones, $ns_ at T "$god_ ...") and comments (#) are ignored.

var (
	setLine  = regexp.MustCompile(`^\$node_\((\d+)\)\s+set\s+([XYZ])_\s+(\S+)$`)
	destLine = regexp.MustCompile(`^\$ns_\s+at\s+(\S+)\s+"\$node_\((\d+)\)\s+setdest\s+(\S+)\s+(\S+)\s+(\S+)"$`)
)

// maxNS2Nodes bounds the node ids a trace may use: lower than a network's
// limit (topo.MaxNodes), as a trace names its nodes in text, and one mistyped
// id must not ask for gigabytes.
const maxNS2Nodes = 1 << 24

// ReadNS2 reads an ns-2 movement trace; name is used in errors. The area is
// the smallest that holds every position, at least 1x1.
func ReadNS2(r io.Reader, name string) (*Plan, error) {
	type dest struct {
		at    time.Duration
		to    topo.Point
		speed float64
	}
	start := map[int]*topo.Point{}
	dests := map[int][]dest{}
	n := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "$god_") || strings.Contains(text, `"$god_`) {
			continue // $god_ lines, bare or scheduled, are ns-2's own bookkeeping
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %q: %s", name, line, text, fmt.Sprintf(format, args...))
		}
		node := func(s string) (int, error) {
			v, err := strconv.Atoi(s)
			if err != nil || v < 0 || v >= maxNS2Nodes {
				return 0, bad("node index %s is out of range", s)
			}
			n = max(n, v+1)
			return v, nil
		}
		if m := setLine.FindStringSubmatch(text); m != nil {
			v, err := node(m[1])
			if err != nil {
				return nil, err
			}
			x, err := coord(m[3])
			if err != nil {
				return nil, bad("%v", err)
			}
			if start[v] == nil {
				start[v] = &topo.Point{}
			}
			switch m[2] {
			case "X":
				start[v].X = x
			case "Y":
				start[v].Y = x
			}
			continue
		}
		if m := destLine.FindStringSubmatch(text); m != nil {
			at, err := coord(m[1])
			if err != nil || at < 0 {
				return nil, bad("time %s is not a time >= 0", m[1])
			}
			v, err := node(m[2])
			if err != nil {
				return nil, err
			}
			x, errX := coord(m[3])
			y, errY := coord(m[4])
			speed, errS := coord(m[5])
			if errX != nil || errY != nil || errS != nil || speed < 0 {
				return nil, bad("want setdest X Y SPEED with numbers and SPEED >= 0")
			}
			dests[v] = append(dests[v], dest{at: time.Duration(at * float64(time.Second)), to: topo.Point{X: x, Y: y}, speed: speed})
			continue
		}
		return nil, bad("not an ns-2 movement line ($node_(i) set X_|Y_|Z_ V, or $ns_ at T \"$node_(i) setdest X Y SPEED\")")
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	p := &Plan{Tracks: make([]Track, n), Width: 1, Height: 1}
	grow := func(q topo.Point) {
		p.Width, p.Height = math.Max(p.Width, q.X), math.Max(p.Height, q.Y)
	}
	for v := range p.Tracks {
		tr := &p.Tracks[v]
		if s := start[v]; s != nil {
			tr.Start = *s
		}
		grow(tr.Start)
		ds := dests[v]
		// Stable by time: setdests at one instant apply in file order.
		sortStable(len(ds), func(i, j int) bool { return ds[i].at < ds[j].at }, func(i, j int) { ds[i], ds[j] = ds[j], ds[i] })
		for _, d := range ds {
			from := tr.At(d.at)
			if k := len(tr.Legs); k > 0 && tr.Legs[k-1].End > d.at {
				tr.Legs[k-1].End, tr.Legs[k-1].To = d.at, from // redirected on the way
			}
			if d.speed == 0 {
				continue // speed 0: the node stops where it is
			}
			end := d.at + time.Duration(dist(from, d.to)/d.speed*float64(time.Second))
			tr.Legs = append(tr.Legs, Leg{Start: d.at, End: end, From: from, To: d.to})
			grow(d.to)
		}
	}
	return p, nil
}

// coord parses a finite number.
func coord(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v, nil
}

// sortStable is an insertion sort (setdest lists are short and nearly in
// order already).
func sortStable(n int, less func(i, j int) bool, swap func(i, j int)) {
	for i := 1; i < n; i++ {
		for j := i; j > 0 && less(j, j-1); j-- {
			swap(j, j-1)
		}
	}
}

// WriteNS2 writes a plan as an ns-2 movement trace: each node's starting
// position, then one setdest per leg.
func WriteNS2(w io.Writer, p *Plan) error {
	bw := bufio.NewWriter(w)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	for v, tr := range p.Tracks {
		fmt.Fprintf(bw, "$node_(%d) set X_ %s\n$node_(%d) set Y_ %s\n$node_(%d) set Z_ 0\n", v, f(tr.Start.X), v, f(tr.Start.Y), v)
	}
	for v, tr := range p.Tracks {
		for _, l := range tr.Legs {
			fmt.Fprintf(bw, "$ns_ at %s \"$node_(%d) setdest %s %s %s\"\n", f(l.Start.Seconds()), v, f(l.To.X), f(l.To.Y), f(l.Speed()))
		}
	}
	return bw.Flush()
}
