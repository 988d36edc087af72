package runtime

import (
	"net/netip"
	"syscall"
	"testing"
	"time"
)

// Datagrams that arrive while the socket's receive buffer is full are
// dropped by the kernel, which no counter of the node sees: the socket
// counts them (SO_RXQ_OVFL) and the next datagram read brings the count.
func TestKernelDropsCounted(t *testing.T) {
	rx, err := ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	raw, err := rx.conn.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	raw.Control(func(fd uintptr) { // the smallest buffer the kernel allows
		err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()

	b := make([]byte, 1000)
	const sent = 500
	for range sent { // nobody reads meanwhile
		if err := tx.WriteTo(b, rx.LocalAddr()); err != nil {
			t.Fatal(err)
		}
	}
	if d := rx.KernelDrops(); d != 0 {
		t.Fatalf("%d drops before any read", d)
	}
	read := 0
	rx.conn.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	for {
		n, from, err := rx.ReadFrom(b)
		if err != nil {
			break
		}
		if n != len(b) || from != netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), tx.LocalAddr().Port()) {
			t.Fatalf("read %d bytes from %v", n, from)
		}
		read++
	}
	// The count is stamped on the datagrams queued after a drop: the next
	// one brings it.
	if err := tx.WriteTo(b, rx.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	rx.conn.SetReadDeadline(time.Now().Add(time.Second))
	if _, _, err := rx.ReadFrom(b); err != nil {
		t.Fatal(err)
	}
	drops := rx.KernelDrops()
	t.Logf("sent %d, read %d, kernel dropped %d", sent, read, drops)
	if read == 0 || read == sent {
		t.Fatalf("read %d of %d: the buffer did not overflow as the test needs", read, sent)
	}
	if drops != uint64(sent-read) {
		t.Errorf("kernel drops %d, want %d (sent %d, read %d)", drops, sent-read, sent, read)
	}
}
