package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/trace"
	"github.com/electgo/elect/viz"
)

// liveServer shows a run on a web page while it goes (--serve).
type liveServer struct {
	*viz.LiveServer
	live *viz.Live // the run's observer
}

// serveLive starts the page of a run with header h on addr.
func serveLive(cmd *cobra.Command, addr string, h trace.Header) (*liveServer, error) {
	s, err := viz.ListenLive(addr, h, func(err error) {
		fmt.Fprintf(cmd.ErrOrStderr(), "elect: --serve: %v\n", err)
	})
	var le *viz.ListenError
	if errors.As(err, &le) {
		return nil, fmt.Errorf("--serve: %w", le.Err)
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "watch the run at %s\n", s.URL)
	return &liveServer{s, s.Live}, nil
}

// finish marks the run over and keeps the page up until ctx ends (Ctrl-C),
// so that it can still be replayed.
func (ls *liveServer) finish(ctx context.Context, cmd *cobra.Command) {
	ls.Live.Close()
	fmt.Fprintf(cmd.ErrOrStderr(), "the run is over; its page stays at %s until Ctrl-C\n", ls.URL)
	<-ctx.Done()
	ls.close()
}

func (ls *liveServer) close() { ls.Close() }
