package node

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// StatusJSON is the body of GET /status: a stable interface for scripts,
// `elect cluster` and the emulator. Fields are added, never renamed.
type StatusJSON struct {
	ID            algo.NodeID `json:"id"`
	Value         int64       `json:"value"`
	Algorithm     string      `json:"algorithm"`
	Cluster       uint32      `json:"cluster"`
	Leader        algo.NodeID `json:"leader"` // -1: none
	State         string      `json:"state"`  // Norm, Elect or Wait
	Leading       bool        `json:"leading"`
	ElectionIndex uint64      `json:"election_index"`
	// FencingToken is Status.FencingToken: the leader's token, or the
	// highest a follower knows of. Fenced says it is the node's own.
	FencingToken uint64        `json:"fencing_token"`
	Fenced       bool          `json:"fenced"`
	Computation  IndexJSON     `json:"computation"`
	Neighbors    []algo.NodeID `json:"neighbors"`
	UptimeMS     float64       `json:"uptime_ms"`
	ChangedMS    float64       `json:"changed_ms_ago"`
	// ChangedUnixNS is when the status last changed, in nanoseconds since
	// the Unix epoch (0 before the first change): the exact time of a
	// change that a watcher on the same machine reads later.
	ChangedUnixNS int64   `json:"changed_unix_ns"`
	LeaderlessMS  float64 `json:"leaderless_ms"`
	// FirstElectionUnixNS is when the node first left Norm (an election
	// began for it: Elect or Wait), 0 if it never has: with ChangedUnixNS,
	// what a watcher times an election from.
	FirstElectionUnixNS int64        `json:"first_election_unix_ns"`
	Counters            CountersJSON `json:"counters"`
	// Pulse is Status.Pulse: for a synchronous algorithm, the pulse in
	// which the status last changed.
	Pulse int64 `json:"pulse"`
	// Reports are the algorithm's latest reports (Node.Reports), oldest
	// first: what a control process is told.
	Reports []ReportJSON `json:"reports"`
	// Starting is Status.Starting: the machine has not booted yet, so
	// leader is -1 and state Norm for want of any, while election_index
	// and fencing_token are already the recovered ones.
	Starting bool `json:"starting"`
	// Gray is the node's gray failures (Node.Gray), when it has any:
	// what the node suffers, beside what it does.
	Gray *Gray `json:"gray,omitempty"`
}

// ReportJSON is one report of the algorithm.
type ReportJSON struct {
	Seq    uint64 `json:"seq"`
	UnixNS int64  `json:"unix_ns"`
	What   string `json:"what"`
}

// IndexJSON is a computation index <num, id>.
type IndexJSON struct {
	Num uint32      `json:"num"`
	ID  algo.NodeID `json:"id"`
}

// CountersJSON are the node's totals, as /metrics has them.
type CountersJSON struct {
	Sent          map[string]uint64 `json:"sent"`
	Received      map[string]uint64 `json:"received"`
	Rejected      map[string]uint64 `json:"rejected"`
	HellosSent    uint64            `json:"hellos_sent"`
	HellosRecv    uint64            `json:"hellos_received"`
	Unroutable    uint64            `json:"unroutable"`
	Elections     uint64            `json:"elections"`
	LeaderChanges uint64            `json:"leader_changes"`
	// The runtime's own traffic, apart from the algorithm's messages:
	// reliable links' retransmissions and bare acknowledgements, their
	// failures, and the synchronizer's safe messages.
	LinkRetransmits uint64 `json:"link_retransmits"`
	LinkAcks        uint64 `json:"link_acks"`
	LinkFailures    uint64 `json:"link_failures"`
	SyncMessages    uint64 `json:"sync_messages"`
	// Broadcasts are the algorithm messages (among Sent) that went as one
	// datagram to the broadcast address.
	Broadcasts uint64 `json:"broadcasts"`
	// MessageBytes are the bytes of the datagrams that carried algorithm
	// messages, as sent (signed when the node has a key).
	MessageBytes uint64 `json:"message_bytes"`
	// KernelDrops are datagrams for this node that its socket's receive
	// buffer had no room for (Linux; 0 where the system does not tell).
	KernelDrops uint64 `json:"kernel_drops"`
}

// StatusJSON returns what GET /status serves.
func (n *Node) StatusJSON() StatusJSON { return n.statusJSON(n.Status(), time.Now()) }

