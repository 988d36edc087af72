// Package wiresize holds the sizes of elect's datagrams (docs/wire.md),
// shared by the runtime that writes them and by the metrics that count a
// simulated run's bytes on the air as the runtime would send them.
//
// Layer 0: it imports no package of elect (docs/architecture.md).
package wiresize

// The fixed parts, in bytes.
const (
	// Header is the datagram's fixed header: magic, version, kind, flags,
	// reserved, sender, cluster, sequence number and payload length.
	Header = 24
	// Checksum is the CRC-32C that ends every datagram.
	Checksum = 4
	// Tag is the HMAC-SHA256 that follows the checksum of a signed one.
	Tag = 32
	// MessageFixed is a message payload with no peers and no data: type,
	// destination, level, index.num, index.id, peer.id, peer.value, the
	// peer count and the data length.
	MessageFixed = 1 + 4 + 4 + 4 + 4 + 4 + 8 + 2 + 2
	// Peer is one entry of a message's peer list: id and value.
	Peer = 4 + 8
)

// Message is the size of an unsigned datagram carrying one algorithm
// message with peers entries in its peer list and data bytes of payload.
func Message(peers, data int) int {
	return Header + MessageFixed + peers*Peer + data + Checksum
}
