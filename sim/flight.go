package sim

import "github.com/electgo/elect/algo"

// flight is a message in flight and the count of link changes when it was
// sent (Engine.changes), side by side: a delivery reads both from one cache
// line.
type flight struct {
	m    algo.Message
	sent uint64
}

// flightChunkBits sizes the chunks of the message store: 4,096 messages,
// 384 KiB.
const (
	flightChunkBits = 12
	flightChunkLen  = 1 << flightChunkBits
)

type flightChunk struct {
	f    [flightChunkLen]flight
	live int32 // messages stored and not yet released
}

// flights stores the messages in flight. A queued delivery names its
// message by slot: chunk number, then index in the chunk.
//
// Slots are handed out in sending order, chunk after chunk, and a chunk is
// reused once every message in it has been delivered. Messages are mostly
// delivered in about the order they were sent (exactly so under constant
// delays), so deliveries read the store front to back, as sends wrote it,
// and the hardware prefetcher keeps ahead of both. A free list of single
// slots, as the engine had, reused the slot of each message delivered for
// the next one sent: deliveries then read slots in the order of a shuffled
// deck, and on a million-node wave (tens of thousands of messages in
// flight, 4 MB) nearly every delivery missed the cache on its message.
type flights struct {
	chunks []*flightChunk
	free   []int32 // chunks with no live message, for reuse
	cur    int32   // the chunk being filled
	next   int32   // the next slot of cur to hand out
}

func (fs *flights) init() {
	fs.chunks = []*flightChunk{new(flightChunk)}
}

// at returns the message in flight in slot s.
func (fs *flights) at(s int32) *flight {
	return &fs.chunks[s>>flightChunkBits].f[s&(flightChunkLen-1)]
}

// add stores a message and returns its slot.
func (fs *flights) add(m *algo.Message, sent uint64) int32 {
	if fs.next == flightChunkLen {
		// cur is full. It goes to the free list when its last message is
		// released (or now, if that happened already).
		if fs.chunks[fs.cur].live == 0 {
			fs.free = append(fs.free, fs.cur)
		}
		if k := len(fs.free); k > 0 {
			fs.cur = fs.free[k-1]
			fs.free = fs.free[:k-1]
		} else {
			fs.cur = int32(len(fs.chunks))
			fs.chunks = append(fs.chunks, new(flightChunk))
		}
		fs.next = 0
	}
	c := fs.chunks[fs.cur]
	s := fs.cur<<flightChunkBits | fs.next
	f := &c.f[fs.next]
	f.m, f.sent = *m, sent
	c.live++
	fs.next++
	return s
}

// release frees slot s once its message has been delivered or dropped.
func (fs *flights) release(s int32) {
	ci := s >> flightChunkBits
	c := fs.chunks[ci]
	f := &c.f[s&(flightChunkLen-1)]
	f.m.Peers, f.m.Data = nil, nil // let the collector have them
	c.live--
	if c.live == 0 && ci != fs.cur {
		fs.free = append(fs.free, ci)
	}
}
