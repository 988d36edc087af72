package metrics

import (
	"github.com/electgo/elect/trace"
)

// Counter counts a run's messages from its event stream, by type and by drop
// reason. It is a trace.Observer, so the same counts come out of a live run
// and out of a trace read back from a file.
type Counter struct {
	Events    uint64   // every event of the stream
	Reports   []Report // the first MaxReports reports
	Reported  int      // all of them
	Sent      []uint64 // by message type
	Delivered []uint64 // by message type
	Dropped   [trace.NumDropReasons]uint64
}

// NewCounter returns a Counter for an algorithm with the given number of
// message types.
func NewCounter(types int) *Counter {
	return &Counter{Sent: make([]uint64, types), Delivered: make([]uint64, types)}
}

// Observe counts one event.
func (c *Counter) Observe(e *trace.Event) {
	c.Events++
	switch e.Kind {
	case trace.Sent:
		if int(e.Msg.Type) < len(c.Sent) {
			c.Sent[e.Msg.Type]++
		}
	case trace.Delivered:
		if int(e.Msg.Type) < len(c.Delivered) {
			c.Delivered[e.Msg.Type]++
		}
	case trace.Dropped:
		if e.Reason < trace.NumDropReasons {
			c.Dropped[e.Reason]++
		}
	case trace.Reported:
		c.Reported++
		if len(c.Reports) < MaxReports {
			c.Reports = append(c.Reports, Report{AtMS: MS(e.At), Node: e.Node, Text: e.Text})
		}
	}
}

// Messages renders the counts with the algorithm's type names.
func (c *Counter) Messages(names []string) Messages {
	m := Messages{ByType: map[string]uint64{}}
	for t, n := range c.Sent {
		m.Total += n
		m.Delivered += c.Delivered[t]
		if t < len(names) {
			m.ByType[names[t]] += n
		}
	}
	for r, n := range c.Dropped {
		if n > 0 {
			if m.DropReasons == nil {
				m.DropReasons = map[string]uint64{}
			}
			m.DropReasons[trace.DropReason(r).String()] = n
			m.Dropped += n
		}
	}
	return m
}

// Fill sets what a summary takes from the counts: messages by the
// algorithm's type names, events, and the nodes' reports.
func (c *Counter) Fill(s *Summary, names []string) {
	s.Messages = c.Messages(names)
	s.Events = c.Events
	s.Reports, s.ReportCount = c.Reports, c.Reported
	if s.Reports == nil {
		s.Reports = []Report{}
	}
}
