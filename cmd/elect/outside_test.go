package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// mineGo is a user's package: two algorithms of their own, registered in
// init. outside-flood floods the most valued node from the initiators (a
// static, reliable network); outside-vkt is vkt under another name with a
// faster heartbeat, the way a user builds on an algorithm they did not write:
// its model tolerates loss and crashes, so real nodes run it.
const mineGo = `package mine

import (
	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/vkt" // registered before this package's init
)

type flood struct {
	idx  algo.Index
	best algo.Peer
}

func init() {
	algo.Register(&algo.Algorithm{
		Name: "outside-flood", Summary: "flood the most valued node", Source: "a user's module",
		Messages: []string{"flood"}, Model: algo.Model{FIFO: true},
		Build: func(algo.Params, int) (func(algo.NodeID) algo.Machine, error) {
			return func(algo.NodeID) algo.Machine { return &flood{best: algo.NoPeer} }, nil
		},
	})
	vkt, err := algo.Lookup("vkt")
	if err != nil {
		panic(err)
	}
	mine := *vkt
	mine.Name, mine.Summary = "outside-vkt", "vkt with a heartbeat of 200ms, from a user's module"
	mine.Params = append([]algo.Param(nil), vkt.Params...)
	for i := range mine.Params {
		if mine.Params[i].Name == "heartbeat" {
			mine.Params[i].Default = "200ms"
		}
	}
	algo.Register(&mine)
}

func (f *flood) Start(algo.Env)                 {}
func (f *flood) Restart(algo.Env)               {}
func (f *flood) Recover(algo.Env, []byte) error { return nil }
func (f *flood) Save() []byte                   { return nil }
func (f *flood) Elect(env algo.Env) {
	f.idx = algo.Index{Num: f.idx.Num + 1, ID: env.ID()}
	f.best = algo.Peer{ID: env.ID(), Value: env.Value()}
	f.flood(env)
}
func (f *flood) Receive(env algo.Env, m *algo.Message) {
	switch {
	case f.idx.Less(m.Index):
		f.idx, f.best = m.Index, algo.Peer{ID: env.ID(), Value: env.Value()}.Max(m.Peer)
	case m.Index == f.idx && m.Peer.Better(f.best):
		f.best = m.Peer
	default:
		return
	}
	f.flood(env)
}
func (f *flood) flood(env algo.Env) {
	for _, u := range env.Neighbors() {
		env.Send(u, algo.Message{Index: f.idx, Peer: f.best})
	}
}
func (f *flood) Timer(algo.Env, algo.Timer)         {}
func (f *flood) NeighborUp(algo.Env, algo.NodeID)   {}
func (f *flood) NeighborDown(algo.Env, algo.NodeID) {}
func (f *flood) Status() algo.Status {
	if f.idx.IsZero() {
		return algo.Status{Leader: algo.None}
	}
	return algo.Status{Leader: f.best.ID, State: algo.Norm, Index: f.idx}
}
`

