package runtime

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/electgo/elect/algo"
)

// FuzzDecode checks that Decode never panics and accepts only what the
// encoder writes: whatever Decode accepts, the same codec encodes back to
// the same bytes, up to the end of the checksum or tag. Run it with
//
//	go test -fuzz=FuzzDecode ./runtime
//
// The seeds are valid datagrams of both codecs and a few broken ones;
// testdata/fuzz/FuzzDecode holds more.
func FuzzDecode(f *testing.F) {
	full, typical := fullMessage(), typicalMessage()
	for _, c := range []*Codec{plain, keyed} {
		for _, m := range []*algo.Message{&full, &typical} {
			b, err := c.AppendMessage(nil, 1767225600000000000, m)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
			f.Add(append(b, "trailing"...))
		}
		b, err := c.AppendHello(nil, 3, 1, -42, 7)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)-1])
		for _, fr := range testFrames() {
			b, err := c.AppendFrame(nil, fr.Payload.From, fr.Payload.To, 9, &fr)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte{})
	f.Add([]byte("EL"))
	f.Add([]byte("not a datagram at all, but long enough to be read"))

	f.Fuzz(func(t *testing.T, b []byte) {
		// A fuzzer seldom guesses a checksum, let alone a tag: decoding b
		// also with its trailer made right lets it reach the checks behind
		// them (cluster, sender, payload) from any input.
		for _, in := range [][]byte{b, resealed(b)} {
			for _, c := range []*Codec{plain, keyed} {
				d, err := c.Decode(in)
				if err != nil {
					var we *WireError
					if !errors.As(err, &we) || we.Reason > ReasonSender {
						t.Fatalf("Decode(%x): %v; want a *WireError with a decoder's reason", in, err)
					}
					continue
				}
				checkReencodes(t, c, in, d)
			}
		}
	})
}

// resealed returns b with the checksum, and the tag under testKey if its
// flags ask for one, recomputed for the header and payload its payload
// length field delimits; bytes after them are kept as trailing bytes. An
// input too short for that is returned as it is.
func resealed(b []byte) []byte {
	if len(b) < headerLen {
		return b
	}
	end := headerLen + int(binary.BigEndian.Uint16(b[offPayloadLen:]))
	if end > len(b) {
		return b
	}
	var key []byte
	if b[offFlags]&flagTag != 0 {
		key = testKey
	}
	return append(seal(b[:end], key), b[end:]...)
}

// checkReencodes fails t unless datagram b, which codec c accepted as d,
// is what c writes for d, up to the end of b's checksum or tag.
func checkReencodes(t *testing.T, c *Codec, b []byte, d Datagram) {
	t.Helper()
	var again []byte
	var err error
	switch d.Kind {
	case KindHello:
		again, err = c.AppendHello(nil, d.Sender, d.Seq, d.Value, d.Fence)
	case KindMessage:
		if d.Message.From != d.Sender {
			t.Fatalf("Decode(%x): message from %d in a datagram from %d", b, d.Message.From, d.Sender)
		}
		again, err = c.AppendMessage(nil, d.Seq, &d.Message)
	case KindFrame:
		f := Frame[algo.Message]{FrameHeader: d.Frame}
		if d.Frame.Data {
			f.Payload = d.Message
		}
		again, err = c.AppendFrame(nil, d.Sender, d.To, d.Seq, &f)
	default:
		t.Fatalf("Decode(%x) accepted kind %d", b, d.Kind)
	}
	if err != nil {
		t.Fatalf("Decode(%x) accepted %+v, which does not encode: %v", b, d, err)
	}

	accepted := b[:min(len(again), len(b))]
	if tagged := b[offFlags]&flagTag != 0; tagged && len(c.Key) == 0 {
		// A codec without a key accepts signed datagrams but writes
		// unsigned ones: only the header (but its flags) and the payload
		// can be compared.
		payloadEnd := headerLen + int(binary.BigEndian.Uint16(b[offPayloadLen:]))
		accepted = bytes.Clone(b[:payloadEnd])
		accepted[offFlags] &^= flagTag
		again = again[:min(payloadEnd, len(again))]
	}
	if !bytes.Equal(accepted, again) {
		t.Fatalf("Decode accepted\n  %x\nas %+v, which encodes as\n  %x", accepted, d, again)
	}
}
