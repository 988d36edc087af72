package node

import (
	"context"
	"net"
	"net/http"
	"sync"
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

// httpGuard holds the connections of one of the node's HTTP listeners.
//
// A listener that stops accepting at its cap (netutil.LimitListener, as
// before) leaves the rest in the kernel's accept queue, and every idle
// connection it took holds its slot until the header timeout: 128 slots
// for 5 s each admit 25 connections a second, so 20,000 idle connections
// kept /healthz unanswered for minutes, and a probe's SYN waited behind a
// full queue. The guard instead accepts at once, always, and decides:
//
//   - a source (an IPv4 address, an IPv6 /64) holds perSource connections
//     at most: past that, its own oldest idle connection makes room (or
//     the newcomer takes a reserve slot, below), so one source cannot
//     crowd out the others;
//   - when the max slots are all held, the oldest idle connection of the
//     source that holds the most makes room: a connection that sent no
//     request yet, or waits between requests, costs its client nothing to
//     open again, and a flood evicts itself before anyone else;
//   - when no regular slot can be had (all busy with requests: streams;
//     or the source's own, at its bound), reserve slots more serve GET
//     /healthz alone, once each, a source one at a time, so that a
//     liveness probe is answered whatever holds the others.
//
// A connection evicted or refused is reset (linger 0), so that neither
// side keeps it in TIME_WAIT. Everything is O(held) per accepted
// connection, held being max+reserve at most.
type httpGuard struct {
	max, perSource, reserve int

	mu       sync.Mutex
	conns    map[net.Conn]*heldConn
	bySource map[string]int // regular slots held, by source
	reserved int            // reserve slots held
	evicted  int            // idle connections closed to make room
	refused  int            // connections closed at once, no room made
}

// heldConn is what the guard knows of one connection it holds.
type heldConn struct {
	source string // "" for a Unix socket: no bound of its own
	// idle: no request in progress (http.StateNew, before a request has
	// been read whole, or http.StateIdle between requests).
	idle    bool
	since   time.Time // when it last became idle
	reserve bool      // holds a reserve slot: GET /healthz only
}

func newHTTPGuard(max, perSource, reserve int) *httpGuard {
	return &httpGuard{max: max, perSource: perSource, reserve: reserve,
		conns: map[net.Conn]*heldConn{}, bySource: map[string]int{}}
}

// listener is ln under the guard: its Accept returns only the connections
// the guard holds, and never waits for room.
func (g *httpGuard) listener(ln net.Listener) net.Listener { return guardedListener{ln, g} }

// server arms srv with the guard: the guard follows its connections'
// states, and its handler serves the reserve slots' one request only.
func (g *httpGuard) server(srv *http.Server) *http.Server {
	srv.ConnState = g.state
	srv.ConnContext = g.connContext
	srv.Handler = g.handler(srv.Handler)
	return srv
}

type guardedListener struct {
	net.Listener
	g *httpGuard
}

func (l guardedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.g.admit(c, time.Now()) {
			return c, nil
		}
	}
}

// connSource is the bound a connection from a counts against: its IPv4
// address, or its IPv6 /64, which one host is commonly given whole.
func connSource(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return ""
	}
	if ip := tcp.IP.To4(); ip != nil {
		return ip.String()
	}
	return tcp.IP.Mask(net.CIDRMask(64, 128)).String()
}

// admit decides on c, just accepted: held (true), or reset.
func (g *httpGuard) admit(c net.Conn, now time.Time) bool {
	src := connSource(c.RemoteAddr())
	h := &heldConn{source: src, idle: true, since: now}
	g.mu.Lock()
	// room: a slot for c, once victim (if any) is evicted.
	room, victim := true, net.Conn(nil)
	switch {
	case src != "" && g.bySource[src] >= g.perSource:
		victim = g.oldestIdle(func(o *heldConn) bool { return !o.reserve && o.source == src }, false)
		room = victim != nil
	case len(g.conns)-g.reserved >= g.max:
		victim = g.oldestIdle(func(o *heldConn) bool { return !o.reserve }, true)
		room = victim != nil
	}
	if !room {
		// No regular slot: a reserve one, for GET /healthz. A source
		// holds one at most, its newest, so that no source holds the
		// reserve from the others; when all are held, the oldest idle
		// makes room.
		h.reserve = true
		var own net.Conn
		for o, oh := range g.conns {
			if oh.reserve && oh.source == src && src != "" {
				own = o
			}
		}
		switch {
		case own != nil:
			if g.conns[own].idle && !waiting(own) {
				victim = own
			}
		case g.reserved < g.reserve:
			room = true
		default:
			victim = g.oldestIdle(func(o *heldConn) bool { return o.reserve }, false)
		}
		room = room || victim != nil
	}
	if !room {
		g.refused++
		g.mu.Unlock()
		resetConn(c)
		return false
	}
	if victim != nil {
		g.forget(victim)
		g.evicted++
	}
	g.conns[c] = h
	if h.reserve {
		g.reserved++
	} else {
		g.bySource[src]++
	}
	g.mu.Unlock()
	if victim != nil {
		resetConn(victim)
	}
	return true
}

