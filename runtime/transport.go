package runtime

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// Transport carries datagrams between nodes. The UDP transport is the real
// one; MemNetwork's endpoints share the interface so that tests run whole
// clusters in one process, with partitions, and no sockets.
//
// One goroutine reads and any number write; Close unblocks ReadFrom, which
// then returns net.ErrClosed.
type Transport interface {
	// WriteTo sends one datagram to addr. A datagram is sent whole or not
	// at all; delivery is not guaranteed.
	WriteTo(b []byte, addr netip.AddrPort) error
	// ReadFrom waits for the next datagram, copies it into b (truncating
	// one longer than b) and returns its length and its sender's address.
	ReadFrom(b []byte) (int, netip.AddrPort, error)
	// LocalAddr is the address other nodes reach this one at.
	LocalAddr() netip.AddrPort
	Close() error
}

// UDP is a Transport over one UDP socket.
type UDP struct {
	conn *net.UDPConn
	addr netip.AddrPort
}

// ListenUDP opens a UDP socket on addr ("host:port"; port 0 picks a free
// one). The socket may send to broadcast addresses, for hello beacons on
// networks that have them.
func ListenUDP(addr string) (*UDP, error) {
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		if err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_BROADCAST, 1)
		}); err != nil {
			return err
		}
		return serr
	}}
	pc, err := lc.ListenPacket(context.Background(), "udp4", addr)
	if err != nil {
		return nil, err
	}
	conn := pc.(*net.UDPConn)
	local, err := netip.ParseAddrPort(conn.LocalAddr().String())
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("local address %s: %w", conn.LocalAddr(), err)
	}
	return &UDP{conn: conn, addr: local}, nil
}

// WriteTo sends b to addr.
func (u *UDP) WriteTo(b []byte, addr netip.AddrPort) error {
	_, err := u.conn.WriteToUDPAddrPort(b, addr)
	return err
}

// ReadFrom reads the next datagram.
func (u *UDP) ReadFrom(b []byte) (int, netip.AddrPort, error) {
	n, from, err := u.conn.ReadFromUDPAddrPort(b)
	// A socket bound to 0.0.0.0 reports IPv4 senders as IPv4-mapped IPv6
	// on some systems: peers are compared as plain IPv4.
	return n, netip.AddrPortFrom(from.Addr().Unmap(), from.Port()), err
}

// LocalAddr is the socket's address.
func (u *UDP) LocalAddr() netip.AddrPort { return u.addr }

// Close closes the socket.
func (u *UDP) Close() error { return u.conn.Close() }

// IsClosed reports whether err says the transport was closed.
func IsClosed(err error) bool { return errors.Is(err, net.ErrClosed) }
