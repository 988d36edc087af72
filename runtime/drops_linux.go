package runtime

import (
	"encoding/binary"
	"syscall"
)

// oobSize holds one control message of 4 bytes (SO_RXQ_OVFL's count).
var oobSize = syscall.CmsgSpace(4)

// countDrops asks the kernel to send the socket's drop count with every
// datagram read once it is not zero (socket(7), SO_RXQ_OVFL).
func countDrops(fd uintptr) error {
	return syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RXQ_OVFL, 1)
}

// readDrops finds the drop count in a read's ancillary data: a uint32 in
// the host's byte order, the socket's drops since it opened.
func readDrops(oob []byte) (uint32, bool) {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return 0, false
	}
	for _, m := range msgs {
		if m.Header.Level == syscall.SOL_SOCKET && m.Header.Type == syscall.SO_RXQ_OVFL && len(m.Data) >= 4 {
			return binary.NativeEndian.Uint32(m.Data), true
		}
	}
	return 0, false
}
