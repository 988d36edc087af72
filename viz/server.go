package viz

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/electgo/elect/trace"
)

// newServer is the HTTP server of a page.
func newServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
}

// shutdown stops srv, waiting up to a second for requests under way.
func shutdown(srv *http.Server) {
	shut, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	srv.Shutdown(shut)
}

// Serve serves h on ln until ctx ends, then shuts the server down, waiting
// up to a second for requests under way. It returns the server's error,
// nil when it stopped because ctx ended.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := newServer(h)
	go func() {
		<-ctx.Done()
		shutdown(srv)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// LiveServer shows a run on a web page while it goes: the Live that the
// run's events are given to (an Observer), served over HTTP.
type LiveServer struct {
	// Live takes the run's events; Close it when the run is over.
	Live *Live
	// URL is the page's address, http://HOST:PORT/.
	URL string
	srv *http.Server
}

// ListenError is ListenLive's error when it cannot listen on its address.
type ListenError struct{ Err error }

func (e *ListenError) Error() string { return e.Err.Error() }

// Unwrap returns the listener's error.
func (e *ListenError) Unwrap() error { return e.Err }

// ListenLive starts the page of a run with header h on addr (HOST:PORT,
// port 0: any free one), served in a goroutine until Close. An error of
// the server after it started goes to onError (when not nil). It fails
// with a *ListenError when it cannot listen on addr.
func ListenLive(addr string, h trace.Header, onError func(error)) (*LiveServer, error) {
	live, err := NewLive(h)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		live.Release()
		return nil, &ListenError{err}
	}
	s := &LiveServer{Live: live, URL: fmt.Sprintf("http://%s/", ln.Addr()), srv: newServer(live.Handler())}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && onError != nil {
			onError(err)
		}
	}()
	return s, nil
}

// Close stops the server, waiting up to a second for requests under way,
// and releases the page's events.
func (s *LiveServer) Close() {
	shutdown(s.srv)
	s.Live.Release()
}
