package bench

import (
	"errors"
	"testing"
)

func TestOptionsSweep(t *testing.T) {
	good := Options{Experiments: "start", Algorithms: "vkt", Topologies: []string{"ring:{n}@4,5"}, Seeds: 2,
		Delay: "uniform:1ms:5ms", Values: "random", Format: "png"}
	sw, err := good.Sweep()
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.Seeds) != 2 || len(sw.Topologies) != 1 || len(sw.Topologies[0].Sizes) != 2 {
		t.Fatalf("sweep %+v", sw)
	}
	for _, c := range []struct {
		option string
		change func(*Options)
	}{
		{"Experiments", func(o *Options) { o.Experiments = " , " }},
		{"Algorithms", func(o *Options) { o.Algorithms = "nosuch" }},
		{"Sizes", func(o *Options) { o.Sizes = "x" }},
		{"Topologies", func(o *Options) { o.Topologies = []string{"ring:{n}"} }},
		{"Seeds", func(o *Options) { o.Seeds = 0 }},
		{"Delay", func(o *Options) { o.Delay = "bad" }},
		{"Values", func(o *Options) { o.Values = "bad" }},
		{"Params", func(o *Options) { o.Params = []string{"bad"} }},
		{"Speeds", func(o *Options) { o.Speeds = "x" }},
		{"Mobility", func(o *Options) { o.Mobility = []string{"bad:{v}"} }},
		{"Duration", func(o *Options) { o.Duration = "x" }},
		{"Style", func(o *Options) { o.Format = "gif" }},
	} {
		o := good
		c.change(&o)
		_, err := o.Sweep()
		var e *OptionError
		if !errors.As(err, &e) || e.Option != c.option {
			t.Errorf("%s: error %v", c.option, err)
		}
	}
}
