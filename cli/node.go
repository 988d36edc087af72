package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/runtime"
)

// nodeFlags are elect node's options.
type nodeFlags struct {
	id, value           int64
	listen, peers, http string
	admin               string
	keyFile, stateDir   string
	algo                string
	params              []string
	cluster             uint32
	hello               time.Duration
	helloLoss           int
	broadcast           string
	faults              string
	initiator           bool
	size                int
	crashOn             string
	corrupt             bool
	insecure            bool
	logLevel, logFormat string
}

func newNodeCmd() *cobra.Command {
	var f nodeFlags
	cmd := &cobra.Command{
		Use:   "node --id N --listen ADDR [--peers ID=ADDR,...] [flags]",
		Short: "Run one real node that elects over UDP",
		Long:  helpText("node"),
		Example: `  elect node --id 0 --listen 127.0.0.1:7000 --peers 1=127.0.0.1:7001,2=127.0.0.1:7002 --http 127.0.0.1:8000
  curl -s 127.0.0.1:8000/status`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("id") {
				return errors.New("--id is required")
			}
			if !cmd.Flags().Changed("value") {
				f.value = f.id
			}
			cfg, err := f.config(cmd)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runNode(ctx, cfg, &f)
		},
	}
	fl := cmd.Flags()
	fl.Int64Var(&f.id, "id", 0, "this node's id (required; a non-negative integer)")
	fl.Int64Var(&f.value, "value", 0, "this node's value, its desirability as leader (default: its id)")
	fl.StringVar(&f.listen, "listen", "", "UDP address to listen on, HOST:PORT (required)")
	fl.StringVar(&f.peers, "peers", "", "the other nodes: ID=HOST:PORT,... (hello beacons go to each)")
	fl.StringVar(&f.http, "http", "", "serve /status, /status/stream, /metrics, /healthz and POST /elect (on --admin instead when given) on this address: HOST:PORT, :PORT (loopback), or unix:PATH for a Unix socket; beyond loopback it needs a key or --insecure")
	fl.StringVar(&f.admin, "admin", "", "serve POST /elect, with all that --http serves, on this address apart, for operators: unix:PATH (a socket file only this user may open) or HOST:PORT; --http then serves reading only (POST /elect there: 403)")
	fl.BoolVar(&f.insecure, "insecure", false, "run without a key on an address beyond loopback (UDP or HTTP): anyone who reaches it can forge datagrams and start elections")
	fl.StringVar(&f.keyFile, "key-file", "", "a file holding the cluster's shared key: datagrams are signed with HMAC-SHA256 and unsigned ones refused")
	fl.StringVar(&f.stateDir, "state-dir", "", "keep what recovery needs in this directory")
	fl.StringVar(&f.algo, "algo", node.DefaultAlgorithm, "the election algorithm: any registered one (elect algos): one that does not tolerate loss runs over reliable links, one that is not spontaneous elects where --initiator or POST /elect asks, one written for a ring or a complete network needs --size")
	fl.StringArrayVarP(&f.params, "param", "p", nil, "algorithm parameter NAME=VALUE (repeatable), e.g. heartbeat=1s")
	fl.Uint32Var(&f.cluster, "cluster", 0, "cluster id: nodes ignore datagrams of other clusters")
	fl.DurationVar(&f.hello, "hello", node.DefaultHello, "interval between hello beacons")
	fl.IntVar(&f.helloLoss, "hello-loss", node.DefaultHelloLoss, "a neighbour is lost after this many beacon intervals without a datagram from it")
	fl.StringVar(&f.broadcast, "broadcast", "", "also send hello beacons to this broadcast address, HOST:PORT (e.g. 10.0.0.255:7000)")
	fl.BoolVar(&f.initiator, "initiator", false, "elect right after booting, as a run's initiators do: how algorithms that are not spontaneous (echo, chang-roberts) start (POST /elect also does). A spontaneous algorithm's node starts its own election at boot and is asked for no second: every bully node does; a vkt or park node does unless -p initiators=SET leaves it out, and --initiator puts it in")
	fl.IntVar(&f.size, "size", 0, "fix the network: its nodes are 0..N-1 and this node's neighbours exactly --peers (a ring's two, a complete network's N-1); what an algorithm for a ring or a complete network needs")
	fl.StringVar(&f.crashOn, "crash-on", "", "fault injection: die when the first message of this type arrives (e.g. gather), as the ring document's dead node does")
	fl.BoolVar(&f.corrupt, "corrupt", false, "fault injection: alter the payload of every message this node sends, as the ring document's joker does")
	fl.StringVar(&f.faults, "faults", "", "inject faults into what this node sends, where the kernel cannot (no tc netem): loss=P,duplicate=P,delay=D,jitter=D,seed=N, e.g. loss=0.2,jitter=10ms")
	fl.StringVar(&f.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fl.StringVar(&f.logFormat, "log-format", "text", "log format: text or json (on stderr)")
	return cmd
}

