package runtime

import (
	"net"
	"net/netip"
	"sync"
)

// MemNetwork is an in-memory network of Transports for tests: datagrams are
// copied from one endpoint's WriteTo to another's ReadFrom, unless a
// partition or a cut link stands between them. Like UDP it may drop: an
// endpoint whose queue is full loses what arrives.
type MemNetwork struct {
	mu        sync.Mutex
	endpoints map[netip.AddrPort]*MemEndpoint
	group     map[netip.AddrPort]int // partition group; same group (or none) = connected
	cut       map[[2]netip.AddrPort]bool
	next      uint32
}

// memBroadcast is MemNetwork's broadcast address: a datagram sent there
// reaches every endpoint the sender is connected to.
var memBroadcast = netip.MustParseAddrPort("10.255.255.255:7946")

// memQueue is how many datagrams an endpoint holds before it drops, as a
// socket's receive buffer does.
const memQueue = 4096

// NewMemNetwork returns an empty network.
func NewMemNetwork() *MemNetwork {
	return &MemNetwork{endpoints: map[netip.AddrPort]*MemEndpoint{}, group: map[netip.AddrPort]int{}, cut: map[[2]netip.AddrPort]bool{}}
}

// Broadcast is the address that reaches every connected endpoint.
func (m *MemNetwork) Broadcast() netip.AddrPort { return memBroadcast }

// Listen adds an endpoint with an address of its own.
func (m *MemNetwork) Listen() *MemEndpoint {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.next++
	addr := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, byte(m.next >> 8), byte(m.next)}), 7946)
	e := &MemEndpoint{net: m, addr: addr, queue: make(chan memDatagram, memQueue), done: make(chan struct{})}
	m.endpoints[addr] = e
	return e
}

// Partition splits the network: endpoints in the same group reach each
// other, endpoints in different groups don't; endpoints in no group reach
// only each other. Partition() with no groups heals every partition.
func (m *MemNetwork) Partition(groups ...[]netip.AddrPort) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.group = map[netip.AddrPort]int{}
	for i, g := range groups {
		for _, a := range g {
			m.group[a] = i + 1
		}
	}
}

// Disconnect cuts the link between a and b (both ways); Reconnect restores it.
func (m *MemNetwork) Disconnect(a, b netip.AddrPort) { m.setCut(a, b, true) }

// Reconnect restores a link that Disconnect cut.
func (m *MemNetwork) Reconnect(a, b netip.AddrPort) { m.setCut(a, b, false) }

func (m *MemNetwork) setCut(a, b netip.AddrPort, cut bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if cut {
		m.cut[[2]netip.AddrPort{a, b}], m.cut[[2]netip.AddrPort{b, a}] = true, true
	} else {
		delete(m.cut, [2]netip.AddrPort{a, b})
		delete(m.cut, [2]netip.AddrPort{b, a})
	}
}

// connected reports whether a datagram from a reaches b. m.mu is held.
func (m *MemNetwork) connected(a, b netip.AddrPort) bool {
	return m.group[a] == m.group[b] && !m.cut[[2]netip.AddrPort{a, b}]
}

func (m *MemNetwork) send(from netip.AddrPort, b []byte, to netip.AddrPort) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if to == memBroadcast {
		for addr, e := range m.endpoints {
			if addr != from && m.connected(from, addr) {
				e.deliver(from, b)
			}
		}
		return
	}
	if e := m.endpoints[to]; e != nil && m.connected(from, to) {
		e.deliver(from, b)
	}
}

func (m *MemNetwork) remove(addr netip.AddrPort) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.endpoints, addr)
}

type memDatagram struct {
	from netip.AddrPort
	b    []byte
}

// MemEndpoint is one node's Transport on a MemNetwork.
type MemEndpoint struct {
	net   *MemNetwork
	addr  netip.AddrPort
	queue chan memDatagram
	once  sync.Once
	done  chan struct{}
}

func (e *MemEndpoint) deliver(from netip.AddrPort, b []byte) {
	select {
	case e.queue <- memDatagram{from, append([]byte(nil), b...)}:
	default: // full: lost, as on a real socket
	}
}

// WriteTo sends b to addr (MemNetwork.Broadcast reaches everyone connected).
func (e *MemEndpoint) WriteTo(b []byte, addr netip.AddrPort) error {
	select {
	case <-e.done:
		return net.ErrClosed
	default:
	}
	e.net.send(e.addr, b, addr)
	return nil
}

// ReadFrom waits for the next datagram.
func (e *MemEndpoint) ReadFrom(b []byte) (int, netip.AddrPort, error) {
	select {
	case d := <-e.queue:
		return copy(b, d.b), d.from, nil
	case <-e.done:
		return 0, netip.AddrPort{}, net.ErrClosed
	}
}

// LocalAddr is the endpoint's address.
func (e *MemEndpoint) LocalAddr() netip.AddrPort { return e.addr }

// Close removes the endpoint from its network.
func (e *MemEndpoint) Close() error {
	e.once.Do(func() {
		close(e.done)
		e.net.remove(e.addr)
	})
	return nil
}
