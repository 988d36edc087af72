package runtime

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync/atomic"
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
	conn  *net.UDPConn
	addr  netip.AddrPort
	oob   []byte        // ancillary data of the read in progress (one reader)
	drops atomic.Uint64 // datagrams the kernel dropped, as last reported
}

// DropCounter is a Transport that knows how many datagrams arrived for it
// and were dropped before it read them (a full receive buffer): losses that
// no counter of the node's own sees.
type DropCounter interface {
	KernelDrops() uint64
}

// ListenUDP opens a UDP socket on addr ("host:port"; port 0 picks a free
// one). The socket may send to broadcast addresses, for hello beacons on
// networks that have them, and, where the system tells (Linux's
// SO_RXQ_OVFL), counts the datagrams dropped for want of room in its
// receive buffer (KernelDrops).
func ListenUDP(addr string) (*UDP, error) {
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		if err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_BROADCAST, 1)
			if serr == nil {
				serr = countDrops(fd)
			}
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
	return &UDP{conn: conn, addr: local, oob: make([]byte, oobSize)}, nil
}

// WriteTo sends b to addr.
func (u *UDP) WriteTo(b []byte, addr netip.AddrPort) error {
	_, err := u.conn.WriteToUDPAddrPort(b, addr)
	return err
}

// ReadFrom reads the next datagram.
func (u *UDP) ReadFrom(b []byte) (int, netip.AddrPort, error) {
	n, oobn, _, from, err := u.conn.ReadMsgUDPAddrPort(b, u.oob)
	if oobn > 0 { // only once the kernel has dropped something
		if d, ok := readDrops(u.oob[:oobn]); ok {
			u.drops.Store(uint64(d))
		}
	}
	// A socket bound to 0.0.0.0 reports IPv4 senders as IPv4-mapped IPv6
	// on some systems: peers are compared as plain IPv4.
	return n, netip.AddrPortFrom(from.Addr().Unmap(), from.Port()), err
}

// KernelDrops is how many datagrams for this socket the kernel has dropped
// since it opened, as of the last datagram read (the count comes with the
// datagrams that follow a drop). Zero where the system does not tell.
func (u *UDP) KernelDrops() uint64 { return u.drops.Load() }

// LocalAddr is the socket's address.
func (u *UDP) LocalAddr() netip.AddrPort { return u.addr }

// Close closes the socket.
func (u *UDP) Close() error { return u.conn.Close() }

// IsClosed reports whether err says the transport was closed.
func IsClosed(err error) bool { return errors.Is(err, net.ErrClosed) }
