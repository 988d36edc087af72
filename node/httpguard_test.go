package node

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/electgo/elect/runtime"
)

// fakeConn is a connection from an address, that records its closing.
type fakeConn struct {
	net.Conn
	from   net.Addr
	closed atomic.Bool
}

func (c *fakeConn) RemoteAddr() net.Addr { return c.from }
func (c *fakeConn) Close() error         { c.closed.Store(true); return nil }

func connFrom(ip string) *fakeConn {
	return &fakeConn{from: &net.TCPAddr{IP: net.ParseIP(ip), Port: 1}}
}

// TestHTTPGuardPolicy: which connection makes room, and when a reserve
// slot is given.
func TestHTTPGuardPolicy(t *testing.T) {
	g := newHTTPGuard(3, 2, 2)
	t0 := time.Unix(0, 0)
	a1, a2, a3, a4 := connFrom("10.0.0.1"), connFrom("10.0.0.1"), connFrom("10.0.0.1"), connFrom("10.0.0.1")
	b1, c1, c2, c3, c4, d1 := connFrom("10.0.0.2"), connFrom("10.0.0.3"), connFrom("10.0.0.3"), connFrom("10.0.0.3"), connFrom("10.0.0.3"), connFrom("10.0.0.4")
	s := 0
	admit := func(c *fakeConn, want bool, closed ...*fakeConn) {
		t.Helper()
		s++
		if got := g.admit(c, t0.Add(time.Duration(s)*time.Second)); got != want {
			t.Fatalf("admit %v at %d s: %v, want %v", c.from, s, got, want)
		}
		for _, o := range closed {
			if !o.closed.Load() {
				t.Fatalf("admit %v at %d s: %v not evicted", c.from, s, o.from)
			}
		}
	}
	busy := func(c *fakeConn) { g.state(c, http.StateActive) }
	admit(a1, true)
	admit(a2, true)
	admit(a3, true, a1) // A is at its bound: its oldest idle makes room
	busy(a3)            // reading a request: not idle
	admit(b1, true)     // 3 held (a2, a3, b1): full now
	busy(b1)
	admit(c1, true, a2) // full: the biggest source's (A's) oldest idle
	if b1.closed.Load() || a3.closed.Load() {
		t.Fatal("a busy connection was evicted")
	}
	busy(c1)
	admit(c2, true)     // all three busy: a reserve slot
	admit(c3, true, c2) // C's reserve is idle: its newest takes it
	busy(c3)
	admit(c4, false)    // C's reserve is busy: one a source
	admit(a4, true)     // A at its bound, all busy: a reserve slot
	admit(d1, true, a4) // both reserve slots held: the idle one
	if held, evicted, refused := g.counts(); held != 5 || evicted != 4 || refused != 1 {
		t.Fatalf("held %d evicted %d refused %d, want 5 4 1", held, evicted, refused)
	}
	g.state(a3, http.StateClosed)
	e1 := connFrom("10.0.0.5")
	admit(e1, true) // a3's slot is free again: a regular one
	if g.conns[e1].reserve || g.reserved != 2 || len(g.conns) != 5 {
		t.Fatalf("after a regular slot is freed: reserve %v, %d reserved of %d held; want false, 2 of 5", g.conns[e1].reserve, g.reserved, len(g.conns))
	}

	// A reserve slot answers GET /healthz only, and closes after it.
	h := g.handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	for _, c := range []struct {
		reserve bool
		path    string
		want    int
	}{{false, "/status", 200}, {true, "/healthz", 200}, {true, "/status", 503}} {
		r := httptest.NewRequest("GET", c.path, nil)
		r = r.WithContext(context.WithValue(r.Context(), heldKey{}, &heldConn{reserve: c.reserve}))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.want || c.reserve != (w.Header().Get("Connection") == "close") {
			t.Errorf("reserve %v GET %s: %d, Connection %q; want %d", c.reserve, c.path, w.Code, w.Header().Get("Connection"), c.want)
		}
	}
}

// holdIdle opens n connections to addr, many at once, and sends nothing
// on them: the connections a flood leaves idle. A dial that fails (the
// accept queue is full: its SYN went unanswered for a second) is made
// again, for 20 s at most. It gives the connections it opened.
func holdIdle(addr string, n int) (conns []net.Conn) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	left := atomic.Int64{}
	left.Store(int64(n))
	end := time.Now().Add(20 * time.Second)
	for range 256 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for left.Add(-1) >= 0 {
				c, err := net.DialTimeout("tcp", addr, time.Second)
				for err != nil && time.Now().Before(end) {
					c, err = net.DialTimeout("tcp", addr, time.Second)
				}
				if err != nil {
					continue
				}
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return conns
}