// config turns the flags into a node.Config, naming the flag at fault.
func (f *nodeFlags) config(cmd *cobra.Command) (node.Config, error) {
	var cfg node.Config
	if f.id < 0 || f.id > 1<<31-1 {
		return cfg, fmt.Errorf("--id %d: want a non-negative 32-bit integer", f.id)
	}
	if f.listen == "" {
		return cfg, errors.New("--listen is required (e.g. --listen 127.0.0.1:7000)")
	}
	peers, err := node.ParsePeers(f.peers)
	if err != nil {
		return cfg, fmt.Errorf("--peers: %w", err)
	}
	params := map[string]string{}
	for _, p := range f.params {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return cfg, fmt.Errorf("--param %q: want NAME=VALUE", p)
		}
		params[k] = v
	}
	logger, err := newLogger(cmd, f.logLevel, f.logFormat)
	if err != nil {
		return cfg, err
	}
	cfg = node.Config{
		ID: algo.NodeID(f.id), Value: f.value, Algorithm: f.algo, Params: params,
		Cluster: f.cluster, Peers: peers, Hello: f.hello, HelloLoss: f.helloLoss,
		StateDir: f.stateDir, Logger: logger, Initiator: f.initiator,
		Size: f.size, CrashOn: f.crashOn, Corrupt: f.corrupt,
	}
	if f.size < 0 {
		return cfg, fmt.Errorf("--size %d: want the number of nodes of the fixed network", f.size)
	}
	if f.hello <= 0 {
		return cfg, fmt.Errorf("--hello %v: want a positive duration", f.hello)
	}
	if f.helloLoss < 1 {
		return cfg, fmt.Errorf("--hello-loss %d: want at least 1", f.helloLoss)
	}
	if f.broadcast != "" {
		if cfg.Broadcast, err = node.ResolveAddr(f.broadcast); err != nil {
			return cfg, fmt.Errorf("--broadcast: %w", err)
		}
	}
	if f.keyFile != "" {
		key, err := runtime.ReadKeyFile(f.keyFile)
		if err != nil {
			return cfg, fmt.Errorf("--key-file: %w", err)
		}
		cfg.Key = key
	}
	faults, err := runtime.ParseFaults(f.faults)
	if err != nil {
		return cfg, fmt.Errorf("--faults: %w", err)
	}
	// Secure by default: beyond loopback, a key, unless told otherwise.
	listenHost, _, err := net.SplitHostPort(f.listen)
	if err != nil {
		return cfg, fmt.Errorf("--listen %q: want HOST:PORT (%v)", f.listen, err)
	}
	if !node.Loopback(listenHost) && cfg.Key == nil && !f.insecure {
		return cfg, fmt.Errorf("--listen %s reaches beyond this machine and there is no --key-file: anyone who reaches it could forge datagrams and lead the cluster; give --key-file (the same file on every node), or --insecure to run so anyway", f.listen)
	}
	if f.http != "" {
		addr, err := guardedAddr("--http", f.http, cfg.Key != nil, f.insecure)
		if err != nil {
			return cfg, err
		}
		f.http = addr
	}
	if f.admin != "" {
		addr, err := guardedAddr("--admin", f.admin, cfg.Key != nil, f.insecure)
		if err != nil {
			return cfg, err
		}
		if addr == f.http {
			return cfg, fmt.Errorf("--admin %s is the --http address: give the operators an address of their own", f.admin)
		}
		f.admin = addr
	}
	// The listen address is opened last: a bad flag after it would leave
	// nothing open.
	tr, err := runtime.ListenUDP(f.listen)
	if err != nil {
		return cfg, fmt.Errorf("--listen: %w", err)
	}
	cfg.Transport = tr
	if faults != (runtime.Faults{}) {
		cfg.Transport, _ = runtime.NewFaulty(tr, faults) // valid: parsed above
		logger.Warn("injecting faults into what this node sends", "faults", faults.String())
	}
	return cfg, nil
}

// newLogger builds the node's slog logger on stderr.
func newLogger(cmd *cobra.Command, level, format string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(cmd.ErrOrStderr(), opts)), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", format)
}

// runNode runs the node of cfg until ctx ends, and its HTTP servers on
// --http and --admin (node.Serve).
func runNode(ctx context.Context, cfg node.Config, f *nodeFlags) error {
	n, err := node.New(cfg)
	if err != nil {
		cfg.Transport.Close()
		return err
	}
	return n.Serve(ctx, node.ServeOptions{HTTP: f.http, Admin: f.admin, Insecure: f.insecure,
		HTTPName: "--http", AdminName: "--admin"})
}

// guardedAddr reads the address of an HTTP flag that serves POST /elect
// (--http, --admin), as node.Serve does, naming the flag: beyond loopback
// it needs the key, or --insecure.
func guardedAddr(flag, value string, keyed, insecure bool) (string, error) {
	addr, _, err := node.GuardedHTTPAddr(value, keyed, insecure)
	if errors.Is(err, node.ErrUnguardedHTTP) {
		return "", fmt.Errorf("%s %s reaches beyond this machine and there is no --key-file to guard POST /elect; give --key-file, serve on loopback or unix:PATH, or --insecure", flag, value)
	}
	if err != nil {
		return "", fmt.Errorf("%s %w", flag, err)
	}
	return addr, nil
}
