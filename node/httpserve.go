package node

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ServeOptions says where Serve serves the node's HTTP API. Its addresses
// are HOST:PORT, :PORT (on loopback, not every interface) or unix:PATH
// for a Unix socket, as HTTPAddr reads them; beyond loopback, either
// needs the node's key (Config.Key: POST /elect, POST /gray and POST
// /value then need the credential derived from it, HTTPToken) or Insecure.
type ServeOptions struct {
	// HTTP serves Handler: /status, /status/stream, /metrics, /healthz,
	// GET /gray, POST /elect, POST /gray and POST /value; with Admin, ReadHandler
	// (reading only: the POSTs answer 403). "" serves nothing there.
	HTTP string
	// Admin serves Handler on an address apart, for operators; a unix:PATH
	// socket file there only this user may open (0600). It must not be
	// HTTP's address. "" serves nothing there.
	Admin string
	// Insecure serves beyond loopback without a key: anyone who reaches
	// the address may start elections.
	Insecure bool
	// HTTPName and AdminName name the addresses in errors and logs
	// (default "http" and "admin"); elect node passes its flags.
	HTTPName, AdminName string
}

// ErrUnguardedHTTP is the error of an address that would serve POST /elect
// beyond this machine without a key to guard it (GuardedHTTPAddr).
var ErrUnguardedHTTP = errors.New("reaches beyond this machine and there is no key to guard POST /elect")

// Serve runs the node as Run does, until ctx ends, and its HTTP servers
// as opts says, each under the node's bounds: every phase of a request
// is bounded in time, headers and bodies in size, and the connections
// held at once in number, in all (128) and from each source (32, an IPv4
// address or an IPv6 /64), with 8 more for GET /healthz alone, so that
// idle or slow clients cannot exhaust the node's file descriptors, stall
// it, or keep a liveness probe unanswered. It closes the transport when
// it returns, as Run does, also when an address is refused or cannot be
// listened on; an HTTP server that fails while the node runs ends it.
func (n *Node) Serve(ctx context.Context, opts ServeOptions) error {
	httpName, adminName := cmp.Or(opts.HTTPName, "http"), cmp.Or(opts.AdminName, "admin")
	keyed := n.cfg.Key != nil
	check := func(name, value string) (string, bool, error) {
		addr, wide, err := GuardedHTTPAddr(value, keyed, opts.Insecure)
		if errors.Is(err, ErrUnguardedHTTP) {
			return "", false, fmt.Errorf("%s %w; give the node a key (Config.Key), serve on loopback or unix:PATH, or serve insecure (ServeOptions.Insecure)", name, err)
		}
		if err != nil {
			return "", false, fmt.Errorf("%s %w", name, err)
		}
		return addr, wide, nil
	}
	addr, admin := opts.HTTP, opts.Admin
	var wide bool
	var err error
	if addr != "" {
		addr, wide, err = check(httpName, addr)
	}
	if err == nil && admin != "" {
		if admin, _, err = check(adminName, admin); err == nil && sameAddr(admin, addr) {
			err = fmt.Errorf("%s %s is the %s address: give the operators an address of their own", adminName, opts.Admin, httpName)
		}
	}
	if err != nil {
		n.cfg.Transport.Close()
		return err
	}
	if wide {
		what := "anyone who reaches it reads the status; POST /elect needs the credential derived from the key"
		if !keyed {
			what = "anyone who reaches it reads the status and may start elections (served insecure, no key)"
		}
		n.log.Warn("HTTP served beyond loopback", "http", addr, "exposure", what)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var servers []*http.Server
	serve := func(name, addr string, h http.Handler, private bool) error {
		ln, err := ListenHTTP(addr, private)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		srv, ln := guarded(newHTTPServer(h), ln)
		servers = append(servers, srv)
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				n.log.Error("http", "flag", name, "err", err)
				cancel()
			}
		}()
		return nil
	}
	if addr != "" {
		h := n.Handler()
		if admin != "" {
			h = n.ReadHandler()
		}
		err = serve(httpName, addr, h, false)
	}
	if err == nil && admin != "" {
		err = serve(adminName, admin, n.Handler(), true)
	}
	defer func() {
		shut, done := context.WithTimeout(context.Background(), time.Second)
		defer done()
		for _, srv := range servers {
			srv.Shutdown(shut)
		}
	}()
	if err != nil {
		n.cfg.Transport.Close()
		return err
	}
	n.log.Info("node started", "node", n.cfg.ID, "algorithm", n.cfg.Algorithm, "listen", n.cfg.Transport.LocalAddr(),
		"peers", len(n.cfg.Peers), "http", addr, "admin", admin)
	return n.Run(ctx)
}

// ListenHTTP listens on addr: HOST:PORT over TCP, or unix:PATH on a Unix
// socket (what the emulator uses: a file reaches into a node's network
// namespace where no address of the host does). A socket file left by an
// earlier life of the node is replaced. With private, the socket file is
// made so that only this user may open it (0600).
func ListenHTTP(addr string, private bool) (net.Listener, error) {
	path, ok := strings.CutPrefix(addr, "unix:")
	if !ok {
		return net.Listen("tcp", addr)
	}
	if path == "" {
		return nil, fmt.Errorf("%q has no socket path", addr)
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
		os.Remove(path)
	}
	ln, err := net.Listen("unix", path)
	if err == nil && private {
		if err = os.Chmod(path, 0o600); err != nil {
			ln.Close()
		}
	}
	return ln, err
}

// HTTPAddr reads the address of an HTTP server of the node: a port alone
// (":8000") binds loopback, not every interface; unix:PATH is a socket
// file. It gives the address to listen on, and says whether it reaches
// beyond this machine.
func HTTPAddr(addr string) (string, bool, error) {
	if strings.HasPrefix(addr, "unix:") {
		return addr, false, nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", false, fmt.Errorf("%q: want HOST:PORT, :PORT or unix:PATH (%v)", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), !Loopback(host), nil
}

// GuardedHTTPAddr is HTTPAddr for an address that serves POST /elect:
// beyond loopback it needs the cluster's key (keyed), or insecure, or its
// error wraps ErrUnguardedHTTP.
func GuardedHTTPAddr(addr string, keyed, insecure bool) (string, bool, error) {
	a, wide, err := HTTPAddr(addr)
	if err != nil {
		return "", false, err
	}
	if wide && !keyed && !insecure {
		return "", false, fmt.Errorf("%s %w", addr, ErrUnguardedHTTP)
	}
	return a, wide, nil
}

// Loopback says whether host names this machine only: localhost, or a
// loopback address.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// sameAddr says whether two checked addresses are one: the same socket
// file however its path is written (unix:n.sock, unix:./n.sock), or the
// same host and port, a port 0 being a different one each time.
func sameAddr(a, b string) bool {
	pa, ua := strings.CutPrefix(a, "unix:")
	pb, ub := strings.CutPrefix(b, "unix:")
	if ua || ub {
		if !ua || !ub {
			return false
		}
		fa, errA := filepath.Abs(pa)
		fb, errB := filepath.Abs(pb)
		return errA == nil && errB == nil && fa == fb
	}
	_, port, err := net.SplitHostPort(a)
	return a == b && err == nil && port != "0"
}
