package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/electgo/elect/cluster"
	"github.com/electgo/elect/node"
)

// newClusterCmd is elect cluster: a flag adapter over package cluster.
func newClusterCmd() *cobra.Command {
	var f clusterFlags
	cmd := &cobra.Command{
		Use:   "cluster [--nodes N] [--script FILE] [flags]",
		Short: "Run N real nodes on 127.0.0.1 and watch them elect; kill, restart and recover them",
		Long:  helpText("cluster"),
		Example: `  elect cluster --nodes 5
  elect cluster --nodes 8 --param heartbeat=200ms --param timeout=1s --hello 50ms
  elect cluster --script scenarios/cluster-scripts/failover.yaml --json
  elect cluster --algo ring --topology ring --nodes 4 --crash-on 2=gather --elect 0`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := f.config(cmd)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runCluster(ctx, cmd, cfg, f)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&f.nodes, "nodes", 0, "number of nodes, 1 to 200 (default 5, or what --topology or the script says)")
	fl.StringVar(&f.values, "values", "id", "node values: id (value = id), random (drawn with --seed), or a list V0,V1,... of one per node")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of random values and random topologies")
	fl.StringVar(&f.topology, "topology", "complete", "who lists whom as a peer: complete, line, ring, star, grid:WxH, tree, ... (elect sim's specs; N from --nodes); by default complete, or the network the algorithm's model needs (a ring for chang-roberts)")
	fl.StringVar(&f.algo, "algo", node.DefaultAlgorithm, "the election algorithm: any registered one, yours too (elect algos lists them)")
	fl.StringArrayVarP(&f.params, "param", "p", nil, "algorithm parameter NAME=VALUE (repeatable), e.g. heartbeat=200ms")
	fl.DurationVar(&f.hello, "hello", node.DefaultHello, "interval between hello beacons")
	fl.IntVar(&f.helloLoss, "hello-loss", node.DefaultHelloLoss, "a neighbour is lost after this many beacon intervals without a datagram from it")
	fl.StringVar(&f.keyFile, "key-file", "", "the cluster's shared key (see elect node --key-file)")
	fl.StringVar(&f.logLevel, "log-level", "info", "the nodes' log level: debug, info, warn or error")
	fl.IntVar(&f.basePort, "base-port", 0, "node i listens on UDP port P+i and serves HTTP on P+1000+i (default: free UDP ports, HTTP on Unix sockets DIR/s/N)")
	fl.StringVar(&f.dir, "dir", "", "directory of the nodes' state and logs (default: a temporary one); state found there is recovered")
	fl.BoolVar(&f.keep, "keep", false, "keep the temporary directory at the end")
	fl.StringVar(&f.script, "script", "", "run the steps of this YAML file, then end")
	fl.BoolVar(&f.json, "json", false, "print the final summary as one JSON object (the live output goes to stderr)")
	fl.DurationVar(&f.duration, "duration", 0, "end after this long (0: at q, Ctrl-C or the script's end)")
	fl.DurationVar(&f.poll, "poll", 0, "interval between polls of every node's /status (default 50ms, 2.5ms a node beyond 20)")
	fl.DurationVar(&f.refresh, "refresh", 200*time.Millisecond, "interval between redraws of the table on a terminal")
	fl.StringVar(&f.initiators, "initiators", "", "the nodes that start an election at boot, and no other: a node set like 0 or 0,3-5, all or none (default: the algorithm's, e.g. node 0 for ring and echo, all for chang-roberts and vkt); vkt's and park's nodes read it in their parameter initiators, the others' are started with --initiator; bully takes only all")
	fl.StringArrayVar(&f.crashOn, "crash-on", nil, "fault injection: NODE=TYPE makes NODE die on its first message of TYPE, e.g. 2=gather (repeatable)")
	fl.StringVar(&f.corrupt, "corrupt", "", "fault injection: these nodes (a node set) alter the payload of every message they send: the ring document's joker")
	fl.StringVar(&f.elect, "elect", "", "act as the ring document's control process: start an election at this node (POST /elect; no other node initiates unless --initiators says so), or none (the initiators start it: --initiators, or the algorithm's), wait until every live node follows the most valued one (--within), report the outcome and end: exit 0 when elected, 1 when not in time, 2 when a node's machine panicked")
	fl.StringVar(&f.faults, "faults", "", "inject faults into what every node sends (elect node --faults, each node seeded apart): loss=P,duplicate=P,delay=D,jitter=D,seed=N, e.g. loss=0.2")
	fl.DurationVar(&f.within, "within", 10*time.Second, "with --elect, how long to wait for the outcome")
	fl.StringVar(&f.trace, "trace", "", "write the run's events from every node, in time order, to this trace file (gzip when it ends in .gz): elect check re-checks it to the summary's verdict, elect viz draws it")
	return cmd
}

