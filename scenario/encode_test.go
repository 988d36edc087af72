package scenario

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// normal clears what differs between a scenario and its formatted copy
// read back: where it was read from.
func normal(s *Scenario) *Scenario {
	c := s.Clone()
	c.File, c.set = "", nil
	if len(c.Params) == 0 {
		c.Params = nil // null and absent read alike
	}
	if len(c.Events) == 0 {
		c.Events = nil
	}
	for i := range c.Events {
		c.Events[i].Where = ""
	}
	return c
}

// TestFormatRoundTrip: every shipped scenario and the demo, written by Format and read
// back, is the scenario it was.
func TestFormatRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../scenarios/*.yaml")
	files = append(files, "example.yaml")
	if len(files) < 10 {
		t.Fatalf("only %d scenarios found", len(files))
	}
	for _, f := range append(files, "demo") {
		s := Demo() // a partition by area, a crash of the leader
		if f != "demo" {
			var err error
			if s, err = Load(f, nil); err != nil {
				t.Fatal(err)
			}
		}
		b, err := Format(s)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		back, err := Parse(f+" (formatted)", b, nil)
		if err != nil {
			t.Errorf("%s: formatted, it does not parse: %v\n%s", f, err, b)
			continue
		}
		if !reflect.DeepEqual(normal(s), normal(back)) {
			t.Errorf("%s: formatted and read back it is\n%+v\nwant\n%+v\n%s", f, normal(back), normal(s), b)
		}
	}
}

// TestFormatOddStrings: names and parameters holding quotes, colons and
// control characters come back as they were.
func TestFormatOddStrings(t *testing.T) {
	s := Default()
	s.Params = map[string]string{"a: b": `"quoted" \ back`, "tab": "x\ty", "empty": ""}
	s.Topology = "ring:5 # not a comment"
	b, err := Format(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("odd.yaml", b, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if !reflect.DeepEqual(normal(s), normal(back)) {
		t.Errorf("read back\n%+v\nwant\n%+v\n%s", normal(back), normal(s), b)
	}
}

// TestFormatRefuses: what has no file form is refused, not written wrong.
func TestFormatRefuses(t *testing.T) {
	s, err := Parse("x.yaml", []byte("values: {1: 5}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Values.Mode = 1 // random, under explicit values
	if _, err := Format(s); err == nil || !strings.Contains(err.Error(), "explicit values over random") {
		t.Errorf("Format = %v", err)
	}
}
