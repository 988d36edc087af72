package nodemetrics_test

import (
	"context"
	"io"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/node/nodemetrics"
	"github.com/electgo/elect/runtime"
)

// A program's own registry gathers the node's metrics, with the types,
// help and labels its /metrics gives, and the values of the moment.
func TestCollector(t *testing.T) {
	peers := map[algo.NodeID]netip.AddrPort{5: netip.MustParseAddrPort("127.0.0.1:9")} // it beacons to it
	n, err := node.New(node.Config{ID: 4, Value: 7, Transport: runtime.NewMemNetwork().Listen(), Peers: peers,
		Hello: 10 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- n.Run(ctx) }()
	defer func() { cancel(); <-done }()

	reg := prometheus.NewRegistry()
	reg.MustRegister(nodemetrics.Collector(n))
	want := `
# HELP elect_value This node's value (desirability).
# TYPE elect_value gauge
elect_value 7
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "elect_value"); err != nil {
		t.Error(err)
	}
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, f := range fams {
		seen[f.GetName()] = f.GetType().String()
	}
	for name, kind := range map[string]string{
		"elect_messages_sent_total": "COUNTER", "elect_datagrams_rejected_total": "COUNTER",
		"elect_fencing_token": "GAUGE", "elect_hellos_sent_total": "COUNTER",
	} {
		if seen[name] != kind {
			t.Errorf("%s: %q, want %s (gathered: %v)", name, seen[name], kind, seen)
		}
	}
	// Values are read at each scrape: the hellos go on.
	first := testutil.ToFloat64(gauge(t, reg, "elect_hellos_sent_total"))
	time.Sleep(50 * time.Millisecond)
	if later := testutil.ToFloat64(gauge(t, reg, "elect_hellos_sent_total")); later <= first {
		t.Errorf("hellos sent %v then %v: not read afresh", first, later)
	}
}

// gauge is a collector of the one metric name from reg, for ToFloat64.
func gauge(t *testing.T, reg *prometheus.Registry, name string) prometheus.Collector {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() == name && len(f.GetMetric()) == 1 {
			m := f.GetMetric()[0]
			v := m.GetCounter().GetValue() + m.GetGauge().GetValue()
			return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name + "_copy", Help: "copy"}, func() float64 { return v })
		}
	}
	t.Fatalf("no single %s gathered", name)
	return nil
}
