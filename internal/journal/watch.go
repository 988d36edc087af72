package journal

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/supervisor"
	"github.com/electgo/elect/trace"
)

// Watch reads the /status/stream of life life of node id, which p runs,
// and journals each status as a StatusChanged event at the time the node
// made the change (the time it is read, for a node that has made none),
// never before time 0. It returns when the stream ends, with ctx, or once
// the life has ended: a life ended by its driver (killed, stopped) says no
// more from the moment its signal goes. seen, when not nil, hears each
// status of the life once it is journaled; logf hears of a line that
// cannot be read.
func (j *Journal) Watch(ctx context.Context, p *supervisor.Process, id, life int, seen func(*node.StatusJSON), logf func(format string, args ...any)) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.URL("/status/stream"), nil)
	resp, err := p.Client().Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var st node.StatusJSON
		if err := json.Unmarshal(sc.Bytes(), &st); err != nil {
			logf("node %d: unreadable status line: %v", id, err)
			continue
		}
		status, err := Status(&st)
		if err != nil {
			logf("node %d: %v", id, err)
			continue
		}
		if in := p.Info(); in.Life != life || !in.State.Alive() {
			return
		}
		at := j.Since(time.Unix(0, st.ChangedUnixNS))
		if st.ChangedUnixNS == 0 {
			at = j.Since(time.Now())
		}
		j.Add(trace.Event{At: max(at, 0), Kind: trace.StatusChanged, Node: algo.NodeID(id), Peer: algo.None, Status: status})
		if seen != nil {
			seen(&st)
		}
	}
}

// Status is a node's /status as the checker takes it.
func Status(st *node.StatusJSON) (algo.Status, error) {
	state, err := algo.ParseState(st.State)
	if err != nil {
		return algo.Status{}, err
	}
	return algo.Status{Leader: st.Leader, State: state, Index: algo.Index{Num: st.Computation.Num, ID: st.Computation.ID}}, nil
}
