package runtime

// ReplayWindow remembers which sequence numbers one sender's datagrams have
// used, so that a datagram recorded and sent again is refused. It keeps the
// highest number accepted and a 64-bit bitmap of the 64 numbers behind it,
// as IPsec's anti-replay window does (RFC 4303, 3.4.3).
//
// Algorithms that need FIFO links (vkt, park) accept only numbers above the
// highest: a datagram overtaken by a later one is refused, which turns
// reordering into loss, and these algorithms tolerate loss.
type ReplayWindow struct {
	top  uint64
	seen uint64 // bit i: top-i was accepted
	any  bool
}

// ReplayWindowSize is how far behind the highest number a datagram may be
// and still be accepted (when order does not matter).
const ReplayWindowSize = 64

// Accept reports whether a datagram numbered seq is new, and records it if
// so. With fifo, only numbers above every one accepted before are new.
func (w *ReplayWindow) Accept(seq uint64, fifo bool) bool {
	switch {
	case !w.any || seq > w.top:
		shift := seq - w.top
		if !w.any || shift >= ReplayWindowSize {
			w.seen = 0
		} else {
			w.seen <<= shift
		}
		w.seen |= 1
		w.top, w.any = seq, true
		return true
	case fifo:
		return false
	}
	behind := w.top - seq
	if behind >= ReplayWindowSize || w.seen&(1<<behind) != 0 {
		return false
	}
	w.seen |= 1 << behind
	return true
}

// Top is the highest number accepted, and false if none was.
func (w *ReplayWindow) Top() (uint64, bool) { return w.top, w.any }

// ResumeWindow is a window that has accepted every number up to top: what
// a receiver restarted from saved state holds for a sender, so that
// datagrams captured before the restart are refused when replayed after
// it.
func ResumeWindow(top uint64) ReplayWindow {
	return ReplayWindow{top: top, seen: ^uint64(0), any: true}
}
