package viz

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// grayTrace is a run of 8 nodes on a ring (and a link 2-6) that follow
// node 7, with gray failures: 6->2 cut at 1 s, node 3's clock at x0.8 at
// 2 s, jumping back an hour at 2.5 s, node 4 slowed by 200 ms at 3 s, 2->6
// cut too at 4 s (the link cut both ways), 6->2 carrying again at 5 s,
// node 3's clock true again at 6 s, node 4 on time at 6.5 s, 2->6 carrying
// again at 7 s, the end at 8 s.
const grayTrace = "testdata/gray.jsonl"

// grayAt is what a state says of the gray failures: the directions cut,
// "from>to" in order, and each gray node's state.
func grayAt(s *runState) (cuts []string, gray map[int32]grayNode) {
	pairs := s.sortedCuts()
	for j := 0; j < len(pairs); j += 2 {
		cuts = append(cuts, fmt.Sprintf("%d>%d", pairs[j], pairs[j+1]))
	}
	return cuts, s.gray
}

// TestGrayState: the state at a moment, as the server gives it (GET
// /state, a keyframe replayed to the moment, in chunks of 5 events so that
// the moments fall in various chunks), carries the directions cut and each
// node's clock rate, lateness and jumps: after a cut, both directions cut,
// after an uncut, a clock off true time and back to 1,000,000 ppm.
func TestGrayState(t *testing.T) {
	r, srv := serveReplayChunks(t, grayTrace, 5)
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	jumped := grayNode{rate: 1e6, jumped: -3600e9, jumpMS: 2500, jumpBy: -3600e9}
	slowed := grayNode{rate: 1e6, slow: 200e6, jumpMS: -1}
	for _, c := range []struct {
		ms   string
		cuts []string
		gray map[int32]grayNode
	}{
		{"999", nil, nil},
		{"1000", []string{"6>2"}, nil},
		{"2000", []string{"6>2"}, map[int32]grayNode{3: {rate: 800000, jumpMS: -1}}},
		{"2600", []string{"6>2"}, map[int32]grayNode{3: {rate: 800000, jumped: -3600e9, jumpMS: 2500, jumpBy: -3600e9}}},
		{"3000", []string{"6>2"}, map[int32]grayNode{3: {rate: 800000, jumped: -3600e9, jumpMS: 2500, jumpBy: -3600e9}, 4: slowed}},
		{"4500", []string{"2>6", "6>2"}, map[int32]grayNode{3: {rate: 800000, jumped: -3600e9, jumpMS: 2500, jumpBy: -3600e9}, 4: slowed}},
		{"5000", []string{"2>6"}, map[int32]grayNode{3: {rate: 800000, jumped: -3600e9, jumpMS: 2500, jumpBy: -3600e9}, 4: slowed}},
		// The clock true again; the jump stays told.
		{"6000", []string{"2>6"}, map[int32]grayNode{3: jumped, 4: slowed}},
		{"6500", []string{"2>6"}, map[int32]grayNode{3: jumped}},
		{"7000", nil, map[int32]grayNode{3: jumped}},
		{"9000", nil, map[int32]grayNode{3: jumped}},
	} {
		_, _, b := httpGet(t, srv.URL+"/state?ms="+c.ms)
		s, _, err := decodeKeyframe(b)
		if err != nil {
			t.Fatalf("/state?ms=%s: %v", c.ms, err)
		}
		cuts, gray := grayAt(s)
		if c.gray == nil {
			c.gray = map[int32]grayNode{}
		}
		if !slices.Equal(cuts, c.cuts) || fmt.Sprint(gray) != fmt.Sprint(c.gray) {
			t.Errorf("at %s ms: cuts %v, gray %v; want %v, %v", c.ms, cuts, gray, c.cuts, c.gray)
		}
		if c.ms == "4500" && (!s.cut(2, 6) || !s.cut(6, 2) || s.cut(1, 2)) {
			t.Errorf("at 4500 ms: cut(2, 6) %v, cut(6, 2) %v, cut(1, 2) %v", s.cut(2, 6), s.cut(6, 2), s.cut(1, 2))
		}
	}
}

