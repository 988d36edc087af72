package supervisor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/electgo/elect/node"
)

// roleVar makes the test binary, started by a test, play a role instead
// of running the tests: a node, a node that fails as it starts, a node
// that never answers, or a supervisor of a node.
const roleVar = "SUPERVISOR_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleVar) {
	case "":
		os.Exit(m.Run())
	case "node":
		serveNode(os.Args[1], os.Args[2])
	case "crash":
		fmt.Fprintln(os.Stderr, "bad config: no such algorithm")
		os.Exit(3)
	case "mute":
		time.Sleep(time.Minute)
	case "parent":
		superviseOne(os.Args[1])
	}
	os.Exit(2)
}

// serveNode is a stand-in for elect node: it counts its lives in its state
// directory, serves /healthz and /status (its value is that count) on
// endpoint, and on SIGTERM says it saved its state and exits.
func serveNode(endpoint, stateDir string) {
	count := 1
	file := filepath.Join(stateDir, "lives")
	if b, err := os.ReadFile(file); err == nil {
		n, _ := strconv.Atoi(string(b))
		count = n + 1
	}
	os.MkdirAll(stateDir, 0o755)
	os.WriteFile(file, []byte(strconv.Itoa(count)), 0o644)
	wd, _ := os.Getwd()
	fmt.Printf("node up: life %d of its state, pid %d, in %s, wrapped=%s\n", count, os.Getpid(), wd, os.Getenv("WRAPPED"))
	network, addr := "tcp", endpoint
	if path, ok := strings.CutPrefix(endpoint, "unix:"); ok {
		network, addr = "unix", path
		os.Remove(path)
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	go func() {
		<-term
		fmt.Println("SIGTERM: state saved")
		os.Exit(0)
	}()
	http.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	http.HandleFunc("/status", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(node.StatusJSON{ID: 7, Value: int64(count), State: "Norm", Leader: 7})
	})
	http.Serve(ln, nil)
}

// superviseOne launches a node under a supervisor, prints its pid once it
// answers, and waits to be killed.
func superviseOne(dir string) {
	p := New(nodeSpec(dir, Endpoint{"unix", filepath.Join(dir, "sock")}, "node"))
	if err := p.Launch(Start); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	if err := p.AwaitUp(context.Background(), 10*time.Second); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println(p.Info().PID)
	select {}
}

// nodeSpec is a node of role served on ep, its files in dir.
func nodeSpec(dir string, ep Endpoint, role string) Spec {
	state := filepath.Join(dir, "node", "state")
	return Spec{
		Name: "node 7", Binary: os.Args[0], Args: []string{ep.String(), state},
		Env: append(os.Environ(), roleVar+"="+role), StateDir: state,
		Log: filepath.Join(dir, "node-7.log"), Banner: "test: node 7", HTTP: ep,
	}
}

// freeTCP is a loopback endpoint free now.
func freeTCP(t *testing.T) Endpoint {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return Endpoint{"tcp", ln.Addr().String()}
}

// up launches p in mode and waits until it answers.
func up(t *testing.T, p *Process, mode Mode) {
	t.Helper()
	if err := p.Launch(mode); err != nil {
		t.Fatal(err)
	}
	if err := p.AwaitUp(context.Background(), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Kill() })
}

// value is the node's /status value: the lives its state directory saw.
func value(t *testing.T, p *Process) int64 {
	t.Helper()
	st, err := p.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Value
}

