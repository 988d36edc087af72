// Command failover measures, side by side, how long `elect node` (vkt) and
// hashicorp/raft clusters of real processes on 127.0.0.1 take to agree on a
// new leader after their leader is killed with SIGKILL, under the same
// heartbeat interval and failure-detection timeout. It builds both binaries
// once, prints a line a run on stderr and a Markdown table on stdout.
//
//	cd bench/failover && go run ./cmd/failover
//	go run ./cmd/failover -nodes 5 -settings 50ms/500ms -runs 3
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/electgo/elect/bench/failover"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("failover: ")
	if err := run(); err != nil {
		log.Fatal(err)
	}
}

func run() error {
	systems := flag.String("systems", "elect,raft", "systems to measure: elect, raft or both")
	nodes := flag.String("nodes", "5,9", "cluster sizes")
	settings := flag.String("settings", "100ms/1s,50ms/500ms", "HEARTBEAT/TIMEOUT pairs given to both systems")
	runs := flag.Int("runs", 10, "failovers measured per system, size and setting (each on a fresh cluster)")
	poll := flag.Duration("poll", 5*time.Millisecond, "interval between rounds of /status polls of every survivor")
	electBin := flag.String("elect-bin", "", "a built elect binary (default: go build ./cmd/elect in the repository)")
	raftBin := flag.String("raft-bin", "", "a built raftnode binary (default: go build ./cmd/raftnode)")
	csvPath := flag.String("csv", "", "also write one row a run to this CSV file")
	seed := flag.Uint64("seed", 0, "seed of the random pause before each kill (0: random)")
	quiet := flag.Bool("q", false, "no line a run on stderr")
	flag.Parse()

	plan := failover.Plan{Bins: map[string]string{}, Runs: *runs, Opt: failover.DefaultOptions()}
	plan.Opt.Poll = *poll
	if *seed != 0 {
		plan.Opt.Rand = rand.New(rand.NewPCG(*seed, *seed))
	}
	if !*quiet {
		plan.Progress = os.Stderr
	}
	for _, name := range strings.Split(*systems, ",") {
		switch strings.TrimSpace(name) {
		case "elect":
			plan.Systems = append(plan.Systems, failover.Elect{})
		case "raft":
			plan.Systems = append(plan.Systems, failover.Raft{})
		default:
			return fmt.Errorf("-systems: unknown system %q (want elect, raft)", name)
		}
	}
	for _, v := range strings.Split(*nodes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 3 {
			return fmt.Errorf("-nodes: %q is not a size of at least 3", v)
		}
		plan.Nodes = append(plan.Nodes, n)
	}
	for _, v := range strings.Split(*settings, ",") {
		s, err := failover.ParseSetting(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("-settings: %w", err)
		}
		plan.Settings = append(plan.Settings, s)
	}
	if *runs < 1 {
		return fmt.Errorf("-runs: want at least 1")
	}

	tmp, err := os.MkdirTemp("", "failover-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, sys := range plan.Systems {
		bin := map[string]string{"elect": *electBin, "raft": *raftBin}[sys.Name()]
		if bin == "" {
			bench, repo, err := failover.FindModules(".")
			if err != nil {
				return fmt.Errorf("finding what to build (or give -%s-bin): %w", sys.Name(), err)
			}
			switch sys.Name() {
			case "elect":
				bin = filepath.Join(tmp, "elect")
				err = failover.Build(repo, "./cmd/elect", bin)
			case "raft":
				bin = filepath.Join(tmp, "raftnode")
				err = failover.Build(bench, "./cmd/raftnode", bin)
			}
			if err != nil {
				return err
			}
		}
		if sys.Name() == "elect" {
			if err := failover.CheckElectNode(bin); err != nil {
				return err
			}
		}
		plan.Bins[sys.Name()] = bin
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	results, err := plan.Run(ctx)
	if *csvPath != "" && len(results) > 0 {
		f, cerr := os.Create(*csvPath)
		if cerr != nil {
			return cerr
		}
		failover.WriteCSV(f, results)
		if cerr := f.Close(); cerr != nil {
			return cerr
		}
	}
	if err != nil {
		return err
	}

	host, _ := os.Hostname()
	fmt.Printf("failover: kill -9 of the leader -> every survivor agrees on the new one (polled every %v)\n", *poll)
	fmt.Printf("%s, %s/%s, %d CPUs (GOMAXPROCS %d), %s, %d runs each, %v in all\n\n",
		host, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0),
		time.Now().Format("2006-01-02"), *runs, time.Since(start).Round(time.Second))
	failover.WriteSettings(os.Stdout, plan.Systems, plan.Settings)
	fmt.Println()
	failover.WriteTable(os.Stdout, failover.Groups(plan, results))
	return nil
}