// TestOutsideModule is what the framework promises: a module outside the
// repository, holding a copy of this program's main.go plus one blank import
// of its own package, runs its algorithms through algos, sim, check, fuzz,
// bench and viz, and its loss- and crash-tolerant one through cluster's real
// node processes, with no edit to elect.
func TestOutsideModule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ourMain, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	theirMain := strings.Replace(string(ourMain), `"github.com/electgo/elect/cli"`,
		`"github.com/electgo/elect/cli"
	_ "example.com/outside/mine"`, 1)
	if theirMain == string(ourMain) {
		t.Fatal("main.go imports no cli package to add a line beside")
	}
	write("main.go", theirMain)
	write("mine/mine.go", mineGo)
	// The outside module requires what elect requires, as `go mod tidy`
	// would write it: with the full list, module graph pruning reads no
	// go.mod beyond those the repository's own build reads, so the build
	// needs nothing the module cache lacks (GOPROXY=off).
	ourMod := readFile(t, filepath.Join(repo, "go.mod"))
	requires := strings.Join(regexp.MustCompile(`(?ms)^require \(.*?^\)$`).FindAllString(ourMod, -1), "\n\n")
	goVersion := regexp.MustCompile(`(?m)^go \S+$`).FindString(ourMod)
	write("go.mod", "module example.com/outside\n\n"+goVersion+"\n\nrequire github.com/electgo/elect v0.0.0\n\n"+requires+"\n\nreplace github.com/electgo/elect => "+repo+"\n")
	write("go.sum", readFile(t, filepath.Join(repo, "go.sum")))

	bin := filepath.Join(dir, "elect")
	build := exec.Command("go", "build", "-mod=mod", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build of the outside module: %v\n%s", err, out)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("elect %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr)
		}
		return string(out)
	}

	if out := run("algos"); !strings.Contains(out, "outside-flood: flood the most valued node") || !strings.Contains(out, "outside-vkt:") || !strings.Contains(out, "vkt:") {
		t.Errorf("algos lists not the user's algorithms beside the built-ins:\n%s", out)
	}
	tr := filepath.Join(dir, "run.jsonl")
	var sum struct {
		Algorithm string `json:"algorithm"`
		Final     []struct {
			Leader int `json:"leader"`
		} `json:"final"`
		TraceHash string `json:"trace_hash"`
	}
	if err := json.Unmarshal([]byte(run("sim", "--algo", "outside-flood", "--topology", "grid:4x4", "--values", "id", "--json", "--trace", tr)), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Algorithm != "outside-flood" || len(sum.Final) != 16 || sum.Final[0].Leader != 15 {
		t.Errorf("sim: %+v", sum)
	}
	if out := run("check", tr); !strings.Contains(out, sum.TraceHash) {
		t.Errorf("check gave another trace hash than the run's %s:\n%s", sum.TraceHash, out)
	}
	if out := run("fuzz", "--algo", "outside-flood", "--runs", "40", "--out", filepath.Join(dir, "fuzz")); !strings.Contains(out, "0 failed of 40") {
		t.Errorf("fuzz:\n%s", out)
	}
	run("bench", "--quiet", "--algos", "outside-flood,echo", "--experiments", "start", "--topology", "grid:{n}x{n}@3,4", "--seeds", "1", "--out", filepath.Join(dir, "bench"))
	if csv := readFile(t, filepath.Join(dir, "bench", "results.csv")); strings.Count(csv, "outside-flood") != 2 {
		t.Errorf("bench results:\n%s", csv)
	}
	viewPage(t, bin, tr)

	var cl struct {
		Algorithm string `json:"algorithm"`
		Agreed    bool   `json:"agreed"`
		Final     []struct {
			Leader int `json:"leader"`
		} `json:"final"`
	}
	out := run("cluster", "--algo", "outside-vkt", "--nodes", "3", "--hello", "50ms", "-p", "timeout=600ms", "--duration", "3s", "--json")
	if err := json.Unmarshal([]byte(out), &cl); err != nil {
		t.Fatalf("cluster --json: %v\n%s", err, out)
	}
	if cl.Algorithm != "outside-vkt" || !cl.Agreed || len(cl.Final) != 3 {
		t.Fatalf("cluster: %s", out)
	}
	for i, n := range cl.Final {
		if n.Leader != 2 {
			t.Errorf("cluster: node %d follows %d, want 2 (the most valued):\n%s", i, n.Leader, out)
		}
	}
}

// viewPage serves trace tr with bin's viz and reads the page and the trace
// it replays.
func viewPage(t *testing.T, bin, tr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "viz", "--addr", "127.0.0.1:0", tr)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	url := ""
	sc := bufio.NewScanner(stdout)
	for url == "" && sc.Scan() {
		url = regexp.MustCompile(`http://127\.0\.0\.1:\d+/?`).FindString(sc.Text())
	}
	if url == "" {
		t.Fatal("viz printed no address")
	}
	go io.Copy(io.Discard, stdout)
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "<html") {
		t.Errorf("viz page: %s\n%.200s", resp.Status, page)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
