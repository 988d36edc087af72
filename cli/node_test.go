package cli

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/node"
	"github.com/electgo/elect/runtime"
)

// TestNodeBadFlags: elect node names the flag at fault and exits 1.
func TestNodeBadFlags(t *testing.T) {
	short := filepath.Join(t.TempDir(), "key")
	os.WriteFile(short, []byte("tiny\n"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"node", "--listen", "127.0.0.1:0"}, "--id is required"},
		{[]string{"node", "--id", "1"}, "--listen is required"},
		{[]string{"node", "--id", "-4", "--listen", "127.0.0.1:0"}, "--id -4"},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--peers", "2:127.0.0.1:7"}, `--peers: peer 1 "2:127.0.0.1:7": want ID=HOST:PORT`},
		{[]string{"node", "--id", "1", "--listen", "nowhere"}, `--listen "nowhere": want HOST:PORT`},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--algo", "ring"}, "algorithm ring assumes a fixed ring network (Model.Topology)"},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--param", "heartbeat"}, `--param "heartbeat": want NAME=VALUE`},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--param", "beat=1s"}, `vkt has no parameter "beat"`},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--key-file", short}, "the key has 4 bytes; use at least 16"},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--log-level", "loud"}, `--log-level "loud"`},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--hello-loss", "0"}, "--hello-loss 0"},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--faults", "loss=0.3,drop=1"}, `--faults: faults: unknown fault "drop"`},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--faults", "loss=1.5"}, "--faults: faults: loss 1.5: want a probability in [0, 1)"},
		// Secure by default (issue 20): beyond loopback, a key or --insecure.
		{[]string{"node", "--id", "1", "--listen", "0.0.0.0:0"}, "--listen 0.0.0.0:0 reaches beyond this machine and there is no --key-file"},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--http", "0.0.0.0:0"}, "--http 0.0.0.0:0 reaches beyond this machine and there is no --key-file to guard POST /elect"},
		{[]string{"node", "--id", "1", "--listen", "127.0.0.1:0", "--http", "8000"}, `--http "8000": want HOST:PORT, :PORT or unix:PATH`},
	} {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			code, _, errOut := cli(t, c.args...)
			if code != ExitError || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 1 and one line holding %q", code, errOut, c.want)
			}
		})
	}
}

// --faults puts the node's sends through the faults given.
func TestNodeFaults(t *testing.T) {
	f := nodeFlags{id: 1, listen: "127.0.0.1:0", faults: "loss=0.25,jitter=5ms,seed=3", algo: node.DefaultAlgorithm,
		hello: node.DefaultHello, helloLoss: node.DefaultHelloLoss, logLevel: "error", logFormat: "text"}
	cfg, err := f.config(newNodeCmd())
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Transport.Close()
	if _, ok := cfg.Transport.(*runtime.Faulty); !ok {
		t.Errorf("transport %T, want the faults around the UDP socket", cfg.Transport)
	}
}

// Beyond loopback a node runs with a key, or with --insecure; --http :PORT
// binds loopback.
func TestNodeSecureByDefault(t *testing.T) {
	key := filepath.Join(t.TempDir(), "key")
	if _, err := runtime.NewKeyFile(key); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f    nodeFlags
		http string // the address served, "" for an error
	}{
		{nodeFlags{listen: "0.0.0.0:0", keyFile: key, http: ":0"}, "127.0.0.1:0"},
		{nodeFlags{listen: "0.0.0.0:0", insecure: true, http: "0.0.0.0:0"}, "0.0.0.0:0"},
		{nodeFlags{listen: "0.0.0.0:0", http: ":0"}, ""},
		{nodeFlags{listen: "127.0.0.1:0", http: "unix:/tmp/x.sock"}, "unix:/tmp/x.sock"},
	} {
		f := c.f
		f.id, f.algo, f.hello, f.helloLoss, f.logLevel, f.logFormat = 1, node.DefaultAlgorithm, node.DefaultHello, node.DefaultHelloLoss, "error", "text"
		cfg, err := f.config(newNodeCmd())
		if err == nil {
			cfg.Transport.Close()
		}
		switch {
		case c.http == "" && err == nil:
			t.Errorf("%+v: accepted", c.f)
		case c.http != "" && (err != nil || f.http != c.http):
			t.Errorf("%+v: %v, serving %q, want %q", c.f, err, f.http, c.http)
		}
	}
}

// With --admin, operators change the node on an address of their own (a
// socket file only its user may open) and --http serves reading only.
func TestNodeAdminListener(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "key")
	secret, err := runtime.NewKeyFile(key)
	if err != nil {
		t.Fatal(err)
	}
	base := nodeFlags{id: 1, algo: node.DefaultAlgorithm, hello: node.DefaultHello, helloLoss: node.DefaultHelloLoss,
		logLevel: "error", logFormat: "text", listen: "127.0.0.1:0", keyFile: key}
	for _, c := range []struct{ http, admin, insecure, want string }{
		{"unix:" + dir + "/a", "unix:" + dir + "/a", "", "an address of their own"},
		{"", "0.0.0.0:0", "", "--admin 0.0.0.0:0 reaches beyond this machine"},
		{"", "nohost", "", "--admin \"nohost\": want HOST:PORT"},
	} {
		f := base
		f.http, f.admin, f.keyFile = c.http, c.admin, ""
		if c.admin == "unix:"+dir+"/a" {
			f.keyFile = key
		}
		cfg, err := f.config(newNodeCmd())
		if err == nil {
			cfg.Transport.Close()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--http %q --admin %q: %v, want an error saying %q", c.http, c.admin, err, c.want)
		}
	}

	f := base
	f.http, f.admin = "unix:"+dir+"/http.sock", "unix:"+dir+"/admin.sock"
	runNodeUntilEnd(t, f)
	client := func(sock string) *http.Client {
		return &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, "unix", filepath.Join(dir, sock))
			}}}
	}
	do := func(sock, method, path string) int {
		req, _ := http.NewRequest(method, "http://node"+path, nil)
		req.Header.Set("Authorization", "Bearer "+node.HTTPToken(secret))
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
		t.Errorf("the operators' socket: %v, mode %v, want 0600", err, fi.Mode().Perm())
	}
}
