package trace

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// FuzzReader feeds the reader arbitrary headers and arbitrary lines after a
// header. The reader must never panic, every error must name the file (and,
// past the header, the line), and whatever it accepts must go back through
// the Writer and read back as the same header and events, with the same hash.
//
//	go test ./trace -run '^$' -fuzz FuzzReader -fuzztime 5m
func FuzzReader(f *testing.F) {
	good := encode(f, testHeader(), sampleEvents())
	lines := strings.SplitAfter(string(good), "\n")
	header := strings.TrimSuffix(lines[0], "\n")
	f.Add(header, []byte(strings.Join(lines[1:], "")))
	for _, l := range lines[1:] {
		f.Add(header, []byte(l))
	}
	f.Add(goodHeader, []byte(""))
	f.Add(`{"ev":"header","version":1}`, []byte(`{"t":0,"ev":"end","quiescent":true}`))
	f.Add(`{"ev":"header","version":1,"nodes":2,"message_types":["a\u0007","\u003c\u2028"]}`,
		[]byte(`{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"a\u0007"}}`+"\n"+
			`{"t":0,"ev":"drop","node":1,"peer":0,"reason":"loss","msg":{"type":"<\u2028","peers":[]}}`))
	f.Add(`{"ev":"header","version":1,"params":{},"message_types":[]}`, []byte("\n\n"))
	f.Add(`{"ev":"header","version":1,"nodes":3,"message_types":["x","x"]}`, []byte(`{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"x"}}`))
	f.Add(`{"EV":"header","Version":1,"NODES":4}`, []byte(`{"T":3,"Ev":"crash","Node":2}`))
	f.Add(`{"ev":"header","version":1,"nodes":-3}`, []byte{})
	f.Add(`{"ev":"header","version":2}`, []byte{})
	f.Add(`{"ev":"header","version":1} {}`, []byte{})
	f.Add(`{"ev":"node"}`, []byte{})
	f.Add("", []byte{})
	f.Add("\xff\xfe", []byte("\x00"))
	for _, l := range []string{
		`{"t":0,"ev":"boom","node":0}`,
		`{"t":0,"ev":"end","quiescent":true} {"t":1}`,
		`{"t":0,"ev":"status","node":0,"leader":1,"state":"Norm","index":[1]}`,
		`{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peer":[4294967296,0]}}`,
		`{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peers":[[1,1],[-7,0]]}}`,
		`{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","index":[1,2,3]}}`,
		`{"t":0,"ev":"timer","node":0,"timer":256}`,
		`{"t":0,"ev":"link_up","node":3,"peer":1}`,
		`{"t":0,"ev":"crash","node":2147483648}`,
		`{"t":1.5,"ev":"end"}`,
		`{"t":0,"ev":"no`,
		`}{`,
		`null`,
		`[]`,
		`"x"`,
	} {
		f.Add(goodHeader, []byte(l))
		f.Add(header, []byte(lines[1]+l+"\n"+lines[2]))
	}
	lineErr := regexp.MustCompile(`^fuzz\.jsonl:[0-9]+: `)
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		data := append([]byte(header+"\n"), body...)
		tr, err := NewReader(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.jsonl:") {
				t.Fatalf("header error does not name the file: %v", err)
			}
			return
		}
		var events []Event
		for {
			var e Event
			err := tr.Next(&e)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				if !lineErr.MatchString(err.Error()) || strings.HasPrefix(err.Error(), "fuzz.jsonl:1: ") {
					t.Fatalf("error does not name the file and a line after the header: %v", err)
				}
				continue // the reader goes on with the next line
			}
			events = append(events, e)
		}
		again := encode(t, tr.Header, events)
		h2, events2, err := decodeAll(again, "again.jsonl")
		if err != nil {
			t.Fatalf("the Writer's output of what the Reader accepted does not read back: %v\n%s", err, again)
		}
		want := tr.Header
		if !sameHeader(h2, want) {
			t.Fatalf("header read back as %+v, was %+v", h2, want)
		}
		if len(events2) != len(events) {
			t.Fatalf("read back %d events, wrote %d\n%s", len(events2), len(events), again)
		}
		for i := range events {
			if !reflect.DeepEqual(events[i], events2[i]) {
				t.Fatalf("event %d read back as %+v, was %+v\n%s", i, events2[i], events[i], again)
			}
		}
		if hashOf(events) != hashOf(events2) {
			t.Fatal("hash changed through the Writer")
		}
		if third := encode(t, h2, events2); !bytes.Equal(third, again) {
			t.Fatalf("writing is not stable:\n%s\nthen\n%s", again, third)
		}
	})
}
