package node

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/electgo/elect/algo"
)

// ParsePeers reads a peer list "ID=HOST:PORT,ID=HOST:PORT,...", as elect
// node's --peers takes it. Hosts may be names; they are resolved once, here.
func ParsePeers(s string) (map[algo.NodeID]netip.AddrPort, error) {
	peers := map[algo.NodeID]netip.AddrPort{}
	if strings.TrimSpace(s) == "" {
		return peers, nil
	}
	for i, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		idText, addrText, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("peer %d %q: want ID=HOST:PORT", i+1, item)
		}
		id, err := strconv.ParseInt(idText, 10, 32)
		if err != nil || id < 0 {
			return nil, fmt.Errorf("peer %d %q: id %q is not a non-negative integer", i+1, item, idText)
		}
		addr, err := ResolveAddr(addrText)
		if err != nil {
			return nil, fmt.Errorf("peer %d %q: %w", i+1, item, err)
		}
		if _, dup := peers[algo.NodeID(id)]; dup {
			return nil, fmt.Errorf("peer %d %q: id %d listed twice", i+1, item, id)
		}
		peers[algo.NodeID(id)] = addr
	}
	return peers, nil
}

// ResolveAddr reads "HOST:PORT" as an IPv4 UDP address, resolving a host
// name.
func ResolveAddr(s string) (netip.AddrPort, error) {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		if ap.Addr().IsUnspecified() {
			return netip.AddrPort{}, fmt.Errorf("address %q: no host", s)
		}
		if ap.Port() == 0 {
			return netip.AddrPort{}, fmt.Errorf("address %q: no port", s)
		}
		return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
	}
	ua, err := net.ResolveUDPAddr("udp4", s)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("address %q: want HOST:PORT (%v)", s, err)
	}
	ap := ua.AddrPort()
	if !ap.Addr().IsValid() || ap.Addr().IsUnspecified() {
		return netip.AddrPort{}, fmt.Errorf("address %q: no host", s)
	}
	if ap.Port() == 0 {
		return netip.AddrPort{}, fmt.Errorf("address %q: no port", s)
	}
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
}
