package cli

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// The node's HTTP server faces whatever can reach its address: every
// phase of a request is bounded in time, headers and bodies in size, and
// the connections held at once in number, in all and from each source,
// so that idle or slow clients cannot exhaust the node's file descriptors
// or stall it, nor shut out the others (httpGuard).
const (
	httpMaxConns      = 128
	httpMaxPerSource  = 32 // a quarter: one address never holds them all
	httpReserveConns  = 8  // beyond httpMaxConns, for GET /healthz alone
	httpHeaderTimeout = 5 * time.Second
	httpReadTimeout   = 10 * time.Second
	httpWriteTimeout  = 10 * time.Second // /status/stream sets its own per line
	httpIdleTimeout   = 60 * time.Second
	httpMaxHeader     = 8 << 10
)

// newHTTPServer is the node's server for h.
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: httpHeaderTimeout, ReadTimeout: httpReadTimeout,
		WriteTimeout: httpWriteTimeout, IdleTimeout: httpIdleTimeout, MaxHeaderBytes: httpMaxHeader}
}

// guarded serves srv on ln under a guard of the node's bounds.
func guarded(srv *http.Server, ln net.Listener) (*http.Server, net.Listener) {
	g := newHTTPGuard(httpMaxConns, httpMaxPerSource, httpReserveConns)
	return g.server(srv), g.listener(ln)
}

// httpAddr reads --http: a port alone (":8000") binds loopback, not every
// interface; unix:PATH is a socket file. It says whether the address
// reaches beyond this machine.
func httpAddr(addr string) (string, bool, error) {
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
	return net.JoinHostPort(host, port), !loopback(host), nil
}

// guardedAddr reads the address of an HTTP flag that serves POST /elect
// (--http, --admin): beyond loopback it needs the key, or --insecure. It
// says whether the address reaches beyond this machine.
func guardedAddr(flag, value string, keyed, insecure bool) (string, bool, error) {
	addr, wide, err := httpAddr(value)
	if err != nil {
		return "", false, fmt.Errorf("%s %w", flag, err)
	}
	if wide && !keyed && !insecure {
		return "", false, fmt.Errorf("%s %s reaches beyond this machine and there is no --key-file to guard POST /elect; give --key-file, serve on loopback or unix:PATH, or --insecure", flag, value)
	}
	return addr, wide, nil
}

// loopback says whether host names this machine only.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// warnWide logs that the node's HTTP is served beyond loopback.
func warnWide(log *slog.Logger, addr string, keyed bool) {
	what := "anyone who reaches it reads the status; POST /elect needs the credential derived from the key"
	if !keyed {
		what = "anyone who reaches it reads the status and may start elections (--insecure, no key)"
	}
	log.Warn("HTTP served beyond loopback", "http", addr, "exposure", what)
}
