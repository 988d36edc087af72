package node

import (
	"net"
	"syscall"
)

// waiting says whether bytes wait unread on c: a request the server has
// not read yet, its goroutine not scheduled, which an idle connection
// (one of a flood) has not. It peeks without taking the bytes nor waiting
// (MSG_PEEK|MSG_DONTWAIT), and through Control, which does not take the
// read lock that the connection's own goroutine may hold while it waits.
func waiting(c net.Conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	var b [1]byte
	n := 0
	rc.Control(func(fd uintptr) {
		n, _, _ = syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	})
	return n > 0
}
