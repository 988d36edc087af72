// Package nodemetrics hands a node's metrics to a program's own Prometheus
// registry (client_golang), for programs that embed a node (package node)
// and serve their metrics themselves:
//
//	n, _ := node.New(cfg)
//	prometheus.MustRegister(nodemetrics.Collector(n))
//
// The metrics are those the node's GET /metrics serves, names, help, types
// and labels alike (docs/runtime.md lists them). It is a package of its own
// so that package node does not make its users depend on client_golang.
//
// It imports node and client_golang only (docs/architecture.md).
package nodemetrics

import (
	"bytes"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/electgo/elect/node"
)

// Collector returns a collector of n's metrics, read afresh at every
// scrape. It is unchecked (its Describe sends nothing): the families
// depend on the algorithm, whose message types label some of them.
func Collector(n *node.Node) prometheus.Collector { return collector{n} }

type collector struct{ n *node.Node }

func (collector) Describe(chan<- *prometheus.Desc) {}

var failed = prometheus.NewDesc("elect_metrics_error", "The node's metrics could not be read.", nil, nil)

func (c collector) Collect(ch chan<- prometheus.Metric) {
	var b bytes.Buffer
	if err := c.n.WritePrometheus(&b); err != nil {
		ch <- prometheus.NewInvalidMetric(failed, err)
		return
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(&b)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(failed, fmt.Errorf("parsing the node's metrics: %w", err))
		return
	}
	for name, f := range families {
		for _, m := range f.GetMetric() {
			var names, values []string
			for _, l := range m.GetLabel() {
				names, values = append(names, l.GetName()), append(values, l.GetValue())
			}
			desc := prometheus.NewDesc(name, f.GetHelp(), names, nil)
			kind, v := prometheus.UntypedValue, m.GetUntyped().GetValue()
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				kind, v = prometheus.CounterValue, m.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				kind, v = prometheus.GaugeValue, m.GetGauge().GetValue()
			}
			metric, err := prometheus.NewConstMetric(desc, kind, v, values...)
			if err != nil {
				metric = prometheus.NewInvalidMetric(desc, err)
			}
			ch <- metric
		}
	}
}
