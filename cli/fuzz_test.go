package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electgo/elect/check"
	"github.com/electgo/elect/runner"
	"github.com/electgo/elect/trace"
)

// FuzzCheck feeds `elect check`'s replay arbitrary traces, starting from
// real ones. Whatever the file holds, replay must not panic (a panic exits
// 2, which scripts would read as "violations found") and must name the file
// in its errors.
//
//	go test ./cli -run '^$' -fuzz FuzzCheck -fuzztime 2m
func FuzzCheck(f *testing.F) {
	dir := f.TempDir()
	for i, args := range [][]string{
		{"--algo", "echo", "--topology", "ring:5"},
		{"--algo", "echo", "--topology", "line:4", "--param", "tree=virtual"},
		{"--algo", "test-wrong-leader", "--topology", "line:3"},
		{"--topology", "gnp:8:0.4", "--loss", "0.2", "--values", "random", "--duration", "3ms"},
	} {
		p := filepath.Join(dir, "seed.jsonl")
		var out, errOut bytes.Buffer
		if code := Run(append([]string{"sim", "--trace", p}, args...), &out, &errOut); code == ExitError {
			f.Fatalf("seed %d: %s", i, errOut.String())
		}
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	h := `{"ev":"header","version":1,"algorithm":"x","seed":1,"nodes":3,"message_types":["m"],"spontaneous":true,"stabilization_ns":1,"liveness_ns":2}` + "\n"
	for _, body := range []string{
		`{"t":0,"ev":"node","node":0,"value":0}` + "\n" + `{"t":0,"ev":"status","node":0,"leader":2,"state":"Norm","index":[0,0]}` + "\n" + `{"t":5,"ev":"end","quiescent":true}`,
		`{"t":0,"ev":"node","node":0,"value":0}` + "\n" + `{"t":0,"ev":"node","node":1,"value":0}` + "\n" + `{"t":0,"ev":"link_up","node":0,"peer":1}` + "\n" + `{"t":0,"ev":"link_up","node":0,"peer":1}` + "\n" + `{"t":1,"ev":"link_down","node":0,"peer":1}` + "\n" + `{"t":2,"ev":"end","quiescent":false}`,
		`{"t":0,"ev":"node","node":0,"value":0}` + "\n" + `{"t":3,"ev":"node","node":1,"value":0}` + "\n" + `{"t":4,"ev":"crash","node":1}` + "\n" + `{"t":4,"ev":"recover","node":1}` + "\n" + `{"t":4,"ev":"value","node":1,"value":9}` + "\n" + `{"t":9223372036854775807,"ev":"end","quiescent":true}`,
		`{"t":0,"ev":"node","node":0,"value":0}` + "\n" + `{"t":0,"ev":"node","node":0,"value":5}` + "\n" + `{"t":0,"ev":"end"}`,
		`{"t":0,"ev":"end"}`,
		``,
	} {
		f.Add([]byte(h + body))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := trace.NewReader(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			return
		}
		hd := tr.Header
		// Nodes only sizes arrays; a small cap keeps the fuzzer fast when it
		// mutates the header's node count.
		sum, err := runner.Recheck(tr, check.Config{Stabilization: hd.Stabilization, Liveness: hd.Liveness, Spontaneous: hd.Spontaneous, Nodes: min(hd.Nodes, 64)})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.jsonl:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if _, err := json.Marshal(sum); err != nil {
			t.Fatalf("the summary does not encode: %v", err)
		}
	})
}
