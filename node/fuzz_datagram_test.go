package node

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// fuzzTargets are two running nodes that every fuzzed datagram is sent to:
// a vkt node (hellos, messages, fencing) and an echo node, whose links are
// reliable (frames). They live for the whole fuzzing run: booting a node
// per input would spend every input's time on its boot.
type fuzzTargets struct {
	net    *runtime.MemNetwork
	from   *runtime.MemEndpoint
	nodes  []*Node
	ended  []chan error
	addrs  []netip.AddrPort
	mu     sync.Mutex
	tokens []uint64 // the highest fencing token each has reported
	index  []uint64 // the highest election index each has reported
}

var (
	fuzzOnce sync.Once
	fuzzSet  *fuzzTargets
)

func targets(t *testing.T) *fuzzTargets {
	fuzzOnce.Do(func() {
		f := &fuzzTargets{net: runtime.NewMemNetwork()}
		f.from = f.net.Listen()
		for i, a := range []string{"vkt", "echo"} {
			ep := f.net.Listen()
			f.addrs = append(f.addrs, ep.LocalAddr())
			nd, err := New(Config{ID: algo.NodeID(i), Value: 1, Algorithm: a, Params: fast[a], Hello: fastHello, HelloLoss: fastLoss,
				Transport: ep, Initiator: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				panic(err)
			}
			ended := make(chan error, 1)
			go func() { ended <- nd.Run(context.Background()) }()
			f.nodes, f.ended = append(f.nodes, nd), append(f.ended, ended)
		}
		f.tokens, f.index = make([]uint64, len(f.nodes)), make([]uint64, len(f.nodes))
		// The vkt node leads itself, with a token, before the first input.
		for deadline := time.Now().Add(5 * time.Second); !f.nodes[0].Status().Fenced && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		f.tokens[0] = f.nodes[0].Status().FencingToken
		fuzzSet = f
	})
	return fuzzSet
}

// FuzzNodeDatagram drives running nodes with datagrams whose every numeric
// field takes any value, of every kind (hello, message, frame), signed with
// nothing (the nodes have no key): issue 31's finding B came from one such
// field, a fence at the end of its range, which no test of the decoder
// alone could see. Whatever comes, a node keeps running, the fencing token
// it reports never goes back nor wraps, and its election index never goes
// back. The seeds are the extremes of each
// field.
func FuzzNodeDatagram(f *testing.F) {
	now := uint64(time.Now().UnixNano())
	ext64 := []uint64{0, 1, 1 << 31, 1<<32 - 1, 1 << 32, 1<<63 - 1, math.MaxUint64}
	for kind := range uint8(3) {
		for k, x := range ext64 {
			// Numbered with the present (distinct), so that the window
			// takes each and its fields reach the node.
			now := now + uint64(kind)*100 + uint64(k)
			f.Add(kind, int32(1), now, int64(x), x, uint8(0), uint32(x), int32(x), int64(x), x, uint32(x))
			f.Add(kind, int32(x), x, int64(x), x, uint8(x), uint32(x), int32(x), int64(x), x, uint32(x))
		}
		f.Add(kind, int32(2), now+uint64(kind)*100+50, int64(math.MinInt64), uint64(0xffffffff)<<32|1, uint8(255), uint32(math.MaxUint32), int32(-1), int64(math.MinInt64), uint64(0), uint32(0))
	}
	f.Fuzz(func(t *testing.T, kind uint8, sender int32, seq uint64, value int64, fence uint64, typ uint8, num uint32, id int32, peerValue int64, epoch uint64, fseq uint32) {
		s := targets(t)
		codec := runtime.Codec{}
		for i, to := range s.addrs {
			var b []byte
			var err error
			m := algo.Message{Type: algo.MsgType(typ), From: algo.NodeID(sender), To: algo.NodeID(i),
				Index: algo.Index{Num: num, ID: algo.NodeID(id)}, Peer: algo.Peer{ID: algo.NodeID(id), Value: peerValue}, Level: int32(fseq)}
			switch kind % 3 {
			case 0:
				b, err = codec.AppendHello(nil, algo.NodeID(sender), seq, value, fence)
			case 1:
				b, err = codec.AppendMessage(nil, seq, &m)
			default:
				fr := runtime.Frame[algo.Message]{FrameHeader: runtime.FrameHeader{Epoch: epoch, Theirs: fence, Ack: fseq, Seq: num, Data: typ%2 == 0}, Payload: m}
				b, err = codec.AppendFrame(nil, algo.NodeID(sender), algo.NodeID(i), seq, &fr)
			}
			if err != nil {
				continue // nothing the encoder makes: nothing to send
			}
			s.from.WriteTo(b, to)
		}
		time.Sleep(2 * time.Millisecond)
		s.mu.Lock()
		defer s.mu.Unlock()
		for i, nd := range s.nodes {
			select {
			case err := <-s.ended[i]:
				t.Fatalf("node %d (%s) stopped: %v", i, nd.alg.Name, err)
			default:
			}
			st := nd.Status()
			// A token that wrapped has counter 0; one that went back is
			// below the last. (A forger without a key can still move the
			// counter to the end of its range, where no node can lead
			// any more: a key stops that, as it stops every forgery.)
			if st.Fenced && (st.FencingToken < s.tokens[i] || st.FencingToken>>32 == 0) {
				t.Fatalf("node %d leads with token %#x after %#x", i, st.FencingToken, s.tokens[i])
			}
			if st.ElectionIndex < s.index[i] {
				t.Fatalf("node %d's election index went back: %d after %d", i, st.ElectionIndex, s.index[i])
			}
			if st.Fenced {
				s.tokens[i] = st.FencingToken
			}
			s.index[i] = st.ElectionIndex
		}
	})
}