// TestHTTPFloodHolder is not a test: TestNodeHTTPIdleFlood runs it in a
// process of its own (ELECT_TEST_HOLD=ADDR,N) to hold connections past
// this process's file limit. It says how many opened, then holds them
// until its input closes.
func TestHTTPFloodHolder(t *testing.T) {
	spec := os.Getenv("ELECT_TEST_HOLD")
	if spec == "" {
		t.Skip("a helper of TestNodeHTTPIdleFlood")
	}
	addr, count, _ := strings.Cut(spec, ",")
	n, _ := strconv.Atoi(count)
	conns := holdIdle(addr, n)
	fmt.Printf("opened %d\n", len(conns))
	io.Copy(io.Discard, os.Stdin)
}

// TestNodeHTTPIdleFlood is issue 31 D: 20,000 idle connections to a
// node's HTTP port (on loopback, from one source) must leave /healthz
// answering, each probe within a second, while the flood comes and
// after. Behind a cap that stopped accepting, 0 of the probes answered.
func TestNodeHTTPIdleFlood(t *testing.T) {
	total := 20000
	if testing.Short() {
		total = 2000
	}
	// Two helpers hold half the flood each: each within its file limit
	// (20,000 here), raised to the hard one.
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < lim.Max {
		lim.Cur = lim.Max
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	half := total / 2
	if room := int(lim.Cur) - 500; half > room {
		t.Logf("file limit %d: %d connections in each process rather than %d", lim.Cur, room, half)
		half = room
	}

	addr := startNodeHTTP(t)

	// The probes come from 127.0.0.2, the flood from 127.0.0.1: a liveness
	// probe comes from the orchestrator's address, not the attacker's. (A
	// probe from the flood's own address can be reset as the idlest of its
	// 32 while the flood still arrives: docs/runtime.md says so.)
	dialer := &net.Dialer{Timeout: time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	if c, err := dialer.Dial("tcp", addr); err != nil {
		t.Logf("probing from 127.0.0.1, as 127.0.0.2 is not usable here: %v", err)
		dialer.LocalAddr = nil
	} else {
		c.Close()
	}
	probe := func() (time.Duration, error) {
		client := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true, DialContext: dialer.DialContext}}
		start := time.Now()
		resp, err := client.Get("http://" + addr + "/healthz")
		if err != nil {
			return time.Since(start), err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return time.Since(start), fmt.Errorf("%s", resp.Status)
		}
		return time.Since(start), nil
	}
	// The flood: two helper processes, half each, at once. Not this
	// process: its dialers would take the scheduler from the probes'
	// clients, which an attacker elsewhere does not.
	opened := make(chan int, 2)
	for range 2 {
		helper := exec.Command(os.Args[0], "-test.run=^TestHTTPFloodHolder$")
		helper.Env = append(os.Environ(), fmt.Sprintf("ELECT_TEST_HOLD=%s,%d", addr, half))
		stdin, _ := helper.StdinPipe()
		stdout, _ := helper.StdoutPipe()
		if err := helper.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { stdin.Close(); helper.Wait() }()
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				if n, ok := strings.CutPrefix(sc.Text(), "opened "); ok {
					k, _ := strconv.Atoi(n)
					opened <- k
					return
				}
			}
			opened <- 0
		}()
	}

	// Probes while the flood comes, then 10 after it: each within 1 s.
	// While it comes, the flood's dialers on this machine take their share
	// of its cores from the node's acceptor, so that the accept queue may
	// be full a moment and a probe's SYN wait for its retransmission (1 s):
	// three in four then; all after.
	type tally struct{ answered, failed []string }
	var during, after tally
	check := func(t *tally) {
		d, err := probe()
		if err != nil {
			t.failed = append(t.failed, fmt.Sprintf("%v after %v", err, d.Round(time.Millisecond)))
		} else {
			t.answered = append(t.answered, d.Round(time.Millisecond).String())
		}
	}
	n := 0
	for got := 0; got < 2; {
		select {
		case k := <-opened:
			n += k
			got++
		case <-time.After(100 * time.Millisecond):
			check(&during)
		}
	}
	for range 10 {
		check(&after)
		time.Sleep(100 * time.Millisecond)
	}
	for _, c := range []struct {
		when string
		t    tally
		min  float64
	}{{"while the flood came", during, 0.75}, {"after it", after, 1}} {
		all := len(c.t.answered) + len(c.t.failed)
		t.Logf("%s, %d idle connections opened of %d: /healthz answered %d of %d probes in %v",
			c.when, n, 2*half, len(c.t.answered), all, c.t.answered)
		if c.min < 1 && all < 4 {
			// A short flood (-short) comes in a few probes' time: too few
			// to tell a share from chance; those after it are judged.
			continue
		}
		if float64(len(c.t.answered)) >= c.min*float64(all) && len(c.t.failed) > 0 {
			t.Logf("unanswered:\n%s", strings.Join(c.t.failed, "\n"))
		} else if len(c.t.failed) > 0 {
			t.Errorf("/healthz %s: %d of %d probes unanswered within 1 s, more than %.0f%%:\n%s",
				c.when, len(c.t.failed), all, 100*(1-c.min), strings.Join(c.t.failed, "\n"))
		}
	}
}

