package scenario

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/check"
	"github.com/electgo/elect/explore"
	"github.com/electgo/elect/sim"
)

// Format writes s as a scenario file that Parse reads back to the same
// scenario (with Default as base): every field is written, so the file
// stands on its own. It is how generated and shrunk scenarios (elect
// fuzz) become files a person can read and a test can load.
func Format(s *Scenario) ([]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "algorithm: %s\n", quote(s.Algorithm))
	if len(s.Params) > 0 {
		keys := make([]string, 0, len(s.Params))
		for k := range s.Params {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteString("params:\n")
		for _, k := range keys {
			fmt.Fprintf(&b, "  %s: %s\n", quote(k), quote(s.Params[k]))
		}
	} else {
		b.WriteString("params: null\n")
	}
	fmt.Fprintf(&b, "seed: %d\n", s.Seed)
	fmt.Fprintf(&b, "topology: %s\n", quote(s.Topology))
	if s.Nodes != 0 {
		fmt.Fprintf(&b, "nodes: %d\n", s.Nodes)
	}
	values, err := formatValues(s.Values)
	if err != nil {
		return nil, err
	}
	b.WriteString(values)
	fmt.Fprintf(&b, "delay: %s\n", quote(s.Delay.String()))
	fmt.Fprintf(&b, "loss: %s\n", strconv.FormatFloat(s.Loss, 'g', -1, 64))
	fmt.Fprintf(&b, "duration: %s\n", duration(s.Duration))
	if s.ValuesOver != "" {
		fmt.Fprintf(&b, "values_over_time: %s\n", quote(s.ValuesOver))
	}
	if s.Mobility != "" {
		fmt.Fprintf(&b, "mobility: %s\n", quote(s.Mobility))
	}
	if s.Range != 0 {
		fmt.Fprintf(&b, "range: %s\n", strconv.FormatFloat(s.Range, 'g', -1, 64))
	}
	if len(s.Ranges) > 0 {
		ids := slices.Sorted(maps.Keys(s.Ranges))
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = fmt.Sprintf("%d: %s", id, strconv.FormatFloat(s.Ranges[id], 'g', -1, 64))
		}
		fmt.Fprintf(&b, "ranges: {%s}\n", strings.Join(parts, ", "))
	}
	if s.Initiators != "" {
		fmt.Fprintf(&b, "initiators: %s\n", quote(s.Initiators))
	}
	if s.Unelected != "" {
		fmt.Fprintf(&b, "unelected: %s\n", quote(s.Unelected))
	}
	fmt.Fprintf(&b, "check:\n  stabilization: %s\n  liveness: %s\n", duration(s.Check.Stabilization), duration(s.Check.Liveness))
	if s.Check.Expect != check.ExpectInitiated {
		fmt.Fprintf(&b, "  expect: %s\n", s.Check.Expect)
	}
	if len(s.Events) == 0 {
		b.WriteString("events: null\n")
	} else {
		b.WriteString("events:\n")
		for i, a := range s.Events {
			line, err := formatAction(a)
			if err != nil {
				return nil, fmt.Errorf("events[%d]: %w", i, err)
			}
			fmt.Fprintf(&b, "  - {at: %s, %s}\n", duration(a.At), line)
		}
	}
	if s.Schedule != nil {
		if err := formatSchedule(&b, s.Schedule); err != nil {
			return nil, err
		}
	}
	return []byte(b.String()), nil
}

// formatSchedule writes a schedule, one step a line.
func formatSchedule(b *strings.Builder, sch *Schedule) error {
	fmt.Fprintf(b, "schedule:\n  timed: %t\n  reorder: %t\n", sch.Timed, sch.Reorder)
	if len(sch.Steps) == 0 {
		b.WriteString("  steps: []\n")
		return nil
	}
	b.WriteString("  steps:\n")
	for i, st := range sch.Steps {
		line, err := formatStep(st)
		if err != nil {
			return fmt.Errorf("schedule.steps[%d]: %w", i, err)
		}
		fmt.Fprintf(b, "    - {at: %s, %s}\n", duration(st.At), line)
	}
	return nil
}

