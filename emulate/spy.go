//go:build linux

package emulate

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
	"github.com/electgo/elect/trace"
)

// The spy is the attacker's station: a veth pair whose bridge end (spyName)
// the bridge floods every frame to (no port learns addresses while it is
// there) and whose other end (tapName) stays in the host's namespace,
// without an address, read and written through a raw packet socket. What a
// node sends is captured off the wire, as a sniffer in range of it would,
// and what the spy writes enters the bridge as if a node had sent it (the
// forward chain lets every frame of the spy's port through: an attacker in
// range of everyone).
type spy struct {
	f    *os.File
	port int
	t0   time.Time
	log  func(format string, args ...any)
	// ctx ends the replays under way when the spy closes.
	ctx  context.Context
	stop context.CancelFunc

	mu       sync.Mutex
	captured []captured
	full     bool
	replayed int
	forged   int

	sending sync.WaitGroup
	closing sync.Once
}

// captured is one datagram a node sent, as it went on the wire.
type captured struct {
	at    time.Duration
	node  algo.NodeID
	frame []byte
	off   int // where the UDP payload (the datagram) begins in frame
}

// maxCaptured bounds the spy's memory: about 100 MB of frames at most.
const maxCaptured = 1 << 18

// ethPAll is ETH_P_ALL in network byte order, as packet sockets take it.
const ethPAll = syscall.ETH_P_ALL>>8 | syscall.ETH_P_ALL&0xff<<8

// openSpy opens the spy on the run's tap and starts capturing the nodes'
// datagrams to port.
func openSpy(tag string, port int, t0 time.Time, log func(string, ...any)) (*spy, error) {
	ifi, err := net.InterfaceByName(tapName(tag))
	if err != nil {
		return nil, fmt.Errorf("spy: %w", err)
	}
	fd, err := syscall.Socket(syscall.AF_PACKET, syscall.SOCK_RAW|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, ethPAll)
	if err != nil {
		return nil, fmt.Errorf("spy: packet socket: %w", err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrLinklayer{Protocol: ethPAll, Ifindex: ifi.Index}); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("spy: binding to %s: %w", ifi.Name, err)
	}
	s := &spy{f: os.NewFile(uintptr(fd), ifi.Name), port: port, t0: t0, log: log}
	s.ctx, s.stop = context.WithCancel(context.Background())
	go s.capture()
	return s, nil
}

// capture keeps every datagram to the nodes' port that enters the tap,
// until the spy is closed.
func (s *spy) capture() {
	rc, err := s.f.SyscallConn()
	if err != nil {
		return
	}
	buf := make([]byte, 1<<16)
	for {
		var n int
		var from syscall.Sockaddr
		var rerr error
		err := rc.Read(func(fd uintptr) bool {
			n, from, rerr = syscall.Recvfrom(int(fd), buf, 0)
			return !errors.Is(rerr, syscall.EAGAIN)
		})
		if err != nil {
			return // closed
		}
		if rerr != nil {
			continue
		}
		if ll, ok := from.(*syscall.SockaddrLinklayer); ok && ll.Pkttype == syscall.PACKET_OUTGOING {
			continue // the spy's own
		}
		node, off, end, ok := nodeDatagram(buf[:n], s.port)
		if !ok {
			continue
		}
		at := time.Since(s.t0)
		s.mu.Lock()
		if len(s.captured) < maxCaptured {
			// The frame as it would go on a wire: taken off a veth before
			// any checksum offload, its UDP checksum is only the pseudo
			// header's, which a receiver would drop the replay for.
			frame := withPayload(buf[:off], off, buf[off:end])
			s.captured = append(s.captured, captured{at: at, node: node, frame: frame, off: off})
		} else if !s.full {
			s.full = true
			s.log("spy: %d datagrams captured, no more kept", maxCaptured)
		}
		s.mu.Unlock()
	}
}

