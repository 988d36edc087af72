package node_test

import (
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
)

// Settings name the setting at fault by its key, or as Label spells it.
func TestSettingsErrorNamesSetting(t *testing.T) {
	s := node.Settings{ID: -1}
	if _, _, err := s.Config(); err == nil || !strings.HasPrefix(err.Error(), "id -1: ") {
		t.Errorf("%v, want an error about id", err)
	}
	s = node.Settings{ID: 1, Listen: "127.0.0.1:0", HelloLoss: 1, Hello: node.DefaultHello, LogLevel: "info", LogFormat: "xml",
		Label: func(k string) string { return "--" + k }}
	if _, _, err := s.Config(); err == nil || err.Error() != `--log-format "xml": want text or json` {
		t.Errorf("%v, want --log-format's error", err)
	}
}

// The gray failures' settings: read into Config.Gray, or refused naming
// the flag, before anything is opened.
func TestSettingsGray(t *testing.T) {
	base := node.Settings{ID: 1, Listen: "127.0.0.1:0", Peers: "0=127.0.0.1:7000,1=127.0.0.1:7001,2=127.0.0.1:7002",
		Hello: node.DefaultHello, HelloLoss: 1, LogLevel: "info", LogFormat: "text", LogOutput: io.Discard,
		Label: func(k string) string { return "--" + k }}
	for _, c := range []struct {
		name string
		set  func(*node.Settings)
		err  string // the error's start; "" for none
		want node.Gray
	}{
		{name: "none", set: func(*node.Settings) {}},
		{name: "all", set: func(s *node.Settings) {
			s.CutFrom, s.CutTo, s.ClockRate, s.Slow = " 2, 0 ", "0", 0.8, 5*time.Millisecond
		}, want: node.Gray{CutFrom: []algo.NodeID{0, 2}, CutTo: []algo.NodeID{0}, ClockRate: 0.8, Slow: 5 * time.Millisecond}},
		{name: "true time", set: func(s *node.Settings) { s.ClockRate = 1 }},
		{name: "not an id", set: func(s *node.Settings) { s.CutFrom = "0,x" }, err: `--cut-from 0,x: "x" is not a node id`},
		{name: "a negative id", set: func(s *node.Settings) { s.CutTo = "-2" }, err: `--cut-to -2: "-2" is not a node id`},
		{name: "not a peer", set: func(s *node.Settings) { s.CutFrom = "9" }, err: "--cut-from 9: node 9 is not a listed peer of node 1 (its peers: 0, 2)"},
		{name: "itself", set: func(s *node.Settings) { s.CutTo = "1" }, err: "--cut-to 1: node 1 is this node"},
		{name: "a negative rate", set: func(s *node.Settings) { s.ClockRate = -1 }, err: "--clock-rate -1: want a rate above 0 and at most 100"},
		{name: "too fast", set: func(s *node.Settings) { s.ClockRate = 1000 }, err: "--clock-rate 1000: want"},
		{name: "a negative slow", set: func(s *node.Settings) { s.Slow = -time.Millisecond }, err: "--slow -1ms: want 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base
			c.set(&s)
			cfg, _, err := s.Config()
			if err == nil {
				cfg.Transport.Close()
			}
			switch {
			case c.err != "":
				if err == nil || !strings.HasPrefix(err.Error(), c.err) {
					t.Errorf("%v, want %q", err, c.err)
				}
			case err != nil:
				t.Fatal(err)
			case !slices.Equal(cfg.Gray.CutFrom, c.want.CutFrom) || !slices.Equal(cfg.Gray.CutTo, c.want.CutTo) ||
				cfg.Gray.ClockRate != c.want.ClockRate && !(c.want.ClockRate == 0 && cfg.Gray.ClockRate == 1) || cfg.Gray.Slow != c.want.Slow:
				t.Errorf("Config.Gray %+v, want %+v", cfg.Gray, c.want)
			}
		})
	}
}
