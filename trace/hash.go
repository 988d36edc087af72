package trace

import (
	"encoding/binary"
	"math/bits"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/blame"
)

// Hasher fingerprints a run: it folds every event, field by field, into a
// 64-bit value. Two runs with the same hash took the same steps; the simulator
// computes it on every run (it costs a few nanoseconds an event, far less than
// writing a trace) and `elect check` recomputes it from a trace file.
//
// It is a fingerprint, not a cryptographic digest.
type Hasher struct{ h uint64 }

// NewHasher starts a fingerprint.
func NewHasher() Hasher { return Hasher{h: 0x9e3779b97f4a7c15} }

// Sum returns the fingerprint so far, passed through a full avalanche (the
// finaliser of SplitMix64) so that every bit depends on every word.
func (h *Hasher) Sum() uint64 {
	z := h.h
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// word folds one word in: a rotate, an xor and a multiply by an odd
// constant, as FxHash does. It is cheap enough for every event of a run of
// tens of millions, and order-sensitive, which is what a trace needs.
func (h *Hasher) word(x uint64) {
	h.h = (bits.RotateLeft64(h.h, 5) ^ x) * 0x517cc1b727220a95
}

// Add folds e into the fingerprint; an Acted event, which only names what
// the events after it do, leaves it as it was.
func (h *Hasher) Add(e *Event) {
	if e.Kind == Acted {
		return
	}
	// Node and Peer take 32 bits each, so Kind goes into the top byte of the
	// time word (a run would have to last 2^56 ns, over two years, for its
	// bits to meet Kind's). Packing Kind beside Node and Peer instead would
	// cut Peer to 24 bits, and make algo.None (all ones) hash as node
	// 16777215.
	h.word(uint64(e.At) ^ uint64(e.Kind)<<56)
	h.word(uint64(uint32(e.Node)) | uint64(uint32(e.Peer))<<32)
	switch e.Kind {
	case NodeAdded, ValueChanged, ClockRate, ClockJumped, Slowed:
		h.word(uint64(e.Value))
	case Sent, Delivered, Dropped:
		h.message(&e.Msg, e.Reason)
	case LinkUp, LinkDown:
		if e.Moved {
			h.word(1)
		}
	case TimerFired:
		h.word(uint64(e.Timer))
	case StatusChanged:
		s := &e.Status
		h.word(uint64(uint32(s.Leader)) | uint64(s.State)<<32)
		h.word(uint64(s.Index.Num) | uint64(uint32(s.Index.ID))<<32)
	case End:
		if e.Quiescent {
			h.word(1)
		}
	case Reported:
		h.bytes([]byte(e.Text))
	case Panicked:
		// Its call ("in Receive of Election from 2"), not the panic's value
		// and frames after it: a value may print an address, and frames
		// name lines that move with any edit of the code.
		h.bytes([]byte(blame.CallOf(e.Text)))
	}
}

// bytes folds in a length and then the bytes, eight at a time.
func (h *Hasher) bytes(b []byte) {
	if len(b) == 0 {
		return
	}
	h.word(uint64(len(b)))
	for len(b) >= 8 {
		h.word(binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	var last [8]byte
	copy(last[:], b)
	h.word(binary.LittleEndian.Uint64(last[:]))
}

// message folds in a message's fields, and why it was dropped.
func (h *Hasher) message(m *algo.Message, why DropReason) {
	h.word(uint64(m.Type) | uint64(uint32(m.Level))<<8 | uint64(why)<<40)
	h.word(uint64(m.Index.Num) | uint64(uint32(m.Index.ID))<<32)
	h.word(uint64(uint32(m.Peer.ID)) | uint64(len(m.Peers))<<32)
	h.word(uint64(m.Peer.Value))
	for _, p := range m.Peers {
		h.word(uint64(uint32(p.ID)))
		h.word(uint64(p.Value))
	}
	h.bytes(m.Data)
}

// Word, Bytes and Message fold a value into the hash with the trace's own
// mixing, for a driver that fingerprints states rather than events
// (explore). Bytes folds in nothing for an empty b: a caller that must
// tell "" from nothing folds in the length first.
func (h *Hasher) Word(x uint64)           { h.word(x) }
func (h *Hasher) Bytes(b []byte)          { h.bytes(b) }
func (h *Hasher) Message(m *algo.Message) { h.message(m, 0) }