// oldestIdle is the idle connection among those of which says true that
// has been idle longest; with biggest, among those of the source that
// holds the most connections (a flood's). A connection with a request
// waiting to be read is not idle, though its server has not seen it yet:
// under a flood from its own source, a probe would otherwise be evicted
// before its goroutine reads it. It is called with g.mu held.
func (g *httpGuard) oldestIdle(which func(*heldConn) bool, biggest bool) net.Conn {
	var busy map[net.Conn]bool
	for {
		c := g.oldest(which, biggest, busy)
		if c == nil || !waiting(c) {
			return c
		}
		if busy == nil {
			busy = map[net.Conn]bool{}
		}
		busy[c] = true
	}
}

// oldest is oldestIdle's pick, but for the connections in skip and
// without looking for waiting requests.
func (g *httpGuard) oldest(which func(*heldConn) bool, biggest bool, skip map[net.Conn]bool) net.Conn {
	var best net.Conn
	var bh *heldConn
	for c, h := range g.conns {
		if !h.idle || !which(h) || skip[c] {
			continue
		}
		if bh != nil {
			if biggest && g.bySource[h.source] != g.bySource[bh.source] {
				if g.bySource[h.source] < g.bySource[bh.source] {
					continue
				}
			} else if !h.since.Before(bh.since) {
				continue
			}
		}
		best, bh = c, h
	}
	return best
}

// forget drops c from what the guard holds; with g.mu held.
func (g *httpGuard) forget(c net.Conn) {
	h := g.conns[c]
	if h == nil {
		return
	}
	delete(g.conns, c)
	if h.reserve {
		g.reserved--
	} else if g.bySource[h.source]--; g.bySource[h.source] <= 0 {
		delete(g.bySource, h.source)
	}
}

// state follows the server's connections (http.Server.ConnState).
func (g *httpGuard) state(c net.Conn, s http.ConnState) {
	g.mu.Lock()
	defer g.mu.Unlock()
	h := g.conns[c]
	if h == nil {
		return // evicted already, or never held
	}
	switch s {
	case http.StateActive:
		h.idle = false
	case http.StateIdle:
		h.idle, h.since = true, time.Now()
	case http.StateClosed, http.StateHijacked:
		g.forget(c)
	}
}

// counts are the connections held, evicted and refused so far.
func (g *httpGuard) counts() (held, evicted, refused int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.conns), g.evicted, g.refused
}

type heldKey struct{}

// connContext hands a request the guard's record of its connection.
func (g *httpGuard) connContext(ctx context.Context, c net.Conn) context.Context {
	g.mu.Lock()
	h := g.conns[c]
	g.mu.Unlock()
	if h == nil {
		return ctx
	}
	return context.WithValue(ctx, heldKey{}, h)
}

// handler serves h, but on a reserve slot GET /healthz alone and once:
// the slot is there for a liveness probe while streams hold the rest.
func (g *httpGuard) handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// reserve is set before the connection is served and never changes.
		if held, _ := r.Context().Value(heldKey{}).(*heldConn); held != nil && held.reserve {
			w.Header().Set("Connection", "close")
			if r.Method != http.MethodGet || r.URL.Path != "/healthz" {
				http.Error(w, "busy: every connection is taken; only GET /healthz is answered now", http.StatusServiceUnavailable)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// resetConn closes c at once, with a reset rather than a FIN: a connection
// refused or evicted leaves nothing in TIME_WAIT.
func resetConn(c net.Conn) {
	if tcp, ok := c.(*net.TCPConn); ok {
		tcp.SetLinger(0)
	}
	c.Close()
}