// formatStep writes what a step does, as the file says it.
func formatStep(st explore.Step) (string, error) {
	switch st.Kind {
	case explore.Deliver, explore.Lose:
		return fmt.Sprintf("%s: {from: %d, to: %d, seq: %d}", st.Kind, st.Peer, st.Node, st.Seq), nil
	case explore.Fire:
		return fmt.Sprintf("fire: {node: %d, timer: %d}", st.Node, st.Timer), nil
	case explore.Crash, explore.Restart, explore.Recover:
		return fmt.Sprintf("%s: %d", st.Kind, st.Node), nil
	case explore.LinkDown, explore.LinkUp:
		return fmt.Sprintf("%s: [%d, %d]", st.Kind, min(st.Node, st.Peer), max(st.Node, st.Peer)), nil
	}
	return "", fmt.Errorf("unknown step %v", st.Kind)
}

func formatValues(v sim.Values) (string, error) {
	if len(v.Explicit) == 0 {
		if v.Mode == sim.ValueRandom {
			return "values: random\n", nil
		}
		return "values: id\n", nil
	}
	if v.Mode != sim.ValueID {
		return "", fmt.Errorf("values: explicit values over random ones have no file form (a mapping gives the others their ids)")
	}
	ids := make([]algo.NodeID, 0, len(v.Explicit))
	for id := range v.Explicit {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var b strings.Builder
	b.WriteString("values:\n")
	for _, id := range ids {
		fmt.Fprintf(&b, "  %d: %d\n", id, v.Explicit[id])
	}
	return b.String(), nil
}

func formatAction(a sim.Action) (string, error) {
	switch a.Kind {
	case sim.Crash:
		if a.Leader {
			if len(a.Nodes) > 0 {
				return "", fmt.Errorf("a crash of the leader and of listed nodes at once has no file form")
			}
			return "crash: leader", nil
		}
		return "crash: " + nodes(a.Nodes), nil
	case sim.Restart, sim.Recover, sim.ElectAt, sim.Corrupt:
		return a.Kind.String() + ": " + nodes(a.Nodes), nil
	case sim.CrashOn:
		return fmt.Sprintf("crash_on: {nodes: %s, message: %s}", nodes(a.Nodes), quote(a.Message)), nil
	case sim.Heal:
		return "heal: true", nil
	case sim.LinkDown, sim.LinkUp:
		return fmt.Sprintf("%s: [%d, %d]", a.Kind, a.Link.A, a.Link.B), nil
	case sim.Cut, sim.Uncut, sim.LossDir, sim.Clock, sim.Slow:
		return formatGray(a), nil
	case sim.SetValue:
		if a.Leader && len(a.Nodes) > 0 {
			return "", fmt.Errorf("a value for the leader and for listed nodes at once has no file form")
		}
		return formatValue(a), nil
	case sim.Partition:
		var parts []string
		for _, g := range a.Groups {
			if g.Area != nil {
				r := g.Area
				parts = append(parts, fmt.Sprintf("%s: {area: [%s, %s, %s, %s]}", quote(g.Name), num(r.X0), num(r.Y0), num(r.X1), num(r.Y1)))
				continue
			}
			parts = append(parts, fmt.Sprintf("%s: %s", quote(g.Name), nodes(g.Nodes)))
		}
		return "partition: {" + strings.Join(parts, ", ") + "}", nil
	}
	return "", fmt.Errorf("unknown action %v", a.Kind)
}

// nodes writes a list of node ids as a flow sequence.
func nodes(ids []algo.NodeID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(int(id))
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// duration writes d as Go writes it ("1.5s"), or 0.
func duration(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	return d.String()
}

// quote writes a string as a double-quoted YAML scalar, which reads back
// as itself whatever it holds.
func quote(s string) string { return strconv.Quote(s) }
