// Command raftnode runs one hashicorp/raft server as its own process, for the
// failover benchmark: a TCP transport on the given address, in-memory log and
// stable stores, snapshots discarded and a state machine that does nothing.
// Every node is bootstrapped with the full peer set, so the cluster elects as
// soon as enough of its processes are up.
//
// GET /status on the --http address answers
//
//	{"id": "2", "leader": "4", "state": "Follower"}
//
// with "leader" empty while the node knows no leader.
//
// Timing: --heartbeat-timeout is raft's HeartbeatTimeout, the time a
// follower goes without hearing from a leader before it becomes a candidate
// (checked by a timer of random length in [T, 2T)). The leader's heartbeats
// are not a setting of their own: hashicorp/raft sends them to each follower
// every HeartbeatTimeout/10 (a random wait in [T/10, T/5)), so a heartbeat
// timeout of 1s means a heartbeat about every 100ms.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/raft"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("raftnode: ")
	if err := run(os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("raftnode", flag.ContinueOnError)
	id := fs.String("id", "", "this server's id (must appear in --peers)")
	listen := fs.String("listen", "127.0.0.1:0", "raft TCP address to listen on")
	peers := fs.String("peers", "", "every server of the cluster, this one included: ID=HOST:PORT,ID=HOST:PORT,...")
	httpAddr := fs.String("http", "127.0.0.1:0", "address of the /status endpoint")
	heartbeat := fs.Duration("heartbeat-timeout", time.Second, "raft HeartbeatTimeout (the leader heartbeats every HeartbeatTimeout/10)")
	election := fs.Duration("election-timeout", time.Second, "raft ElectionTimeout (candidate's wait for votes)")
	lease := fs.Duration("lease", 500*time.Millisecond, "raft LeaderLeaseTimeout (at most --heartbeat-timeout)")
	logLevel := fs.String("log-level", "WARN", "raft's log level on stderr (TRACE, DEBUG, INFO, WARN, ERROR)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *id == "" {
		return errors.New("--id is required")
	}
	servers, err := parsePeers(*peers)
	if err != nil {
		return fmt.Errorf("--peers: %w", err)
	}
	self := false
	for _, s := range servers {
		if s.ID == raft.ServerID(*id) {
			self = true
			if string(s.Address) != *listen {
				return fmt.Errorf("--peers gives %s for id %s but --listen is %s", s.Address, *id, *listen)
			}
		}
	}
	if !self {
		return fmt.Errorf("--id %s is not in --peers", *id)
	}

	conf := raft.DefaultConfig()
	conf.LocalID = raft.ServerID(*id)
	conf.HeartbeatTimeout = *heartbeat
	conf.ElectionTimeout = *election
	conf.LeaderLeaseTimeout = *lease
	conf.LogOutput = os.Stderr
	conf.LogLevel = *logLevel
	if err := raft.ValidateConfig(conf); err != nil {
		return err
	}

	addr, err := net.ResolveTCPAddr("tcp", *listen)
	if err != nil {
		return fmt.Errorf("--listen: %w", err)
	}
	trans, err := raft.NewTCPTransport(*listen, addr, 3, 2*time.Second, os.Stderr)
	if err != nil {
		return fmt.Errorf("raft transport on %s: %w", *listen, err)
	}
	store := raft.NewInmemStore()
	r, err := raft.NewRaft(conf, fsm{}, store, store, raft.NewDiscardSnapshotStore(), trans)
	if err != nil {
		return err
	}
	if err := r.BootstrapCluster(raft.Configuration{Servers: servers}).Error(); err != nil {
		return fmt.Errorf("bootstrap: %w", err)
	}

	ln, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		return fmt.Errorf("--http: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, _ *http.Request) {
		_, leader := r.LeaderWithID()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(status{ID: *id, Leader: string(leader), State: r.State().String()})
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	select {
	case <-sig:
	case err := <-errc:
		return fmt.Errorf("http: %w", err)
	}
	srv.Close()
	return r.Shutdown().Error()
}

type status struct {
	ID     string `json:"id"`
	Leader string `json:"leader"`
	State  string `json:"state"`
}

// parsePeers reads ID=HOST:PORT,... into raft servers, all voters.
func parsePeers(s string) ([]raft.Server, error) {
	if s == "" {
		return nil, errors.New("empty")
	}
	var servers []raft.Server
	seen := map[string]bool{}
	for _, p := range strings.Split(s, ",") {
		id, addr, ok := strings.Cut(p, "=")
		if !ok || id == "" || addr == "" {
			return nil, fmt.Errorf("%q is not ID=HOST:PORT", p)
		}
		if seen[id] {
			return nil, fmt.Errorf("id %s given twice", id)
		}
		seen[id] = true
		servers = append(servers, raft.Server{Suffrage: raft.Voter, ID: raft.ServerID(id), Address: raft.ServerAddress(addr)})
	}
	return servers, nil
}

// fsm is a state machine with no state: the benchmark never applies
// anything, it only measures elections.
type fsm struct{}

func (fsm) Apply(*raft.Log) any                 { return nil }
func (fsm) Snapshot() (raft.FSMSnapshot, error) { return snapshot{}, nil }
func (fsm) Restore(rc io.ReadCloser) error      { return rc.Close() }

type snapshot struct{}

func (snapshot) Persist(sink raft.SnapshotSink) error { return sink.Close() }
func (snapshot) Release()                             {}