// runCluster starts the cluster (package cluster), runs it until the
// script ends, q, Ctrl-C or --duration, then prints the summary.
func runCluster(ctx context.Context, cmd *cobra.Command, cfg *clusterConfig, f clusterFlags) error {
	stdout := cmd.OutOrStdout()
	live := stdout
	if f.json {
		live = cmd.ErrOrStderr()
	}
	view := newClusterView(live)
	c, err := cfg.newCluster(cmd, func(l cluster.Line) {
		if l.Kind != cluster.LineChange || !view.tty { // on a terminal, the table shows the changes
			view.logf(l.At, "%s", l.Text)
		}
	})
	if err != nil {
		return err
	}
	defer c.Close() // whatever happens, no node outlives the command
	cc := c.Config()
	view.printf("elect cluster: starting %d nodes (%s on %s); logs and state in %s\n", cc.Nodes, cc.Algorithm, cc.Topology, cc.Dir)
	if err := c.Start(ctx); err != nil {
		return err
	}

	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	var bg sync.WaitGroup
	if view.tty {
		view.draw(liveLines(cc, c.Snapshot())) // the screen is laid out before any line below it
		view.logf(0, "logs and state in %s", cc.Dir)
		bg.Go(func() {
			t := time.NewTicker(cfg.refresh)
			defer t.Stop()
			for {
				view.draw(liveLines(cc, c.Snapshot()))
				select {
				case <-runCtx.Done():
					return
				case <-t.C:
				}
			}
		})
	}

	// What ends the run.
	quit := make(chan struct{})
	var quitOnce sync.Once
	doQuit := func() { quitOnce.Do(func() { close(quit) }) }
	scriptDone := make(chan error, 1)
	if cfg.Script != nil {
		go func() { scriptDone <- c.Run(runCtx, cfg.Script) }()
	}
	in := cmd.InOrStdin()
	inTTY := false
	if fi, ok := in.(*os.File); ok && term.IsTerminal(int(fi.Fd())) {
		inTTY = true
	}
	if cfg.Script == nil || inTTY {
		if inTTY {
			view.logf(0, "commands: k N kill, s N stop, r N restart (fresh), c N recover, cut A B, clock N R, slow N D, value N V, h help, q quit (then Enter)")
		}
		go clusterCommands(runCtx, c, view, in, inTTY, doQuit)
	}
	var limit <-chan time.Time
	if f.duration > 0 {
		tm := time.NewTimer(f.duration)
		defer tm.Stop()
		limit = tm.C
	}

	var runErr error
	select {
	case <-ctx.Done():
		if cfg.Script != nil {
			runErr = errors.New("interrupted before the script ended")
		}
	case <-quit:
		if cfg.Script != nil {
			runErr = errors.New("quit before the script ended")
		}
	case runErr = <-scriptDone:
	case <-limit:
		if cfg.Script != nil {
			runErr = fmt.Errorf("the script did not end within --duration %v", f.duration)
		}
	}
	stopRun()
	bg.Wait()

	// One more look at every node, the summary, then the end of them.
	sum := c.Finish(runErr)
	view.close()
	if err := sum.Write(stdout, f.json); err != nil {
		return err
	}
	if n, why := sum.Violated(); n > 0 {
		// The algorithm broke the specification: exit 2, as sim does.
		return errors.Join(runErr, fmt.Errorf("%s: %w", why, violationError{n}))
	}
	return cmp.Or(runErr, sum.Err())
}