// nodeDatagram reads an Ethernet frame: an unfragmented IPv4 UDP datagram
// to port from a node's address gives the node and where the UDP payload
// begins and ends (before any padding of the frame).
func nodeDatagram(f []byte, port int) (node algo.NodeID, off, end int, ok bool) {
	if len(f) < 14+20+8 || binary.BigEndian.Uint16(f[12:]) != 0x0800 {
		return 0, 0, 0, false
	}
	ip := f[14:]
	ihl := int(ip[0]&0x0f) * 4
	if ip[0]>>4 != 4 || ihl < 20 || len(ip) < ihl+8 || ip[9] != syscall.IPPROTO_UDP ||
		binary.BigEndian.Uint16(ip[6:])&0x3fff != 0 { // more fragments, or an offset
		return 0, 0, 0, false
	}
	udp := ip[ihl:]
	n := int(binary.BigEndian.Uint16(udp[4:]))
	if int(binary.BigEndian.Uint16(udp[2:])) != port || n < 8 || n > len(udp) {
		return 0, 0, 0, false
	}
	src := netip.AddrFrom4([4]byte(ip[12:16]))
	if !subnet.Contains(src) {
		return 0, 0, 0, false
	}
	a := src.As4()
	v := int(a[2])<<8 | int(a[3]) - 1
	if v < 0 {
		return 0, 0, 0, false
	}
	return algo.NodeID(v), 14 + ihl + 8, 14 + ihl + n, true
}

// withPayload is frame with its UDP payload (from off) replaced by p: the
// IPv4 and UDP lengths and the IPv4 checksum follow, and the UDP checksum
// is left out (0, which IPv4 allows).
func withPayload(frame []byte, off int, p []byte) []byte {
	out := append(append([]byte(nil), frame[:off]...), p...)
	ip := out[14:]
	ihl := int(ip[0]&0x0f) * 4
	binary.BigEndian.PutUint16(ip[2:], uint16(ihl+8+len(p)))
	binary.BigEndian.PutUint16(ip[10:], 0)
	binary.BigEndian.PutUint16(ip[10:], ipChecksum(ip[:ihl]))
	udp := ip[ihl:]
	binary.BigEndian.PutUint16(udp[4:], uint16(8+len(p)))
	binary.BigEndian.PutUint16(udp[6:], 0)
	return out
}

