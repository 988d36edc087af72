package node_test

import (
	"strings"
	"testing"

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
