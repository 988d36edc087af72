package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/node"
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
	cutFrom, cutTo      string // gray failures (node.Gray)
	clockRate           float64
	slow                time.Duration
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
	fl.StringVar(&f.http, "http", "", "serve /status, /status/stream, /metrics, /healthz, GET /gray, and POST /elect and /gray (on --admin instead when given) on this address: HOST:PORT, :PORT (loopback), or unix:PATH for a Unix socket; beyond loopback it needs a key or --insecure")
	fl.StringVar(&f.admin, "admin", "", "serve POST /elect and /gray, with all that --http serves, on this address apart, for operators: unix:PATH (a socket file only this user may open) or HOST:PORT; --http then serves reading only (POST there: 403)")
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
	fl.StringVar(&f.cutFrom, "cut-from", "", "gray failure: drop the datagrams of these peers (IDS: 3,7) as they arrive, as if never sent: a link cut one way, where it arrives (POST /gray changes it)")
	fl.StringVar(&f.cutTo, "cut-to", "", "gray failure: send nothing to these peers (IDS: 3,7)")
	fl.Float64Var(&f.clockRate, "clock-rate", 1, "gray failure: the algorithm's clock runs at this rate (0.8: 20% slow; 1.2: 20% fast), its timers too")
	fl.DurationVar(&f.slow, "slow", 0, "gray failure: handle every input this much late (a long GC pause, a swapping host)")
	fl.StringVar(&f.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fl.StringVar(&f.logFormat, "log-format", "text", "log format: text or json (on stderr)")
	return cmd
}

// config turns the flags into a node.Config (node.Settings), naming the
// flag at fault; --http and --admin become the addresses to serve.
func (f *nodeFlags) config(cmd *cobra.Command) (node.Config, error) {
	st := node.Settings{
		ID: f.id, Value: f.value, Listen: f.listen, Peers: f.peers, HTTP: f.http, Admin: f.admin,
		KeyFile: f.keyFile, StateDir: f.stateDir, Algorithm: f.algo, Params: f.params,
		Cluster: f.cluster, Hello: f.hello, HelloLoss: f.helloLoss, Broadcast: f.broadcast,
		Faults: f.faults, Initiator: f.initiator, Size: f.size, CrashOn: f.crashOn,
		Corrupt: f.corrupt, Insecure: f.insecure, LogLevel: f.logLevel, LogFormat: f.logFormat,
		CutFrom: f.cutFrom, CutTo: f.cutTo, ClockRate: f.clockRate, Slow: f.slow,
		LogOutput: cmd.ErrOrStderr(), Label: func(key string) string { return "--" + key },
	}
	cfg, serve, err := st.Config()
	if err == nil {
		f.http, f.admin = serve.HTTP, serve.Admin
	}
	return cfg, err
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