// startNodeHTTP serves a node's HTTP on a loopback port (Serve), until
// the test ends, and gives that address once /healthz answers.
func startNodeHTTP(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	tr, err := runtime.ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	n, err := New(Config{ID: 1, Transport: tr, Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))})
	if err != nil {
		tr.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Serve(ctx, ServeOptions{HTTP: addr}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	for i := 0; ; i++ {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			return addr
		}
		if i == 50 {
			t.Fatalf("no /healthz: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// getFrom sends GET path to addr from the loopback address src, and
// gives the status line of the answer, read within 1 s, and the
// connection (open: a stream goes on).
func getFrom(addr, src, path string) (string, net.Conn, error) {
	d := net.Dialer{Timeout: time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	c.SetDeadline(time.Now().Add(time.Second))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: node\r\n\r\n", path)
	line, err := bufio.NewReader(c).ReadString('\n')
	c.SetDeadline(time.Time{})
	if err != nil {
		c.Close()
		return "", nil, err
	}
	return strings.TrimSpace(line), c, nil
}

// TestNodeHTTPStreamsLeaveHealthz: when streams hold every connection the
// node serves (128, from 4 sources of 32, each's bound), a liveness probe
// still gets an answer, on a reserve slot that serves GET /healthz alone.
// Behind a cap alone, the probe waited for a stream to end.
func TestNodeHTTPStreamsLeaveHealthz(t *testing.T) {
	addr := startNodeHTTP(t)
	var streams []net.Conn
	defer func() {
		for _, c := range streams {
			c.Close()
		}
	}()
	for i := range httpMaxConns {
		src := fmt.Sprintf("127.0.0.%d", 1+i/httpMaxPerSource)
		line, c, err := getFrom(addr, src, "/status/stream")
		if err != nil && i >= httpMaxPerSource && strings.Contains(err.Error(), "assign requested address") {
			t.Skipf("no loopback address %s here: %v", src, err)
		}
		if err != nil || line != "HTTP/1.1 200 OK" {
			t.Fatalf("stream %d from %s: %q %v", i, src, line, err)
		}
		streams = append(streams, c)
	}
	for _, c := range []struct{ src, path, want string }{
		{"127.0.0.9", "/healthz", "HTTP/1.1 200 OK"},
		{"127.0.0.9", "/status", "HTTP/1.1 503 Service Unavailable"},
		{"127.0.0.1", "/healthz", "HTTP/1.1 200 OK"}, // a source at its bound, all its connections busy
	} {
		// A reserve slot serves a source one connection at a time: the
		// probe before this one may not be released yet when this one
		// comes (the guard resets a connection it has no room for), so a
		// reset is tried again for a moment; an answer is judged at once.
		var line string
		var err error
		for try := 0; try < 40; try++ {
			var conn net.Conn
			line, conn, err = getFrom(addr, c.src, c.path)
			if conn != nil {
				conn.Close()
			}
			if err == nil || !strings.Contains(err.Error(), "reset") {
				break
			}
			time.Sleep(25 * time.Millisecond)
		}
		if line != c.want {
			t.Errorf("GET %s from %s with every connection streaming: %q %v, want %q", c.path, c.src, line, err, c.want)
		}
	}
}

// TestHTTPGuardSource: an IPv6 host's /64 is one source.
func TestHTTPGuardSource(t *testing.T) {
	for _, c := range []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.ParseIP("10.1.2.3")}, "10.1.2.3"},
		{&net.TCPAddr{IP: net.ParseIP("::ffff:10.1.2.3")}, "10.1.2.3"},
		{&net.TCPAddr{IP: net.ParseIP("2001:db8:1:2:aaaa::1")}, "2001:db8:1:2::"},
		{&net.TCPAddr{IP: net.ParseIP("::1")}, "::"},
		{&net.UnixAddr{Name: "@", Net: "unix"}, ""},
	} {
		if got := connSource(c.addr); got != c.want {
			t.Errorf("connSource(%v) = %q, want %q", c.addr, got, c.want)
		}
	}
}
