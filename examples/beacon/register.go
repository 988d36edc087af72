package beacon

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/electgo/elect/algo"
)

// Parameters, with their defaults.
const (
	DefaultPeriod  = "500ms"
	DefaultTimeout = "4"
	// MaxTimeout bounds timeout: a node that waits a thousand periods
	// before it drops a dead leader is not what anyone means.
	MaxTimeout = 1000
)

func init() {
	algo.Register(&algo.Algorithm{
		Name:     "beacon",
		Summary:  "leader lease by heartbeat flooding for dynamic networks: every node relays the beats of the most valued live node it hears of, drops a leader after timeout silent periods and campaigns",
		Source:   "heartbeat flooding with destination-owned sequence numbers, as in DSDV (C. E. Perkins and P. Bhagwat, SIGCOMM 1994), applied to leader election; an example of elect's public API",
		Messages: MessageNames,
		Params: []algo.Param{
			{Name: "period", Default: DefaultPeriod, Doc: "interval between a node's ticks: a leader or candidate beats once a period, a follower counts a period without a new beat of its leader as a miss", Check: algo.CheckPositiveDuration},
			{Name: "timeout", Default: DefaultTimeout, Doc: fmt.Sprintf("periods without a new beat before a follower drops its leader and campaigns, and of campaign before a candidate leads: an integer from 2 to %d", MaxTimeout), Check: checkTimeout},
		},
		Model: algo.Model{Spontaneous: true, Loss: true, Crash: true, Partition: true, Mobility: true},
		Build: build,
	})
}

func checkTimeout(s string) error {
	_, err := parseTimeout(s)
	return err
}

func parseTimeout(s string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v < 2 || v > MaxTimeout {
		return 0, fmt.Errorf("invalid timeout %q: want an integer number of periods from 2 to %d", s, MaxTimeout)
	}
	return v, nil
}

func build(p algo.Params, _ int) (func(algo.NodeID) algo.Machine, error) {
	period, err := p.Duration("period")
	if err != nil {
		return nil, fmt.Errorf("parameter period: %w", err)
	}
	if period <= 0 {
		return nil, fmt.Errorf("parameter period: %v: want a positive duration", period)
	}
	timeout, err := parseTimeout(p["timeout"])
	if err != nil {
		return nil, fmt.Errorf("parameter timeout: %w", err)
	}
	c := &config{period: period, timeout: timeout}
	return c.newNode, nil
}
