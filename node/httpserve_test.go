package node

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/runtime"
)

// TestServeAddresses: a port alone binds loopback, an address beyond it
// needs a key or Insecure, and Serve refuses what it cannot serve before
// it runs, closing the transport.
func TestServeAddresses(t *testing.T) {
	for _, c := range []struct {
		in, addr        string
		wide            bool
		keyed, insecure bool
		err             string
	}{
		{":8000", "127.0.0.1:8000", false, false, false, ""},
		{"localhost:1", "localhost:1", false, false, false, ""},
		{"[::1]:1", "[::1]:1", false, false, false, ""},
		{"unix:/tmp/x.sock", "unix:/tmp/x.sock", false, false, false, ""},
		{"0.0.0.0:0", "0.0.0.0:0", true, true, false, ""},
		{"0.0.0.0:0", "0.0.0.0:0", true, false, true, ""},
		{"0.0.0.0:0", "", false, false, false, "0.0.0.0:0 reaches beyond this machine and there is no key to guard POST /elect"},
		{"8000", "", false, false, false, `"8000": want HOST:PORT, :PORT or unix:PATH`},
	} {
		addr, wide, err := GuardedHTTPAddr(c.in, c.keyed, c.insecure)
		if addr != c.addr || wide != c.wide || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("GuardedHTTPAddr(%q, %v, %v) = %q, %v, %v; want %q, %v, %q", c.in, c.keyed, c.insecure, addr, wide, err, c.addr, c.wide, c.err)
		}
		if strings.Contains(c.err, "no key") && !errors.Is(err, ErrUnguardedHTTP) {
			t.Errorf("GuardedHTTPAddr(%q): %v, want ErrUnguardedHTTP", c.in, err)
		}
	}

	dir := t.TempDir()
	for _, c := range []struct {
		opts ServeOptions
		want string
	}{
		{ServeOptions{HTTP: "0.0.0.0:0"}, "http 0.0.0.0:0 reaches beyond this machine and there is no key to guard POST /elect"},
		{ServeOptions{Admin: "nohost", AdminName: "--admin"}, `--admin "nohost": want HOST:PORT`},
		{ServeOptions{HTTP: "unix:" + dir + "/a", Admin: "unix:" + dir + "/a"}, "an address of their own"},
		{ServeOptions{HTTP: "unix:"}, `http: "unix:" has no socket path`},
	} {
		ep := runtime.NewMemNetwork().Listen()
		n, err := New(Config{ID: 1, Transport: ep, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		if err := n.Serve(context.Background(), c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Serve %+v: %v, want an error saying %q", c.opts, err, c.want)
		}
		if _, _, err := ep.ReadFrom(make([]byte, 1)); !errors.Is(err, net.ErrClosed) {
			t.Errorf("Serve %+v: the transport is open after the refusal", c.opts)
		}
	}
}

// TestServeAdmin: with Admin, operators change the node on an address of
// their own (a socket file only its user may open) and HTTP serves
// reading only; both end with the node.
func TestServeAdmin(t *testing.T) {
	dir := t.TempDir()
	key := []byte("0123456789abcdef0123456789abcdef")
	n, err := New(Config{ID: 1, Key: key, Transport: runtime.NewMemNetwork().Listen(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- n.Serve(ctx, ServeOptions{HTTP: "unix:" + dir + "/http.sock", Admin: "unix:" + dir + "/admin.sock"})
	}()
	client := func(sock string) *http.Client {
		return &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, "unix", filepath.Join(dir, sock))
			}}}
	}
	do := func(sock, method, path string) int {
		req, _ := http.NewRequest(method, "http://node"+path, nil)
		req.Header.Set("Authorization", "Bearer "+HTTPToken(key))
		for range 50 { // until the sockets are there
			resp, err := client(sock).Do(req)
			if err == nil {
				resp.Body.Close()
				return resp.StatusCode
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("%s %s on %s: no answer", method, path, sock)
		return 0
	}
	for _, c := range []struct {
		sock, method, path string
		want               int
	}{
		{"http.sock", "GET", "/status", http.StatusOK},
		{"http.sock", "POST", "/elect", http.StatusForbidden}, // even with the credential
		{"admin.sock", "GET", "/metrics", http.StatusOK},
		{"admin.sock", "POST", "/elect", http.StatusAccepted},
	} {
		if got := do(c.sock, c.method, c.path); got != c.want {
			t.Errorf("%s %s on %s: %d, want %d", c.method, c.path, c.sock, got, c.want)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "admin.sock")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the operators' socket: %v, want mode 0600", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v, want nil after ctx ends", err)
	}
	if _, err := client("admin.sock").Get("http://node/healthz"); err == nil {
		t.Errorf("the operators' socket still answers after Serve returned")
	}
}

func TestSameAddr(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"unix:n.sock", "unix:./n.sock", true},
		{"unix:/run/a.sock", "unix:/run/b.sock", false},
		{"unix:n.sock", "127.0.0.1:80", false},
		{"127.0.0.1:8000", "127.0.0.1:8000", true},
		{"127.0.0.1:0", "127.0.0.1:0", false}, // two ports the kernel picks
		{"127.0.0.1:8000", "127.0.0.1:8001", false},
	} {
		if got := sameAddr(c.a, c.b); got != c.want {
			t.Errorf("sameAddr(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