// statusJSON renders st, with the counters as they are at now.
func (n *Node) statusJSON(st Status, now time.Time) StatusJSON {
	c := &n.metrics
	out := StatusJSON{
		ID: st.ID, Value: st.Value, Algorithm: st.Algorithm, Cluster: st.Cluster,
		Leader: st.Leader, State: st.State.String(), Leading: st.Leading(),
		ElectionIndex: st.ElectionIndex, FencingToken: st.FencingToken, Fenced: st.Fenced, Computation: IndexJSON{st.Computation.Num, st.Computation.ID},
		Neighbors: st.Neighbors, Pulse: st.Pulse, Starting: st.Starting,
		LeaderlessMS: ms(c.leaderlessTotal(now)), FirstElectionUnixNS: c.firstElectionNS(),
		Counters: CountersJSON{
			Sent: map[string]uint64{}, Received: map[string]uint64{}, Rejected: map[string]uint64{},
			HellosSent: c.hellosSent.Load(), HellosRecv: c.hellosReceived.Load(), Unroutable: c.unroutable.Load(),
			Elections: c.elections.Load(), LeaderChanges: c.leaderChanges.Load(),
			LinkRetransmits: c.retransmits.Load(), LinkAcks: c.acks.Load(), LinkFailures: c.linkFailures.Load(),
			SyncMessages: c.syncSent.Load(), Broadcasts: c.broadcasts.Load(),
			MessageBytes: c.messageBytes.Load(), KernelDrops: n.kernelDrops(),
		},
	}
	if g := n.Gray(); !g.healthy() {
		out.Gray = &g
	}
	if !n.startedAt().IsZero() {
		out.UptimeMS = ms(now.Sub(n.startedAt()))
	}
	if !st.Changed.IsZero() {
		out.ChangedMS = ms(now.Sub(st.Changed))
		out.ChangedUnixNS = st.Changed.UnixNano()
	}
	for i, name := range n.names {
		out.Counters.Sent[name] = c.sent[i].Load()
		out.Counters.Received[name] = c.received[i].Load()
	}
	out.Reports = []ReportJSON{}
	for _, r := range n.Reports() {
		out.Reports = append(out.Reports, ReportJSON{Seq: r.Seq, UnixNS: r.At.UnixNano(), What: r.What})
	}
	for r := range runtime.NumReasons {
		if v := c.rejected[r].Load(); v > 0 {
			out.Counters.Rejected[runtime.Reason(r).String()] = v
		}
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Handler serves
//
//   - GET /status: the status as JSON (StatusJSON);
//   - GET /status/stream: the status as JSON lines, the current one at once
//     and then one line per change, for as long as the client reads (what
//     Subscribe gives, over HTTP);
//   - POST /elect: asks the node to start an election (Elect), 202 Accepted;
//   - POST /gray: replaces the node's gray failures (SetGray) with those of
//     its body, a JSON Gray ({"cut_from": [3], "clock_rate": 0.8,
//     "clock_jump_ns": -1000000000, "slow_ns": 50000000}; {} heals it),
//     and answers 200 with the state now (as GET /gray). A body that is not
//     one such object (an unknown field, a wrong type) or a bad value (a
//     rate not above 0 or above 100, a negative slow_ns, an id that is not
//     a listed peer) is refused, 400, with a message naming what is wrong,
//     and changes nothing;
//   - GET /gray: the node's gray failures as JSON (Gray: {} when healthy);
//   - POST /value: sets the node's value (SetValue) to its body's, a JSON
//     object {"value": 120} (any int64), and answers 200 with it
//     ({"value": 120}); GET /status shows it once the node's loop has
//     taken it. A body that is not one such object (no "value", an
//     unknown field, a value that is not an integer) is refused, 400,
//     with a message naming what is wrong, and changes nothing;
//   - GET /metrics: the counters in the Prometheus text format;
//   - GET /healthz: 200 while Run runs.
//
// The POSTs change the node, and are guarded alike: with a key
// (Config.Key), only a request carrying the credential derived from it
// (Authorization: Bearer HTTPToken(key)) is taken, 401 otherwise; its
// body, if any, is read whole first (1 KiB at most, 413 beyond), so that
// nothing happens before the request has arrived.
func (n *Node) Handler() http.Handler {
	mux := n.readHandler()
	mux.HandleFunc("POST /elect", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := n.operation(w, r); !ok {
			return
		}
		n.Elect()
		w.WriteHeader(http.StatusAccepted)
	})
	mux.HandleFunc("POST /gray", func(w http.ResponseWriter, r *http.Request) {
		body, ok := n.operation(w, r)
		if !ok {
			return
		}
		g, err := decodeGray(body)
		if err == nil {
			err = n.SetGray(g)
		}
		if err != nil {
			http.Error(w, "POST /gray: "+err.Error(), http.StatusBadRequest)
			return
		}
		writeJSON(w, n.Gray())
	})
	mux.HandleFunc("POST /value", func(w http.ResponseWriter, r *http.Request) {
		body, ok := n.operation(w, r)
		if !ok {
			return
		}
		v, err := decodeValue(body)
		if err != nil {
			http.Error(w, "POST /value: "+err.Error(), http.StatusBadRequest)
			return
		}
		n.SetValue(v.Value)
		writeJSON(w, v)
	})
	return mux
}

// ValueJSON is the body of POST /value, and its answer: the node's value
// (desirability).
type ValueJSON struct {
	Value int64 `json:"value"`
}

// decodeValue reads POST /value's body: one JSON object {"value": N},
// nothing else, N an integer.
func decodeValue(body []byte) (ValueJSON, error) {
	var in struct {
		Value *json.RawMessage `json:"value"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		if err == io.EOF {
			return ValueJSON{}, errors.New(`no body: want a JSON object {"value": N}, N an integer`)
		}
		return ValueJSON{}, fmt.Errorf("body: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return ValueJSON{}, errors.New("body: want one JSON object, and nothing after it")
	}
	if in.Value == nil || string(*in.Value) == "null" {
		return ValueJSON{}, errors.New(`body: no "value": want {"value": N}, N an integer`)
	}
	var v ValueJSON
	if err := json.Unmarshal(*in.Value, &v.Value); err != nil {
		return ValueJSON{}, fmt.Errorf("value %s: want an integer from %d to %d", *in.Value, int64(math.MinInt64), int64(math.MaxInt64))
	}
	return v, nil
}

// operation lets a state-changing request through: authorized, its body
// read whole (maxBody at most). Otherwise it answers the refusal itself
// and returns false.
func (n *Node) operation(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if !n.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="elect"`)
		http.Error(w, "unauthorized: "+r.Method+" "+r.URL.Path+" needs Authorization: Bearer <the token derived from the cluster key>", http.StatusUnauthorized)
		n.metrics.httpRefused.Add(1)
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		http.Error(w, "request body: "+err.Error(), http.StatusRequestEntityTooLarge)
		return nil, false
	}
	return body, true
}

