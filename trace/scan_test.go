package trace

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// FuzzScanEvent holds the fast path to encoding/json: whatever line it
// takes, decodeStrict takes too and decodes the same.
//
//	go test ./trace -run '^$' -fuzz FuzzScanEvent -fuzztime 5m
func FuzzScanEvent(f *testing.F) {
	good := encode(f, testHeader(), sampleEvents())
	for _, l := range strings.Split(string(good), "\n")[1:] {
		f.Add([]byte(l))
	}
	for _, l := range []string{
		`{"t":0,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peers":[],"level":-2147483648}}`,
		`{"t":-0,"ev":"end","quiescent":false}`,
		`{"t":01,"ev":"end"}`,
		`{"t":1e3,"ev":"end"}`,
		`{"t":1,"t":2,"ev":"end"}`,
		`{"T":1,"ev":"end"}`,
		`{"t":1,"ev":"report","node":0,"text":"caf\u00e9"}`,
		`{"t":1,"ev":"report","node":0,"text":"a\"b"}`,
		`{"t":1,"ev":"status","node":0,"leader":-1,"state":"Wait","index":[4294967295,-1]}`,
		`{"t":1,"ev":"send","node":0,"peer":1,"msg":{"type":"nope","data":"0aff"}}`,
		`{"t":9223372036854775807,"ev":"end"}`,
		`{"t":9223372036854775808,"ev":"end"}`,
		`{"t":99999999999999999999,"ev":"end"}`,
		`{"t":1,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peer":[-1,-9223372036854775808]}}`,
		`{"t":1,"ev":"send","node":0,"peer":1,"msg":{"type":"echo","peer":[-1,-9223372036854775809]}}`,
		`{}`, `{"t":1,}`, `{"t":null}`,
	} {
		f.Add([]byte(l))
	}
	tr, err := NewReader(strings.NewReader(string(good)), "fuzz.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		raw = bytes.TrimSpace(raw)
		var fast, slow jsonEvent
		if !tr.scanEvent(raw, &fast) {
			return
		}
		if err := decodeStrict(raw, &slow); err != nil {
			t.Fatalf("the fast path took %s, which encoding/json refuses: %v", raw, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%s: the fast path read %+v, encoding/json %+v", raw, fast, slow)
		}
	})
}
