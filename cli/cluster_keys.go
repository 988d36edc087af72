package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/electgo/elect/cluster"
)

// parseClusterCommand reads one line typed by the user: the keyboard's own
// print, help and quit, or an action step (cluster.ParseCommand). Its
// action is "" for an empty line.
func parseClusterCommand(line string, n int) (cluster.Step, error) {
	words := strings.Fields(line)
	if len(words) == 0 {
		return cluster.Step{}, nil
	}
	if verb, ok := keyboardVerbs[strings.ToLower(words[0])]; ok {
		if len(words) > 1 {
			return cluster.Step{Action: verb}, fmt.Errorf("%s takes no argument", verb)
		}
		return cluster.Step{Action: verb}, nil
	}
	st, err := cluster.ParseCommand(line, n)
	if errors.Is(err, cluster.ErrUnknownCommand) {
		err = fmt.Errorf("%w (k N, s N, r N, c N, e N, p, q; h for help)", err)
	}
	return st, err
}

// keyboardVerbs are the commands that act on the view, not on nodes.
var keyboardVerbs = map[string]string{"p": "print", "print": "print", "h": "help", "help": "help", "?": "help", "q": "quit", "quit": "quit", "exit": "quit"}

const clusterHelp = `commands (then Enter):
  k N, kill N      SIGKILL node N (N may be "leader"; several ids: k 1 2 3)
  s N, stop N      SIGTERM: a clean stop
  r N, restart N   start N again with an empty state directory: it elects
  c N, recover N   start N again with its state directory: it merges
  e N, elect N     ask N to start an election (POST /elect)
  cut A B, uncut A B            B no longer hears A (A still hears B) / hears it again
  clock N R, jump N D, slow N D  N's clock runs at R of true time / jumps by D; N handles each input D late
  value N V        set N's value to V (POST /value; N may be "leader", or several ids: value 1,2 50)
  p, print         print the table
  q, quit          stop every node and end`

// clusterCommands reads commands from in until it ends or ctx does, and
// does them to c, saying what became of each in view.
func clusterCommands(ctx context.Context, c *cluster.Cluster, view *clusterView, in io.Reader, tty bool, quit func()) {
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
		switch cmd.Action {
		case "":
		case "quit":
			quit()
			return
		case "help":
			view.printf("%s\n", clusterHelp)
		case "print":
			view.printf("%s\n", strings.Join(liveLines(c.Config(), c.Snapshot())[1:], "\n"))
		default:
			res, err := c.Do(ctx, cmd)
			if res.Result != "" || err == nil {
				view.logf(now(), "%s", res.Result)
			}
			if err != nil {
				view.logf(now(), "error: %v", err)
			}
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