// gone reports whether pid has ended (or is a zombie) within 3 s.
func gone(pid int) bool {
	for range 150 {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		// pid (comm) STATE ...: Z is a zombie, X dead.
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 && i+2 < len(b) && (b[i+2] == 'Z' || b[i+2] == 'X') {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// TestLives: a node over TCP is killed, recovers with its state, stops
// cleanly and restarts fresh; each life is told apart in one log, and no
// planned end counts as an exit of its own.
func TestLives(t *testing.T) {
	dir := t.TempDir()
	spec := nodeSpec(dir, freeTCP(t), "node")
	var exits atomic.Int32
	spec.OnExit = func(error) { exits.Add(1) }
	spec.Wrap = []string{"env", "WRAPPED=yes"}
	spec.Dir = dir
	p := New(spec)
	if in := p.Info(); in.State != NotStarted || in.Life != 0 {
		t.Fatalf("before a launch: %+v", in)
	}
	up(t, p, Start)
	first := p.Info()
	if first.State != Running || first.Life != 1 || first.Mode != Start || first.PID == 0 || value(t, p) != 1 {
		t.Fatalf("first life: %+v", first)
	}
	if err := p.Launch(Recover); err == nil || !strings.Contains(err.Error(), "running already") {
		t.Errorf("a second process of a running node: %v", err)
	}
	killed, err := p.Kill()
	if err != nil || killed.PID != first.PID || killed.At.IsZero() || !gone(first.PID) {
		t.Fatalf("Kill: %+v, %v", killed, err)
	}
	if in := p.Info(); in.State != Killed {
		t.Errorf("after Kill: %+v", in)
	}
	if _, err := p.Kill(); !errors.Is(err, ErrNotRunning) || err.Error() != "node 7 is not running (killed)" {
		t.Errorf("killing a dead node: %v", err)
	}

	up(t, p, Recover)
	if v := value(t, p); v != 2 {
		t.Errorf("a recovered node found %d lives in its state, want 2", v)
	}
	if _, err := p.Stop(5 * time.Second); err != nil || p.Info().State != Stopped {
		t.Fatalf("Stop: %v, %+v", err, p.Info())
	}
	up(t, p, Fresh)
	if v, in := value(t, p), p.Info(); v != 1 || in.Life != 3 || in.Mode != Fresh {
		t.Errorf("a fresh node found %d lives in its state (want 1), %+v", v, in)
	}
	p.Kill()
	if n := exits.Load(); n != 0 {
		t.Errorf("%d unplanned exits, want none", n)
	}
	if u := p.Usage(); u.CPU <= 0 || goruntime.GOOS == "linux" && u.MaxRSS < 1<<20 {
		t.Errorf("usage of 3 lives: %+v", u)
	}

	b, err := os.ReadFile(spec.Log)
	if err != nil {
		t.Fatal(err)
	}
	rest := string(b)
	for _, want := range []string{
		"=== test: node 7, life 1 (start)", "life 1 of its state", "in " + dir + ", wrapped=yes",
		"=== test: node 7, life 2 (recover)", "life 2 of its state", "SIGTERM: state saved",
		"=== test: node 7, life 3 (fresh)", "life 1 of its state",
	} {
		i := strings.Index(rest, want)
		if i < 0 {
			t.Fatalf("the log lacks %q after what came before:\n%s", want, b)
		}
		rest = rest[i+len(want):]
	}
}

// TestUnplannedExit: a node over a Unix socket, killed by someone else,
// is reported once as ended on its own, and can be started again.
func TestUnplannedExit(t *testing.T) {
	dir := t.TempDir()
	spec := nodeSpec(dir, Endpoint{"unix", filepath.Join(dir, "s")}, "node")
	var mu sync.Mutex
	var exits []error
	exited := make(chan struct{}, 1)
	spec.OnExit = func(err error) {
		mu.Lock()
		exits = append(exits, err)
		mu.Unlock()
		exited <- struct{}{}
	}
	p := New(spec)
	up(t, p, Start)
	if v := value(t, p); v != 1 {
		t.Fatalf("value %d over the socket, want 1", v)
	}
	syscall.Kill(p.Info().PID, syscall.SIGKILL)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("no unplanned exit reported within 5 s")
	}
	mu.Lock()
	if len(exits) != 1 || exits[0] == nil || !strings.Contains(exits[0].Error(), "killed") {
		t.Errorf("exits reported: %v", exits)
	}
	mu.Unlock()
	if in := p.Info(); in.State != Exited || in.State.Alive() {
		t.Errorf("after its own end: %+v", in)
	}
	if _, err := p.Stop(time.Second); !errors.Is(err, ErrNotRunning) {
		t.Errorf("stopping an exited node: %v", err)
	}
	up(t, p, Recover)
	if v := value(t, p); v != 2 {
		t.Errorf("the node's second life found %d in its state, want 2", v)
	}
}

// TestAwaitUpEnded: a node that fails as it starts is an error that shows
// how it ended and what it wrote, and an exit of its own.
func TestAwaitUpEnded(t *testing.T) {
	dir := t.TempDir()
	spec := nodeSpec(dir, freeTCP(t), "crash")
	exited := make(chan error, 1)
	spec.OnExit = func(err error) { exited <- err }
	p := New(spec)
	if err := p.Launch(Start); err != nil {
		t.Fatal(err)
	}
	err := p.AwaitUp(context.Background(), 10*time.Second)
	if err == nil {
		t.Fatal("AwaitUp of a node that exits at once: no error")
	}
	for _, want := range []string{"node 7 ended as it started (exit status 3)", "--- end of " + spec.Log, "bad config: no such algorithm"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
	select {
	case err := <-exited:
		if err == nil {
			t.Error("OnExit got no error")
		}
	case <-time.After(5 * time.Second):
		t.Error("the exit was not reported as one of its own")
	}
}

// TestAwaitUpTimeout: a node that never answers is killed when the wait
// gives up, and the error names where it was asked.
func TestAwaitUpTimeout(t *testing.T) {
	dir := t.TempDir()
	ep := Endpoint{"unix", filepath.Join(dir, "s")}
	spec := nodeSpec(dir, ep, "mute")
	spec.OnExit = func(error) { t.Error("a node killed by AwaitUp is reported as ended on its own") }
	p := New(spec)
	if err := p.Launch(Start); err != nil {
		t.Fatal(err)
	}
	pid := p.Info().PID
	err := p.AwaitUp(context.Background(), 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "node 7 did not answer on unix:"+ep.Address+" within 300ms") {
		t.Fatalf("AwaitUp: %v", err)
	}
	if in := p.Info(); in.State != Killed || !gone(pid) {
		t.Errorf("a node that did not answer is left %+v", in)
	}
}

// TestParentDies: on Linux a node dies with its supervisor, even one
// killed with no chance to end it.
func TestParentDies(t *testing.T) {
	if goruntime.GOOS != "linux" {
		t.Skip("the parent-death signal is Linux's")
	}
	dir := t.TempDir()
	parent := exec.Command(os.Args[0], dir)
	parent.Env = append(os.Environ(), roleVar+"=parent")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer parent.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	child, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("the supervisor said %q, not its node's pid", line)
	}
	parent.Process.Kill()
	parent.Wait()
	if !gone(child) {
		syscall.Kill(child, syscall.SIGKILL)
		t.Errorf("node pid %d outlived its killed supervisor", child)
	}
}
