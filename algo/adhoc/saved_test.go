package adhoc

import (
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
)

// Saved state reads back as written, none as none, and a wrong length is an
// error that says so.
func TestSavedRoundTrip(t *testing.T) {
	for _, s := range []Saved{
		{Leader: algo.Peer{ID: 7, Value: -3}, Src: algo.Index{Num: 4, ID: 2}, Num: 9},
		{Leader: algo.NoPeer},
	} {
		got, err := ReadSaved(s.Bytes())
		if err != nil || got != s {
			t.Errorf("%+v read back as %+v, %v", s, got, err)
		}
	}
	if _, err := ReadSaved(make([]byte, 23)); err == nil || !strings.Contains(err.Error(), "23 bytes, want 24") {
		t.Errorf("23 bytes: %v", err)
	}
}
