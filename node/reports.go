package node

import (
	"sync"
	"time"
)

// Report is one thing the algorithm reported (algo.Env.Report): a failure
// naming its phase, a corrupted payload and who altered it. They are what
// 003_995b7edf0113a8b5.txt's control process is told, so a node keeps the
// latest for its callers (Reports, GET /status) as well as logging them.
type Report struct {
	// Seq numbers the node's reports from 1, so that a poller that sees
	// the same report twice knows it.
	Seq  uint64
	At   time.Time
	What string
}

// keptReports is how many of the latest reports a node keeps.
const keptReports = 32

// reportLog keeps the latest reports; the machine's goroutine adds, any
// goroutine reads.
type reportLog struct {
	mu   sync.Mutex
	next uint64
	ring []Report
}

func (l *reportLog) add(what string, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.next++
	if len(l.ring) == keptReports {
		l.ring = append(l.ring[:0:0], l.ring[1:]...)
	}
	l.ring = append(l.ring, Report{Seq: l.next, At: at, What: what})
}

func (l *reportLog) latest() []Report {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Report(nil), l.ring...)
}

// Reports returns the algorithm's latest reports (up to 32), oldest first.
// It is safe to call from any goroutine.
func (n *Node) Reports() []Report { return n.reports.latest() }
