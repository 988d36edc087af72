package node

import (
	"net/netip"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	elrt "github.com/electgo/elect/runtime"
)

// forger is an attacker's endpoint on a test cluster's network: it sends
// datagrams in any node's name, signed with nothing.
type forger struct {
	ep    *elrt.MemEndpoint
	codec elrt.Codec
}

func (f *forger) hello(t *testing.T, to netip.AddrPort, from algo.NodeID, seq uint64, value int64) {
	t.Helper()
	b, err := f.codec.AppendHello(nil, from, seq, value, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.ep.WriteTo(b, to)
}

func (f *forger) message(t *testing.T, to netip.AddrPort, m algo.Message, seq uint64) {
	t.Helper()
	b, err := f.codec.AppendMessage(nil, seq, &m)
	if err != nil {
		t.Fatal(err)
	}
	f.ep.WriteTo(b, to)
}

// The fourth finding of issue 20: forged hellos and heartbeats from a
// made-up sender with a huge value made every node follow a node that does
// not exist, and one forged hello numbered 2⁶⁴−1 in a real node's name cut
// that link for good. Now a node without a key takes no neighbour it was
// not told of (it does not discover), and refuses a number far ahead of its
// clock: the leader stays, the link stays. With a key, unsigned datagrams
// never get that far.
func TestForgedDatagrams(t *testing.T) {
	for _, keyed := range []bool{false, true} {
		name := "no key"
		if keyed {
			name = "key"
		}
		t.Run(name, func(t *testing.T) {
			c := newCluster(t, 3, func(cfg *Config) {
				if keyed {
					cfg.Key = []byte("the cluster's key, 32 bytes long")
				}
			})
			c.waitAgree(ids(0, 3), 2, 5*time.Second)
			before := elections(c)
			f := &forger{ep: c.net.Listen()}
			defer f.ep.Close()
			now := uint64(time.Now().UnixNano())
			heartbeat := algo.MsgType(slices.Index(c.nodes[0].names, "heartbeat"))
			for i := range 20 {
				for _, to := range []algo.NodeID{0, 1} {
					addr := c.addrs[to]
					// A made-up node of huge value, by hello and heartbeat.
					f.hello(t, addr, 99, now+uint64(i), 1<<62)
					f.message(t, addr, algo.Message{Type: heartbeat, From: 99, To: to, Index: algo.Index{Num: 1 << 30, ID: 99},
						Peer: algo.Peer{ID: 99, Value: 1 << 62}}, now+uint64(i)+100)
					// A real node's name, numbered as far ahead as can be.
					f.hello(t, addr, 2, 1<<64-1, 1<<62)
				}
				time.Sleep(fastHello)
			}
			time.Sleep(2 * fastLoss * fastHello) // past a neighbour's loss limit
			for _, i := range []int{0, 1} {
				st := c.nodes[i].Status()
				if !st.HasLeader() || st.Leader != 2 || !slices.Contains(st.Neighbors, 2) || slices.Contains(st.Neighbors, 99) {
					t.Errorf("node %d after the forgeries: leader %d (%v), neighbours %v; want leader 2, 2 a neighbour, 99 none", i, st.Leader, st.State, st.Neighbors)
				}
			}
			if e := elections(c); e != before {
				t.Errorf("%d elections after the forgeries", e-before)
			}
			rej := &c.nodes[0].metrics.rejected
			var refused uint64
			for _, r := range []elrt.Reason{elrt.ReasonStranger, elrt.ReasonReplay, elrt.ReasonUnsigned} {
				refused += rej[r].Load()
			}
			if refused < 40 {
				t.Errorf("node 0 refused %d forged datagrams, want the 60 it was sent, by reason", refused)
			}
		})
	}
}

// The fifth finding of issue 20: a million hellos with distinct made-up
// sender ids were kept (592,000 of them, 248 MB) and each answered, three
// datagrams back for one. Now a node that discovers its neighbours takes
// new senders at a bounded rate into a bounded table, and answers fewer
// bytes than the flood brought.
func TestSenderFlood(t *testing.T) {
	c := newCluster(t, 2, func(cfg *Config) { cfg.Peers = nil }) // no peer list: the node discovers
	f := &forger{ep: c.net.Listen()}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	received := make(chan int)
	go func() {
		buf := make([]byte, elrt.MaxDatagram)
		bytes := 0
		for {
			k, _, err := f.ep.ReadFrom(buf) // until the endpoint is closed
			if err != nil {
				received <- bytes
				return
			}
			bytes += k
		}
	}()
	const flood = 1_000_000
	start := uint64(time.Now().UnixNano())
	sent := 0
	var b []byte
	for i := range flood {
		b, _ = f.codec.AppendHello(b[:0], algo.NodeID(1000+i), start, 1<<40, 0)
		f.ep.WriteTo(b, c.addrs[0])
		sent += len(b)
		if i%1000 == 0 {
			time.Sleep(100 * time.Microsecond) // the node reads: the queue keeps some
		}
	}
	time.Sleep(500 * time.Millisecond) // the answers still on their way
	f.ep.Close()
	back := <-received
	nd := c.nodes[0]
	var kept, unlisted int
	nd.do(func() { kept, unlisted = len(nd.nbrs), nd.unlisted })
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("flood of %d hellos (%d bytes): %d senders kept, %d bytes back, heap %+d bytes, %d refused as a flood",
		flood, sent, kept, back, grew, nd.metrics.rejected[elrt.ReasonFlood].Load())
	if unlisted > maxUnlisted || kept > maxUnlisted+2 {
		t.Errorf("%d senders kept, want at most %d", kept, maxUnlisted)
	}
	if grew > 50<<20 {
		t.Errorf("the heap grew by %d MB, want under 50", grew>>20)
	}
	if back >= sent/100 {
		t.Errorf("%d bytes sent back for %d received: a reflection", back, sent)
	}
}
