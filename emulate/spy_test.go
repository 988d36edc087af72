//go:build linux

package emulate

import (
	"bytes"
	"encoding/binary"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// udpFrame is an Ethernet frame of an IPv4 UDP datagram from src to dst
// port carrying p, with a checksum as a veth hands it over (the pseudo
// header's only) and padding after it, as short frames have.
func udpFrame(src netip.Addr, port int, p []byte) []byte {
	f := make([]byte, 14, 64)
	copy(f, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1})
	binary.BigEndian.PutUint16(f[12:], 0x0800)
	ip := make([]byte, 20)
	ip[0], ip[8], ip[9] = 0x45, 64, 17
	binary.BigEndian.PutUint16(ip[2:], uint16(20+8+len(p)))
	binary.BigEndian.PutUint16(ip[6:], 0x4000) // don't fragment
	a := src.As4()
	copy(ip[12:], a[:])
	copy(ip[16:], []byte{10, 213, 255, 255})
	binary.BigEndian.PutUint16(ip[10:], ipChecksum(ip))
	udp := make([]byte, 8)
	binary.BigEndian.PutUint16(udp[0:], 40000)
	binary.BigEndian.PutUint16(udp[2:], uint16(port))
	binary.BigEndian.PutUint16(udp[4:], uint16(8+len(p)))
	binary.BigEndian.PutUint16(udp[6:], 0x1234) // partial: offloaded
	f = append(append(append(f, ip...), udp...), p...)
	return append(f, make([]byte, 8)...) // padding
}

// The spy reads a node's datagram out of a frame (and nothing else), and
// rebuilds a frame around a new payload with lengths and checksum that a
// receiving kernel accepts.
func TestSpyFrames(t *testing.T) {
	codec := runtime.Codec{Cluster: 9}
	hello, err := codec.AppendHello(nil, 3, 77, 5, 1<<32|2)
	if err != nil {
		t.Fatal(err)
	}
	f := udpFrame(addr(3), DefaultPort, hello)
	node, off, end, ok := nodeDatagram(f, DefaultPort)
	if !ok || node != 3 || !bytes.Equal(f[off:end], hello) {
		t.Fatalf("nodeDatagram = node %d, [%d:%d], %v; want node 3 and the hello", node, off, end, ok)
	}
	for name, bad := range map[string][]byte{
		"another port":     udpFrame(addr(3), DefaultPort+1, hello),
		"outside subnet":   udpFrame(netip.MustParseAddr("10.9.0.4"), DefaultPort, hello),
		"the subnet's .0":  udpFrame(netip.MustParseAddr("10.213.0.0"), DefaultPort, hello),
		"short":            f[:30],
		"ARP":              append(append(append([]byte(nil), f[:12]...), 0x08, 0x06), f[14:]...),
		"a fragment":       fragment(f),
		"UDP length past":  withUDPLength(f, 1000),
		"UDP length short": withUDPLength(f, 7),
	} {
		if _, _, _, ok := nodeDatagram(bad, DefaultPort); ok {
			t.Errorf("%s: taken as a node's datagram", name)
		}
	}

	d, err := decodeAny(hello)
	if err != nil || d.Cluster != 9 || d.Sender != 3 || d.Fence != 1<<32|2 {
		t.Fatalf("decodeAny = %+v, %v", d, err)
	}
	longer := append(bytes.Clone(hello), make([]byte, 40)...)
	g := withPayload(f[:off], off, longer)
	if !bytes.Equal(g[off:], longer) {
		t.Errorf("withPayload's payload differs")
	}
	ip := g[14:]
	if got := binary.BigEndian.Uint16(ip[2:]); int(got) != 20+8+len(longer) {
		t.Errorf("IPv4 length %d, want %d", got, 20+8+len(longer))
	}
	if ipChecksum(ip[:20]) != 0 {
		t.Errorf("IPv4 header checksum does not verify")
	}
	if got := binary.BigEndian.Uint16(ip[24:]); int(got) != 8+len(longer) {
		t.Errorf("UDP length %d, want %d", got, 8+len(longer))
	}
	if got := binary.BigEndian.Uint16(ip[26:]); got != 0 {
		t.Errorf("UDP checksum %#x, want 0 (none)", got)
	}
	if !bytes.Equal(f[:12], g[:12]) {
		t.Errorf("the addresses changed")
	}
}

func fragment(f []byte) []byte {
	g := bytes.Clone(f)
	binary.BigEndian.PutUint16(g[14+6:], 0x2000) // more fragments
	return g
}

func withUDPLength(f []byte, n int) []byte {
	g := bytes.Clone(f)
	binary.BigEndian.PutUint16(g[14+20+4:], uint16(n))
	return g
}

// An attack that cannot be made is refused before the run, naming it.
func TestAttackCheck(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		a    Attack
		want string // "" for none
	}{
		{Attack{At: 5 * s, Kind: Replay, Node: algo.None, From: s, For: 2 * s}, ""},
		{Attack{At: 3 * s, Kind: Replay, Node: 4, From: s, For: 2 * s}, ""},
		{Attack{At: 2 * s, Kind: Replay, Node: 4, From: s, For: 2 * s}, "must end its capture before it starts"},
		{Attack{At: 5 * s, Kind: Replay, Node: 4, From: s}, "must end its capture"},
		{Attack{At: s, Kind: ForgeFence, Node: 5}, "node 5 is not one of the 5 nodes"},
		{Attack{At: s, Kind: ForgeIndex, Node: -2}, "node -2 is not one"},
		{Attack{At: s, Node: 1}, "unknown kind 0"},
		{Attack{At: s, Kind: ForgeIndex, Node: algo.None}, ""},
	} {
		err := c.a.check(5)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.a.Describe(), err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: error %v, want %q", c.a, err, c.want)
		}
	}
	if got, want := (Attack{At: 6 * s, Kind: Replay, Node: algo.None, From: s, For: 2 * s}).Describe(), "6s replay the leader's datagrams of 1s-3s"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	if got, want := (Attack{At: 2 * s, Kind: ForgeFence, Node: 3}).Describe(), "2s forged fence in node 3's name"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}