// ipChecksum is the Internet checksum (RFC 1071) of an IPv4 header.
func ipChecksum(h []byte) uint16 {
	var sum uint32
	for i := 0; i+1 < len(h); i += 2 {
		sum += uint32(binary.BigEndian.Uint16(h[i:]))
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}

// replay sends again, from now on and at their first pace, the datagrams
// node sent in [from, from+d). It returns at once; close waits for it.
func (s *spy) replay(node algo.NodeID, from, d time.Duration) int {
	s.mu.Lock()
	var frames []captured
	for _, c := range s.captured {
		if c.node == node && c.at >= from && c.at < from+d {
			frames = append(frames, c)
		}
	}
	s.mu.Unlock()
	if len(frames) == 0 {
		return 0
	}
	start := time.Now()
	s.sending.Go(func() {
		for _, c := range frames {
			if sleepUntil(s.ctx, start.Add(c.at-frames[0].at)) != nil {
				return
			}
			if _, err := s.f.Write(c.frame); err != nil {
				s.log("spy: replaying: %v", err)
				return
			}
			s.mu.Lock()
			s.replayed++
			s.mu.Unlock()
		}
	})
	return len(frames)
}

// forge sends one datagram in node's name, numbered with the present time,
// made from the last one of the kind it sent: a hello whose fence is at the
// end of its counter's range (ForgeFence), or a message whose election
// number is (ForgeIndex). It is sent unsigned: the forger has no key.
func (s *spy) forge(kind AttackKind, node algo.NodeID) (string, error) {
	want := runtime.KindHello
	if kind == ForgeIndex {
		want = runtime.KindMessage
	}
	s.mu.Lock()
	var last *captured
	for i := len(s.captured) - 1; i >= 0 && last == nil; i-- {
		c := &s.captured[i]
		if c.node == node && len(c.frame) > c.off+3 && runtime.Kind(c.frame[c.off+3]) == want {
			last = c
		}
	}
	s.mu.Unlock()
	if last == nil {
		return "", fmt.Errorf("spy: node %d sent no %v to forge from", node, want)
	}
	d, err := decodeAny(last.frame[last.off:])
	if err != nil {
		return "", fmt.Errorf("spy: node %d's %v: %w", node, want, err)
	}
	codec := runtime.Codec{Cluster: d.Cluster}
	seq := uint64(time.Now().UnixNano())
	var p []byte
	var what string
	if kind == ForgeFence {
		fence := uint64(0xffffffff)<<32 | 1
		p, err = codec.AppendHello(nil, node, seq, d.Value, fence)
		what = fmt.Sprintf("a hello with fence %#x", fence)
	} else {
		m := d.Message
		m.Index.Num = 0xffffffff
		p, err = codec.AppendMessage(nil, seq, &m)
		what = fmt.Sprintf("a message to node %d with election number %d", m.To, m.Index.Num)
	}
	if err != nil {
		return "", err
	}
	if _, err := s.f.Write(withPayload(last.frame, last.off, p)); err != nil {
		return "", fmt.Errorf("spy: %w", err)
	}
	s.mu.Lock()
	s.forged++
	s.mu.Unlock()
	return what, nil
}

// decodeAny decodes a datagram of any cluster, its tag unchecked: the spy
// has no key and takes the cluster the datagram names.
func decodeAny(b []byte) (runtime.Datagram, error) {
	if len(b) < 14 {
		return runtime.Datagram{}, errors.New("short datagram")
	}
	c := runtime.Codec{Cluster: binary.BigEndian.Uint32(b[10:])}
	return c.Decode(b)
}

// sent is how many datagrams the spy replayed and forged.
func (s *spy) sent() (replayed, forged int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.replayed, s.forged
}

// close stops the replays under way and the capture.
func (s *spy) close() {
	s.closing.Do(func() {
		s.stop()
		s.sending.Wait()
		s.f.Close()
	})
}

// attack makes a, or with capture notes whose name it will use: the node
// that leads when its capture begins. What it did goes in the journal as an
// act, for the story.
func (e *emulation) attack(a *Attack, capture bool) {
	now := time.Now()
	at := e.j.Since(now)
	node := a.Node
	if node == algo.None {
		if capture {
			if v, ok := e.leader(); ok {
				if e.victims == nil {
					e.victims = map[*Attack]algo.NodeID{}
				}
				e.victims[a] = v
				e.log("%7.3fs the spy captures the leader, node %d", at.Seconds(), v)
			}
			return
		}
		var ok bool
		if a.Kind == Replay {
			node, ok = e.victims[a]
		} else {
			node, ok = e.leader()
		}
		if !ok {
			e.j.Add(trace.Event{At: at, Kind: trace.Acted, Peer: algo.None, Text: fmt.Sprintf("a %v in the leader's name finds none", a.Kind)})
			return
		}
	}
	var text string
	if a.Kind == Replay {
		n := e.spy.replay(node, a.From, a.For)
		text = fmt.Sprintf("the spy replays node %d's %d datagrams of %v-%v", node, n, a.From, a.From+a.For)
	} else {
		what, err := e.spy.forge(a.Kind, node)
		if err != nil {
			e.log("%7.3fs %v", at.Seconds(), err)
			text = fmt.Sprintf("a %v in node %d's name: %v", a.Kind, node, err)
		} else {
			text = fmt.Sprintf("the spy forges %s in node %d's name", what, node)
		}
	}
	e.j.Add(trace.Event{At: at, Kind: trace.Acted, Peer: algo.None, Text: text})
	e.log("%7.3fs %s", at.Seconds(), text)
}
