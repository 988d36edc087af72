package scenario

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"
	"time"
)

// An event after the run's end is refused with its file and line and
// where the end came from; one at the end itself runs, and a run of
// duration 0 ends after its last event.
func TestCheckEnd(t *testing.T) {
	const events = "events:\n  - {at: 5s, elect: 0}\n  - {at: 10s, crash: 1}\n  - {at: 12s, heal: true}\n"
	for _, c := range []struct {
		name, file, flag string
		duration         time.Duration // set after parsing, as a flag does; 0: the file's
		late             int
		want             string // "" for no error
	}{
		{name: "the file's duration", file: "duration: 5s\n" + events, late: 2,
			want: "run.yaml:4: events: the crash at 10s comes after the run's end at 5s (duration, line 1): the run stops before it"},
		{name: "the default duration", file: "events:\n  - {at: 61s, crash: 1}\n", late: 1,
			want: "run.yaml:2: events: the crash at 1m1s comes after the run's end at 1m0s (the default duration)"},
		{name: "a flag's duration", file: "duration: 1m\n" + events, flag: "--duration", duration: 11 * time.Second, late: 1,
			want: "run.yaml:5: events: the heal at 12s comes after the run's end at 11s (--duration)"},
		{name: "an event at the end", file: "duration: 12s\n" + events},
		{name: "no end before the events", file: "duration: 0\n" + events},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse("run.yaml", []byte(c.file), nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.duration > 0 {
				s.Duration = c.duration
			}
			if late := s.Late(); len(late) != c.late {
				t.Errorf("Late() = %v, want %d events", late, c.late)
			}
			err = s.CheckEnd(c.flag)
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
				t.Errorf("CheckEnd(%q) = %v, want %q", c.flag, err, c.want)
			}
		})
	}
}

// A trace given where a scenario is expected, gzipped or not, is named
// as one, with the command that reads it.
func TestTraceGiven(t *testing.T) {
	trace := `{"ev":"header","version":1,"algorithm":"echo","nodes":4}` + "\n" + `{"t":0,"ev":"end","quiescent":true}` + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(trace))
	zw.Close()
	for name, data := range map[string][]byte{"run.jsonl": []byte(trace), "run.jsonl.gz": gz.Bytes()} {
		_, err := Parse(name, data, nil)
		want := name + ": this is the trace of a run, not a scenario: check it with elect check " + name
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%s) = %v, want %q", name, err, want)
		}
	}
	// A flow mapping that is not a trace's header stays a scenario's
	// problem.
	_, err := Parse("s.yaml", []byte(`{"ev": "crash"}`), nil)
	if err == nil || strings.Contains(err.Error(), "trace") {
		t.Errorf("a scenario that names ev: %v", err)
	}
}

// Each node's entry in values is where a problem with that node is blamed.
func TestBlameValues(t *testing.T) {
	s, err := Parse("run.yaml", []byte("seed: 4\nvalues:\n  1: 5\n  60: 7\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	cause := errors.New("no such node")
	if got := s.Blame(cause, "values.60", "values").Error(); got != "run.yaml:4:3: values.60: no such node" {
		t.Errorf("Blame = %q", got)
	}
}
