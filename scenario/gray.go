package scenario

import (
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/sim"
)

// The gray failures' events (sim.Cut, Uncut, LossDir, Clock, Slow):
//
//	- {at: 10s, cut: {from: 3, to: 7}}      # 7 no longer hears 3; 3 still hears 7
//	- {at: 20s, uncut: {from: 3, to: 7}}
//	- {at: 0s, loss: {from: 3, to: 7, rate: 0.3}}
//	- {at: 0s, clock: {node: 3, rate: 0.8}}  # 20% slow; jump: -1h jumps it
//	- {at: 10s, slow: {node: 3, by: 200ms, for: 10s}}

var (
	dirFields   = []string{"from", "to"}
	lossFields  = []string{"from", "to", "rate"}
	clockFields = []string{"node", "rate", "jump"}
	slowFields  = []string{"node", "by", "for"}
)

// grayEvent reads the value of a gray failure's event into a.
func (d *decoder) grayEvent(n *yaml.Node, path string, a *sim.Action) error {
	fields, err := d.Mapping(n, path, "field")
	if err != nil {
		return err
	}
	known := map[sim.ActionKind][]string{sim.Cut: dirFields, sim.Uncut: dirFields, sim.LossDir: lossFields, sim.Clock: clockFields, sim.Slow: slowFields}[a.Kind]
	got := map[string]bool{}
	from, to := algo.None, algo.None
	for _, f := range fields {
		p := join(path, f.Key)
		key := f.Key
		if key == "nodes" {
			key = "node"
		}
		if !strings.Contains(" "+strings.Join(known, " ")+" ", " "+key+" ") {
			return d.Unknown(f, path, known)
		}
		got[key] = true
		switch key {
		case "from":
			from, err = d.NodeID(f.V, p)
		case "to":
			to, err = d.NodeID(f.V, p)
		case "node":
			a.Nodes, err = d.nodeSet(f.V, p)
		case "rate":
			a.Rate, err = d.rate(f.V, p, a.Kind)
		case "jump":
			a.Jump, err = d.signedDuration(f.V, p)
		case "by":
			a.By, err = d.Duration(f.V, p)
		case "for":
			a.For, err = d.Duration(f.V, p)
		}
		if err != nil {
			return err
		}
	}
	n = Resolve(n)
	switch a.Kind {
	case sim.Cut, sim.Uncut, sim.LossDir:
		if from == algo.None || to == algo.None || (a.Kind == sim.LossDir && !got["rate"]) {
			return d.Errf(n, path, "want {%s}", strings.Join(known, ": ..., ")+": ...")
		}
		if from == to {
			return d.Errf(n, path, "from and to are both node %d: a direction joins two nodes", from)
		}
		a.Link.A, a.Link.B = from, to
	case sim.Clock:
		if !got["node"] || !got["rate"] && !got["jump"] {
			return d.Errf(n, path, "want {node: N, rate: R} or {node: N, jump: D}, or both rate and jump")
		}
	case sim.Slow:
		if !got["node"] || !got["by"] {
			return d.Errf(n, path, "want {node: N, by: D}, and for: D to end it after D")
		}
	}
	return nil
}

// rate reads a clock's rate (above 0, at most 100) or a loss probability.
func (d *decoder) rate(n *yaml.Node, path string, k sim.ActionKind) (float64, error) {
	if k == sim.LossDir {
		return d.loss(n, path)
	}
	v, err := d.Scalar(n, path, "a clock rate like 1.05 (1: true time)")
	if err != nil {
		return 0, err
	}
	r, perr := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if perr != nil || !(r > 0 && r <= 100) {
		return 0, d.Errf(Resolve(n), path, "clock rate %q: want a number above 0 and at most 100, like 0.8 for 20%% slow (1: true time)", strings.TrimSpace(v))
	}
	return r, nil
}

// signedDuration reads a duration that may be negative (-1h).
func (d *decoder) signedDuration(n *yaml.Node, path string) (time.Duration, error) {
	v, err := d.Scalar(n, path, "a duration like 1h or -500ms")
	if err != nil {
		return 0, err
	}
	t := strings.TrimSpace(v)
	neg := strings.HasPrefix(t, "-")
	dur, perr := algo.ParseDuration(strings.TrimPrefix(t, "-"))
	if perr != nil || dur == 0 {
		return 0, d.Errf(Resolve(n), path, "jump %q: want a duration other than 0, like 1h or -500ms", t)
	}
	if neg {
		dur = -dur
	}
	return dur, nil
}

// formatGray writes a gray failure's event as its file form.
func formatGray(a sim.Action) string {
	switch a.Kind {
	case sim.Cut, sim.Uncut:
		return a.Kind.String() + ": {from: " + strconv.Itoa(int(a.Link.A)) + ", to: " + strconv.Itoa(int(a.Link.B)) + "}"
	case sim.LossDir:
		return "loss: {from: " + strconv.Itoa(int(a.Link.A)) + ", to: " + strconv.Itoa(int(a.Link.B)) + ", rate: " + num(a.Rate) + "}"
	case sim.Clock:
		s := "clock: {node: " + nodes(a.Nodes)
		if a.Rate > 0 {
			s += ", rate: " + num(a.Rate)
		}
		if a.Jump != 0 {
			s += ", jump: " + a.Jump.String()
		}
		return s + "}"
	}
	s := "slow: {node: " + nodes(a.Nodes) + ", by: " + duration(a.By)
	if a.For > 0 {
		s += ", for: " + a.For.String()
	}
	return s + "}"
}
