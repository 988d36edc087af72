package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/trace"
	"github.com/electgo/elect/viz"
)

// liveServer shows a run on a web page while it goes (--serve).
type liveServer struct {
	live *viz.Live
	srv  *http.Server
	url  string
}

// serveLive starts the page of a run with header h on addr.
func serveLive(cmd *cobra.Command, addr string, h trace.Header) (*liveServer, error) {
	live, err := viz.NewLive(h)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		live.Release()
		return nil, fmt.Errorf("--serve: %w", err)
	}
	ls := &liveServer{live: live, url: fmt.Sprintf("http://%s/", ln.Addr()),
		srv: &http.Server{Handler: live.Handler(), ReadHeaderTimeout: 5 * time.Second}}
	go func() {
		if err := ls.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(cmd.ErrOrStderr(), "elect: --serve: %v\n", err)
		}
	}()
	fmt.Fprintf(cmd.ErrOrStderr(), "watch the run at %s\n", ls.url)
	return ls, nil
}

// finish marks the run over and keeps the page up until ctx ends (Ctrl-C),
// so that it can still be replayed.
func (ls *liveServer) finish(ctx context.Context, cmd *cobra.Command) {
	ls.live.Close()
	fmt.Fprintf(cmd.ErrOrStderr(), "the run is over; its page stays at %s until Ctrl-C\n", ls.url)
	<-ctx.Done()
	ls.close()
}

func (ls *liveServer) close() {
	shut, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	ls.srv.Shutdown(shut)
	ls.live.Release()
}