// decodeGray reads POST /gray's body: one JSON object of Gray's fields,
// nothing else.
func decodeGray(body []byte) (Gray, error) {
	var g Gray
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		if err == io.EOF {
			return g, errors.New("no body: want a JSON object of cut_from, cut_to, clock_rate, clock_jump_ns and slow_ns ({} for none)")
		}
		return g, fmt.Errorf("body: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return g, errors.New("body: want one JSON object, and nothing after it")
	}
	return g, nil
}

// writeJSON answers v as indented JSON, 200.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// ReadHandler serves what Handler serves but its POSTs: a node's status,
// gray failures and metrics for whoever may read them, on an address apart
// from the one its operators change it through (elect node --http with
// --admin). A POST /elect, POST /gray or POST /value there is refused,
// 403, whatever credential it carries.
func (n *Node) ReadHandler() http.Handler {
	mux := n.readHandler()
	for _, op := range []string{"POST /elect", "POST /gray", "POST /value"} {
		mux.HandleFunc(op, func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "forbidden: this address serves reading only; "+op+" goes to the node's operator address (elect node --admin)", http.StatusForbidden)
			n.metrics.httpRefused.Add(1)
		})
	}
	return mux
}

func (n *Node) readHandler() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, n.StatusJSON())
	})
	mux.HandleFunc("GET /gray", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, n.Gray())
	})
	mux.HandleFunc("GET /status/stream", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		rc := http.NewResponseController(w)
		enc := json.NewEncoder(w)
		for st := range n.Subscribe(r.Context()) {
			// A server's write timeout would end a stream that is quiet
			// for long: each line gets a deadline of its own instead.
			rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
			if enc.Encode(n.statusJSON(st, time.Now())) != nil || rc.Flush() != nil {
				return
			}
			rc.SetWriteDeadline(time.Time{})
		}
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		n.WritePrometheus(w)
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-n.done:
			http.Error(w, "stopped", http.StatusServiceUnavailable)
			return
		default:
		}
		if n.startedAt().IsZero() {
			http.Error(w, "not started", http.StatusServiceUnavailable)
			return
		}
		if err := n.saveErr.Load(); err != nil {
			http.Error(w, "cannot save state: "+(*err).Error(), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	return mux
}

// startedAt is when Run started (zero before).
func (n *Node) startedAt() time.Time {
	if ns := n.started.Load(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}

// maxBody bounds the body of a request that changes state.
const maxBody = 1 << 10

// streamWriteTimeout bounds the write of one line of /status/stream to a
// client that does not read.
const streamWriteTimeout = 10 * time.Second

// HTTPToken is the credential that state-changing requests to a node with
// key must carry, as "Authorization: Bearer TOKEN": derived from the
// cluster's key (HMAC-SHA256 of a fixed label), so that whoever holds the
// key can compute it and nobody else, and it differs from every datagram
// tag.
func HTTPToken(key []byte) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("elect http token v1"))
	return hex.EncodeToString(mac.Sum(nil))
}

// authorized says whether r may change the node's state: always without a
// key (a node without one runs on loopback, or was told --insecure), else
// with the token, compared in constant time.
func (n *Node) authorized(r *http.Request) bool {
	if len(n.cfg.Key) == 0 {
		return true
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(n.httpToken)) == 1
}
