package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/electgo/elect/cluster"
)

// clusterCommand is a parsed keyboard command.
type clusterCommand struct {
	action string // kill, stop, restart, recover, print, help, quit; "" for nothing
	ids    []int
	leader bool
}

var clusterVerbs = map[string]string{
	"k": "kill", "kill": "kill", "s": "stop", "stop": "stop",
	"r": "restart", "restart": "restart", "c": "recover", "recover": "recover",
	"e": "elect", "elect": "elect",
	"p": "print", "print": "print", "h": "help", "help": "help", "?": "help",
	"q": "quit", "quit": "quit", "exit": "quit",
}

// parseClusterCommand reads one line typed by the user.
func parseClusterCommand(line string, n int) (clusterCommand, error) {
	words := strings.Fields(line)
	if len(words) == 0 {
		return clusterCommand{}, nil
	}
	verb, ok := clusterVerbs[strings.ToLower(words[0])]
	if !ok {
		return clusterCommand{}, fmt.Errorf("unknown command %q (k N, s N, r N, c N, e N, p, q; h for help)", words[0])
	}
	cmd := clusterCommand{action: verb}
	switch verb {
	case "print", "help", "quit":
		if len(words) > 1 {
			return cmd, fmt.Errorf("%s takes no argument", verb)
		}
		return cmd, nil
	}
	if len(words) == 1 {
		return cmd, fmt.Errorf("%s which node? (%s N, N from 0 to %d, or %s leader)", verb, words[0], n-1, words[0])
	}
	for _, w := range words[1:] {
		for _, part := range strings.Split(w, ",") {
			if part == "" {
				continue
			}
			if part == "leader" {
				cmd.leader = true
				continue
			}
			id, err := strconv.Atoi(part)
			if err != nil || id < 0 {
				return cmd, fmt.Errorf("%s %s: %q is not a node id", verb, strings.Join(words[1:], " "), part)
			}
			if id >= n {
				return cmd, fmt.Errorf("node %d is out of range: the cluster has nodes 0..%d", id, n-1)
			}
			cmd.ids = append(cmd.ids, id)
		}
	}
	if cmd.leader && len(cmd.ids) > 0 {
		return cmd, fmt.Errorf("%s: give node ids or leader, not both", verb)
	}
	return cmd, nil
}

const clusterHelp = `commands (then Enter):
  k N, kill N      SIGKILL node N (N may be "leader"; several ids: k 1 2 3)
  s N, stop N      SIGTERM: a clean stop
  r N, restart N   start N again with an empty state directory: it elects
  c N, recover N   start N again with its state directory: it merges
  e N, elect N     ask N to start an election (POST /elect)
  p, print         print the table
  q, quit          stop every node and end`

// clusterCommands reads commands from in until it ends or ctx does, and
// does them to c, saying what became of each in view.
func clusterCommands(ctx context.Context, c *cluster.Cluster, view *clusterView, in io.Reader, tty bool, quit func()) {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if ctx.Err() != nil {
			return
		}
		now := func() time.Duration { return c.Since(time.Now()) }
		cmd, err := parseClusterCommand(sc.Text(), c.Config().Nodes)
		if err != nil {
			view.logf(now(), "error: %v", err)
			continue
		}
		switch cmd.action {
		case "":
		case "quit":
			quit()
			return
		case "help":
			view.printf("%s\n", clusterHelp)
		case "print":
			view.printf("%s\n", strings.Join(liveLines(c.Config(), c.Snapshot())[1:], "\n"))
		default:
			start := time.Now()
			res := cluster.StepResult{Step: strings.TrimSpace(sc.Text()), StartMS: ms(c.Since(start))}
			msg, err := c.Act(ctx, cmd.action, cmd.ids, cmd.leader)
			res.TookMS, res.OK, res.Result = ms(time.Since(start)), err == nil, msg
			if err != nil {
				res.Error = err.Error()
				if msg != "" {
					view.logf(now(), "%s", msg)
				}
				view.logf(now(), "error: %v", err)
			} else {
				view.logf(now(), "%s", msg)
			}
			c.Record(res)
		}
	}
	if ctx.Err() != nil {
		return
	}
	if tty {
		quit() // Ctrl-D
		return
	}
	view.logf(c.Since(time.Now()), "no more commands on stdin: the cluster runs until Ctrl-C, SIGTERM or --duration")
}
