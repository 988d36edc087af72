package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/electgo/elect/cluster"
	"github.com/electgo/elect/topo"
)

// clusterFlags are elect cluster's options.
type clusterFlags struct {
	nodes                    int
	values                   string
	seed                     uint64
	topology                 string
	algo                     string
	params                   []string
	hello                    time.Duration
	helloLoss                int
	keyFile, logLevel, trace string
	basePort                 int
	dir                      string
	keep                     bool
	script                   string
	json                     bool
	duration                 time.Duration
	poll, refresh            time.Duration
	initiators               string
	crashOn                  []string
	corrupt                  string
	elect                    string
	within                   time.Duration
	faults                   string
}

// clusterConfig is what elect cluster runs: the flags and the script
// merged (cluster.FromScript), and the table's redraw interval. params
// are --param's; a test sets algo and nodes as if given as flags, or
// algo, nodes, graph, hello and helloLoss for checkNodeConfig.
type clusterConfig struct {
	*cluster.Merged
	refresh    time.Duration
	params     map[string]string
	algo       string
	nodes      int
	graph      *topo.Graph
	hello      time.Duration
	helloLoss  int
	fromScript map[string]string // unused: a test's
}

// clusterFlagOf names the flag of a field of cluster.Overrides.
var clusterFlagOf = map[string]string{"Algorithm": "--algo", "Nodes": "--nodes", "Topology": "--topology",
	"Seed": "--seed", "Hello": "--hello", "HelloLoss": "--hello-loss", "Initiators": "--initiators",
	"Corrupt": "--corrupt", "Values": "--values", "Params": "--param", "CrashOn": "--crash-on",
	"Faults": "--faults", "Elect": "--elect", "Within": "--within", "KeyFile": "--key-file",
	"LogLevel": "--log-level", "BasePort": "--base-port", "Dir": "--dir", "Keep": "--keep",
	"Poll": "--poll", "Script": "--script", "Trace": "--trace"}

// config loads the script and merges it with the flags (flags win),
// naming the flag or the script's line at fault.
func (f *clusterFlags) config(cmd *cobra.Command) (*clusterConfig, error) {
	cfg := &clusterConfig{refresh: f.refresh, params: map[string]string{}}
	var s *cluster.Script
	if f.script != "" {
		var err error
		if s, err = cluster.LoadScript(f.script); err != nil {
			return nil, err
		}
	}
	for _, p := range f.params {
		k, v, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--param %q: want NAME=VALUE", p)
		}
		cfg.params[k] = v
	}
	if f.refresh <= 0 {
		return nil, fmt.Errorf("--refresh %v: want a positive duration", f.refresh)
	}
	if f.poll < 0 || f.duration < 0 {
		return nil, errors.New("--poll and --duration take durations >= 0")
	}
	return cfg, f.merge(cmd, cfg, s)
}

// merge merges the flags and s (nil: none) into cfg (cluster.FromScript);
// a test's algo and nodes stand for --algo and --nodes.
func (f *clusterFlags) merge(cmd *cobra.Command, cfg *clusterConfig, s *cluster.Script) error {
	fl := cmd.Flags()
	over := cluster.Overrides{Params: cfg.params, Faults: f.faults, Elect: f.elect, Within: f.within,
		KeyFile: f.keyFile, LogLevel: f.logLevel, BasePort: f.basePort, Dir: f.dir, Keep: f.keep, Poll: f.poll, Trace: f.trace,
		Name: func(field string) string { return clusterFlagOf[field] },
		Note: func(text string) { fmt.Fprintf(cmd.ErrOrStderr(), "elect: note: %s\n", text) }}
	over.Algorithm, over.Nodes, over.Topology = given(fl.Changed, "algo", f.algo), given(fl.Changed, "nodes", f.nodes), given(fl.Changed, "topology", f.topology)
	over.Seed, over.Hello, over.HelloLoss = given(fl.Changed, "seed", f.seed), given(fl.Changed, "hello", f.hello), given(fl.Changed, "hello-loss", f.helloLoss)
	over.Initiators, over.Corrupt, over.Values = given(fl.Changed, "initiators", f.initiators), given(fl.Changed, "corrupt", f.corrupt), given(fl.Changed, "values", f.values)
	if cfg.algo != "" {
		over.Algorithm = &cfg.algo
	}
	if cfg.nodes != 0 {
		over.Nodes = &cfg.nodes
	}
	if fl.Changed("crash-on") {
		over.CrashOn = append([]string{}, f.crashOn...)
	}
	m, err := cluster.FromScript(s, over)
	cfg.Merged = m
	return err
}

// newCluster lays the cluster out (cluster.Merged.New), its errors naming
// the flag or the script's field at fault; its notes go to stderr, the
// rest of what it says to log.
func (cfg *clusterConfig) newCluster(cmd *cobra.Command, log func(cluster.Line)) (*cluster.Cluster, error) {
	stderr := cmd.ErrOrStderr()
	cfg.Log = func(l cluster.Line) {
		switch {
		case l.Kind == cluster.LineNote:
			fmt.Fprintf(stderr, "elect: note: %s\n", l.Text)
		case log != nil:
			log(l)
		}
	}
	return cfg.New()
}

// clusterTopology builds the graph of spec (cluster.Topology).
func clusterTopology(spec string, nodes int, seed uint64) (*topo.Graph, string, error) {
	return cluster.Topology(spec, nodes, seed)
}

// checkNodeConfig builds (without running) every node of a test's cfg as
// the cluster would run it (cluster.Config.Check).
func checkNodeConfig(cfg *clusterConfig) error {
	err := cluster.Config{Algorithm: cfg.algo, Params: cfg.params, Nodes: cfg.nodes, Graph: cfg.graph,
		Hello: cfg.hello, HelloLoss: cfg.helloLoss}.Check()
	if ce := (*cluster.ConfigError)(nil); errors.As(err, &ce) {
		return ce.Err
	}
	return err
}

// clusterScript is a cluster script, as cli's tests read it.
type clusterScript struct{ *cluster.Script }

func (s clusterScript) checkNodes(n int) error { return s.CheckNodes(n) }

// parseClusterScript parses the text of a script named file.
func parseClusterScript(file string, data []byte) (clusterScript, error) {
	s, err := cluster.ParseScript(file, data)
	return clusterScript{s}, err
}