// TestGrayKeyframes: every chunk's keyframe of a run with gray failures is
// the state before its first event, gray state and directions cut
// included, and reads back as it was written.
func TestGrayKeyframes(t *testing.T) {
	h, events := readEvents(t, grayTrace)
	for _, per := range []int{1, 3, 7, 1000} {
		r, err := newReplay(grayTrace, per)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Wait(); err != nil {
			t.Fatal(err)
		}
		s := newRunState(h.Nodes, len(h.Messages))
		for k := range r.info().Chunks {
			b, err := r.chunk(k)
			if err != nil {
				t.Fatal(err)
			}
			want, _, _, _ := encodeKeyframe(nil, s, k*per)
			back, at, err := decodeKeyframe(b)
			if err != nil || at != k*per {
				t.Fatalf("chunks of %d: chunk %d: event %d, %v", per, k, at, err)
			}
			again, _, _, _ := encodeKeyframe(nil, back, at)
			if got := b[chunkHeader : chunkHeader+len(want)]; string(got) != string(want) || string(again) != string(want) {
				t.Fatalf("chunks of %d: chunk %d's keyframe is not the state before event %d", per, k, k*per)
			}
			evs, err := decodeChunk(b)
			if err != nil {
				t.Fatal(err)
			}
			for j := range evs {
				e := evs[j].event()
				if want := events[k*per+j]; e.Kind.Gray() && (e.Value != want.Value || e.Node != want.Node || e.Peer != want.Peer) {
					t.Errorf("event %d reads back as %+v, want %+v", k*per+j, e, want)
				}
				s.apply(&events[k*per+j])
			}
		}
		r.Close()
	}
}

// TestGrayMarks: the timeline marks each gray failure as a kind of its
// own, in words; a node's history tells its gray changes, a direction cut
// at both its ends.
func TestGrayMarks(t *testing.T) {
	r, srv := serveReplay(t, grayTrace)
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	got := faultMarks(r)
	want := []string{
		"1000 gray-cut: link 6→2 cut one way: 2 no longer hears 6",
		"2000 clock: node 3's clock runs at ×0.8",
		"2500 jump: node 3's clock jumps -1 h",
		"3000 slow: node 4 handles its inputs 200 ms late",
		"4000 gray-cut: link 2→6 cut: 2-6 now cut both ways",
		"5000 gray-uncut: link 6→2 carries again (2→6 still cut)",
		"6000 clock: node 3's clock runs true again",
		"6500 slow: node 4 handles its inputs on time again",
		"7000 gray-uncut: link 2→6 carries again",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("marks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	history := func(v int) []string { return changesOf(t, r, srv, v) }
	if got, want := history(2), []string{
		"7000 link 2→6 carries again",
		"5000 link 6→2 carries again",
		"4000 link 2→6 cut one way: 6 no longer hears 2",
		"1000 link 6→2 cut one way: 2 no longer hears 6",
		"1 Norm, leader 7",
	}; !slices.Equal(got, want) {
		t.Errorf("node 2's history %q, want %q", got, want)
	}
	if got, want := history(3), []string{
		"6000 clock runs true again",
		"2500 clock jumps -1 h",
		"2000 clock runs at ×0.8",
		"1 Norm, leader 7",
	}; !slices.Equal(got, want) {
		t.Errorf("node 3's history %q, want %q", got, want)
	}
	if got, want := history(4), []string{
		"6500 handles its inputs on time again",
		"3000 slowed: handles its inputs 200 ms late",
		"1 Norm, leader 7",
	}; !slices.Equal(got, want) {
		t.Errorf("node 4's history %q, want %q", got, want)
	}
}

// The page writes durations as the server does (web/common.js).
func TestDurationWord(t *testing.T) {
	for _, c := range []struct {
		ns   float64
		want string
	}{{0, "0 ns"}, {999, "999 ns"}, {1500, "1.5 µs"}, {200e6, "200 ms"}, {1.5e9, "1.5 s"}, {90e9, "1.5 min"}, {3600e9, "1 h"}, {1234567, "1.235 ms"}} {
		if got := durationWord(c.ns); got != c.want {
			t.Errorf("durationWord(%g) = %q, want %q", c.ns, got, c.want)
		}
	}
	if got := jumpWord(-3600e9); got != "-1 h" {
		t.Errorf("jumpWord(-1h) = %q", got)
	}
	if got := rateWord(1200000); got != "×1.2" {
		t.Errorf("rateWord(1200000) = %q", got)
	}
}
