package runtime

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/internal/wiresize"
)

const testCluster = 7

var (
	testKey   = []byte("a key shared by the whole cluster")
	plain     = &Codec{Cluster: testCluster}
	keyed     = &Codec{Cluster: testCluster, Key: testKey}
	bothCodec = []struct {
		name  string
		codec *Codec
	}{{"plain", plain}, {"keyed", keyed}}
)

// fullMessage sets every field of a message to a value that differs from its
// neighbours' and has bytes set at both ends, so that a field written at the
// wrong offset, or with the wrong width or sign, cannot round-trip.
func fullMessage() algo.Message {
	return algo.Message{
		Type:  0xfe,
		Level: -0x01020304,
		From:  0x7fff_fff0,
		To:    0x0102_0304,
		Index: algo.Index{Num: 0xfedc_ba98, ID: 0x0a0b_0c0d},
		Peer:  algo.Peer{ID: 0x1122_3344, Value: -0x0102_0304_0506_0708},
		Peers: []algo.Peer{{ID: 1, Value: 1 << 62}, {ID: algo.None, Value: -1 << 63}, {ID: 0x7fff_ffff, Value: 1<<63 - 1}},
		Data:  []byte{0, 1, 0xfe, 0xff, 'x'},
	}
}

// typicalMessage is what algorithms send most: fixed fields only.
func typicalMessage() algo.Message {
	return algo.Message{Type: 3, Level: 2, From: 12, To: 40, Index: algo.Index{Num: 9, ID: 12}, Peer: algo.Peer{ID: 57, Value: 980}}
}

func TestWireRoundTrip(t *testing.T) {
	full := fullMessage()
	noData, noPeers, bare := full, full, full
	noData.Data = nil
	noPeers.Peers = nil
	bare.Peers, bare.Data = nil, nil
	nonePeer := typicalMessage()
	nonePeer.Peer = algo.NoPeer
	nonePeer.From = 0

	hellos := []struct {
		sender algo.NodeID
		seq    uint64
		value  int64
		fence  uint64
	}{
		{0, 0, 0, 0},
		{3, 1767225600000000000, -42, 7<<32 | 3},
		{0x7fff_ffff, 1<<64 - 1, 1<<63 - 1, 1<<64 - 1},
		{1, 1, -1 << 63, 1},
	}
	messages := []struct {
		name string
		seq  uint64
		msg  algo.Message
	}{
		{"full", 1<<64 - 1, full},
		{"peers without data", 2, noData},
		{"data without peers", 3, noPeers},
		{"no peers no data", 4, bare},
		{"typical", 1767225600000000000, typicalMessage()},
		{"no peer, from 0", 0, nonePeer},
		{"zero", 0, algo.Message{}},
	}

	for _, cc := range bothCodec {
		for _, h := range hellos {
			b, err := cc.codec.AppendHello(nil, h.sender, h.seq, h.value, h.fence)
			if err != nil {
				t.Fatalf("%s: AppendHello(%d, %d, %d): %v", cc.name, h.sender, h.seq, h.value, err)
			}
			got, err := cc.codec.Decode(b)
			if err != nil {
				t.Fatalf("%s: decode hello %x: %v", cc.name, b, err)
			}
			want := Datagram{Header: Header{Kind: KindHello, Sender: h.sender, Cluster: testCluster, Seq: h.seq}, Value: h.value, Fence: h.fence}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: hello round trip\n got %+v\nwant %+v", cc.name, got, want)
			}
		}
		for _, m := range messages {
			_, got := roundTrip(t, cc.codec, m.seq, &m.msg)
			want := Datagram{Header: Header{Kind: KindMessage, Sender: m.msg.From, Cluster: testCluster, Seq: m.seq}, Message: m.msg}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s: message round trip\n got %+v\nwant %+v", cc.name, m.name, got, want)
			}
		}
	}
}

// roundTrip encodes m with c and decodes it again, failing the test on
// either error.
func roundTrip(t *testing.T, c *Codec, seq uint64, m *algo.Message) ([]byte, Datagram) {
	t.Helper()
	b, err := c.AppendMessage(nil, seq, m)
	if err != nil {
		t.Fatalf("AppendMessage %+v: %v", *m, err)
	}
	d, err := c.Decode(b)
	if err != nil {
		t.Fatalf("decode %x: %v", b, err)
	}
	return b, d
}

// The decoded Peers and Data must not alias the datagram: the runtime reuses
// its read buffer for the next datagram while the machine still holds the
// message.
func TestDecodeCopiesPeersAndData(t *testing.T) {
	m := fullMessage()
	b, d := roundTrip(t, plain, 1, &m)
	clear(b)
	if !reflect.DeepEqual(d.Message.Peers, m.Peers) || !bytes.Equal(d.Message.Data, m.Data) {
		t.Errorf("decoded message changed when the datagram was overwritten: %+v", d.Message)
	}
}

// Empty but non-nil Peers and Data encode like nil ones and decode as nil.
func TestEmptySlicesDecodeAsNil(t *testing.T) {
	m := typicalMessage()
	m.Peers, m.Data = []algo.Peer{}, []byte{}
	_, d := roundTrip(t, plain, 1, &m)
	if d.Message.Peers != nil || d.Message.Data != nil {
		t.Errorf("Peers %#v, Data %#v: want nil", d.Message.Peers, d.Message.Data)
	}
}

func TestAppendKeepsPrefix(t *testing.T) {
	prefix := []byte("already here")
	m := typicalMessage()
	b, err := keyed.AppendMessage(bytes.Clone(prefix), 5, &m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, prefix) {
		t.Fatalf("AppendMessage overwrote dst's contents: %q", b[:len(prefix)])
	}
	if _, err := keyed.Decode(b[len(prefix):]); err != nil {
		t.Errorf("datagram appended after a prefix: %v", err)
	}
}

func TestEncodeRefusesNegativeSender(t *testing.T) {
	if b, err := plain.AppendHello([]byte("x"), -1, 1, 0, 0); err == nil || string(b) != "x" {
		t.Errorf("AppendHello from -1: %q, %v; want dst unchanged and an error", b, err)
	}
	m := typicalMessage()
	m.From = algo.None
	if b, err := plain.AppendMessage([]byte("x"), 1, &m); err == nil || string(b) != "x" {
		t.Errorf("AppendMessage from -1: %q, %v; want dst unchanged and an error", b, err)
	}
}

// The example of docs/wire.md, written out by hand from the layout and
// checked against an independent CRC-32C.
const goldenMessageHex = `
	454c 01 02 00 00 00000003 00000007 18867251edfa0000 003b
	02 00000007 00000001 00000005 00000003 00000009 00000000000000fa
	0002 00000004 0000000000000064 00000009 00000000000000fa
	0002 6869
	cd6a93e6`

func goldenMessage() algo.Message {
	return algo.Message{Type: 2, From: 3, To: 7, Level: 1, Index: algo.Index{Num: 5, ID: 3}, Peer: algo.Peer{ID: 9, Value: 250},
		Peers: []algo.Peer{{ID: 4, Value: 100}, {ID: 9, Value: 250}}, Data: []byte("hi")}
}

const goldenSeq = 1767225600000000000 // 2026-01-01T00:00:00Z in Unix nanoseconds

// The signed hello of docs/wire.md; its tag was checked against an
// independent HMAC-SHA256.
const goldenHelloHex = `
	454c 01 01 01 00 00000003 00000007 18867251edfa0001 0010
	ffffffffffffffd6 0000000500000003
	9b13d437
	72be0725a698400fedb7c2825ee87f360f379372b8f9f96dfdbc80a6a6c1211b`

var goldenHelloCodec = &Codec{Cluster: 7, Key: []byte("elect-example-key")}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGoldenBytes(t *testing.T) {
	m := goldenMessage()
	gotMessage, err := (&Codec{Cluster: 7}).AppendMessage(nil, goldenSeq, &m)
	if err != nil {
		t.Fatal(err)
	}
	gotHello, err := goldenHelloCodec.AppendHello(nil, 3, goldenSeq+1, -42, 5<<32|3)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []struct {
		name      string
		got, want []byte
	}{
		{"message", gotMessage, unhex(t, goldenMessageHex)},
		{"hello", gotHello, unhex(t, goldenHelloHex)},
	} {
		if !bytes.Equal(g.got, g.want) {
			t.Errorf("%s:\n got %x\nwant %x", g.name, g.got, g.want)
		}
		doc := docExample(t, "../docs/wire.md", g.name)
		if !bytes.Equal(doc, g.want) {
			t.Errorf("docs/wire.md's %s example:\n  doc %x\nwant %x", g.name, doc, g.want)
		}
	}
}

// docExample reads the fenced block after "<!-- golden: NAME -->" in the
// markdown file at path: each line is hex bytes, "|", the offset of the
// first byte, then a comment. It fails the test if an offset is wrong, so
// that the document's offsets are checked along with its bytes.
func docExample(t *testing.T, path, name string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	marker := "<!-- golden: " + name + " -->"
	var out []byte
	state := 0 // 0: looking for the marker, 1: for the fence, 2: inside the block
	lineNo := 0
	for s := bufio.NewScanner(f); s.Scan(); {
		lineNo++
		line := strings.TrimSpace(s.Text())
		switch {
		case state == 0 && line == marker:
			state = 1
		case state == 1 && strings.HasPrefix(line, "```"):
			state = 2
		case state == 2 && strings.HasPrefix(line, "```"):
			return out
		case state == 2:
			hexPart, rest, ok := strings.Cut(line, "|")
			if !ok {
				t.Fatalf("%s:%d: no '|' in %q", path, lineNo, line)
			}
			fields := strings.Fields(rest)
			if len(fields) == 0 {
				t.Fatalf("%s:%d: no offset after '|'", path, lineNo)
			}
			if off, err := strconv.Atoi(fields[0]); err != nil || off != len(out) {
				t.Errorf("%s:%d: offset %q, the bytes before make it %d", path, lineNo, fields[0], len(out))
			}
			out = append(out, unhex(t, hexPart)...)
		}
	}
	t.Fatalf("%s: no complete block after %q", path, marker)
	return nil
}

// seal returns the header and payload u followed by its checksum and, with a
// key, its tag: the test's own trailer, written from the specification, to
// craft datagrams the encoder would never produce.
func seal(u, key []byte) []byte {
	b := binary.BigEndian.AppendUint32(bytes.Clone(u), crc32.Checksum(u, crc32.MakeTable(crc32.Castagnoli)))
	if key != nil {
		mac := hmac.New(sha256.New, key)
		mac.Write(b)
		b = mac.Sum(b)
	}
	return b
}

// unsealed returns a copy of datagram b's header and payload.
func unsealed(b []byte) []byte {
	return bytes.Clone(b[:headerLen+int(binary.BigEndian.Uint16(b[offPayloadLen:]))])
}

func TestDecodeRejects(t *testing.T) {
	m := goldenMessage() // 2 peers, 2 data bytes
	msgPlain, _ := plain.AppendMessage(nil, 1, &m)
	msgKeyed, _ := keyed.AppendMessage(nil, 1, &m)
	helloPlain, _ := plain.AppendHello(nil, 3, 1, 42, 0)
	helloKeyed, _ := keyed.AppendHello(nil, 3, 1, 42, 0)
	otherCluster := &Codec{Cluster: testCluster + 1, Key: testKey}
	helloOther, _ := otherCluster.AppendHello(nil, 3, 1, 42, 0)
	helloOtherKey, _ := (&Codec{Cluster: testCluster, Key: []byte("another key")}).AppendHello(nil, 3, 1, 42, 0)

	// edit returns datagram b with its header and payload changed by f and
	// then sealed again, with key (nil: checksum only).
	edit := func(b, key []byte, f func(u []byte) []byte) []byte { return seal(f(unsealed(b)), key) }
	set := func(off int, v byte) func([]byte) []byte {
		return func(u []byte) []byte { u[off] = v; return u }
	}
	flipped := func(b []byte, off int) []byte {
		b = bytes.Clone(b)
		b[off] ^= 0x10
		return b
	}
	// payloadLen makes the payload n bytes long (cutting or padding with
	// zeros) and says so in the header.
	payloadLen := func(n int) func([]byte) []byte {
		return func(u []byte) []byte {
			u = append(u, make([]byte, headerLen+n)...)[:headerLen+n]
			binary.BigEndian.PutUint16(u[offPayloadLen:], uint16(n))
			return u
		}
	}
	const peerCountAt = headerLen + 29
	const dataLenAt = peerCountAt + 2 + 2*peerLen

	tests := []struct {
		name  string
		codec *Codec
		b     []byte
		want  Reason
	}{
		{"empty", plain, nil, ReasonShort},
		{"header and 3 bytes", plain, helloPlain[:minDatagram-1], ReasonShort},
		{"1401 bytes", plain, append(bytes.Clone(helloPlain), make([]byte, MaxDatagram+1-len(helloPlain))...), ReasonOversized},
		{"1401 bytes, signed", keyed, append(bytes.Clone(helloKeyed), make([]byte, MaxDatagram+1-len(helloKeyed))...), ReasonOversized},
		{"magic", plain, edit(helloPlain, nil, set(1, 'M')), ReasonMagic},
		{"version 2", plain, edit(helloPlain, nil, set(offVersion, 2)), ReasonVersion},
		{"version 0", plain, edit(helloPlain, nil, set(offVersion, 0)), ReasonVersion},
		{"kind 0", plain, edit(helloPlain, nil, set(offKind, 0)), ReasonKind},
		{"kind 4", plain, edit(helloPlain, nil, set(offKind, 4)), ReasonKind},
		{"kind 3, a frame too short", plain, edit(helloPlain, nil, set(offKind, 3)), ReasonPayload},
		{"flags bit 1", plain, edit(helloPlain, nil, set(offFlags, 1<<1)), ReasonFlags},
		{"flags bit 7", plain, edit(helloPlain, nil, set(offFlags, 1<<7)), ReasonFlags},
		{"reserved", plain, edit(helloPlain, nil, set(offReserved, 1)), ReasonFlags},
		{"payload length beyond the end", plain, edit(helloPlain, nil, set(offPayloadLen+1, helloPayloadLen+1)), ReasonLength},
		{"payload length 0xffff", plain, edit(msgPlain, nil, func(u []byte) []byte { u[offPayloadLen], u[offPayloadLen+1] = 0xff, 0xff; return u }), ReasonLength},
		{"tag cut short", keyed, helloKeyed[:len(helloKeyed)-1], ReasonLength},
		{"tag cut short, no key", plain, helloKeyed[:len(helloKeyed)-1], ReasonLength},
		{"payload byte flipped", plain, flipped(msgPlain, headerLen+3), ReasonChecksum},
		{"checksum flipped", plain, flipped(helloPlain, headerLen+helloPayloadLen), ReasonChecksum},
		{"header byte flipped, signed", keyed, flipped(msgKeyed, offSeq), ReasonChecksum},
		{"unsigned", keyed, helloPlain, ReasonUnsigned},
		{"unsigned message", keyed, msgPlain, ReasonUnsigned},
		{"payload changed, checksum fixed", keyed, append(edit(msgKeyed, nil, set(headerLen+3, 0x55)), msgKeyed[len(msgKeyed)-tagLen:]...), ReasonBadMAC},
		{"tag flipped", keyed, flipped(helloKeyed, len(helloKeyed)-1), ReasonBadMAC},
		{"signed with another key", keyed, helloOtherKey, ReasonBadMAC},
		{"flag set, tag of zeros", keyed, append(edit(helloPlain, nil, set(offFlags, flagTag)), make([]byte, tagLen)...), ReasonBadMAC},
		{"other cluster", plain, edit(helloPlain, nil, set(offCluster+3, testCluster+1)), ReasonCluster},
		{"other cluster, signed", keyed, helloOther, ReasonCluster},
		{"other cluster, unsigned", keyed, edit(helloPlain, nil, set(offCluster+3, testCluster+1)), ReasonUnsigned},
		{"negative sender", plain, edit(helloPlain, nil, set(offSender, 0x80)), ReasonSender},
		{"negative sender, signed", keyed, edit(msgKeyed, testKey, set(offSender, 0xff)), ReasonSender},
		{"hello of 7 bytes", plain, edit(helloPlain, nil, payloadLen(7)), ReasonPayload},
		{"hello of 9 bytes", plain, edit(helloPlain, nil, payloadLen(9)), ReasonPayload},
		{"hello of 0 bytes", keyed, edit(helloKeyed, testKey, payloadLen(0)), ReasonPayload},
		{"message of 32 bytes", plain, edit(msgPlain, nil, payloadLen(messageFixedLen-1)), ReasonPayload},
		{"peer count 3, 2 present", plain, edit(msgPlain, nil, set(peerCountAt+1, 3)), ReasonPayload},
		{"peer count 0xffff", keyed, edit(msgKeyed, testKey, func(u []byte) []byte { u[peerCountAt], u[peerCountAt+1] = 0xff, 0xff; return u }), ReasonPayload},
		{"data length 3, 2 present", plain, edit(msgPlain, nil, set(dataLenAt+1, 3)), ReasonPayload},
		{"data length 1, 2 present", plain, edit(msgPlain, nil, set(dataLenAt+1, 1)), ReasonPayload},
		{"peer count 1, 2 present", plain, edit(msgPlain, nil, set(peerCountAt+1, 1)), ReasonPayload},
		{"a byte after the data", plain, edit(msgPlain, nil, payloadLen(len(msgPlain)-headerLen-checksumLen+1)), ReasonPayload},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := tt.codec.Decode(tt.b)
			var we *WireError
			if !errors.As(err, &we) {
				t.Fatalf("Decode(%x) = %+v, %v; want a *WireError (%s)", tt.b, d, err, tt.want)
			}
			if we.Reason != tt.want {
				t.Fatalf("Decode(%x): %v; want reason %s", tt.b, err, tt.want)
			}
			if !reflect.DeepEqual(d, Datagram{}) {
				t.Errorf("rejected datagram decoded as %+v; want the zero Datagram", d)
			}
			if we.Detail == "" {
				t.Errorf("%v: no detail", err)
			}
		})
	}

	// Every reason Decode can produce is exercised above.
	seen := map[Reason]bool{}
	for _, tt := range tests {
		seen[tt.want] = true
	}
	for r := ReasonShort; r <= ReasonSender; r++ {
		if !seen[r] {
			t.Errorf("no test case rejects for %s", r)
		}
	}
}

func TestWireErrorText(t *testing.T) {
	b, _ := plain.AppendHello(nil, 3, 1, 42, 0)
	b[len(b)-1] ^= 1
	_, err := plain.Decode(b)
	want := "datagram rejected (checksum): crc 0x"
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "at offset 40") {
		t.Errorf("error %q: want it to begin %q and name offset 40", err, want)
	}
}

// A node without a key accepts signed datagrams (their tag unchecked), so
// that keys can be rolled out one node at a time.
func TestUnkeyedAcceptsSigned(t *testing.T) {
	m := fullMessage()
	b, err := keyed.AppendMessage(nil, 9, &m)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 1 // a wrong tag: unchecked without a key
	d, err := plain.Decode(b)
	if err != nil {
		t.Fatalf("unkeyed Decode of a signed datagram: %v", err)
	}
	if !reflect.DeepEqual(d.Message, m) {
		t.Errorf("got %+v, want %+v", d.Message, m)
	}
}

func TestTrailingBytesIgnored(t *testing.T) {
	m := fullMessage()
	for _, cc := range bothCodec {
		b, want := roundTrip(t, cc.codec, 5, &m)
		for _, trailer := range [][]byte{{0}, []byte("garbage after the datagram"), make([]byte, MaxDatagram-len(b))} {
			got, err := cc.codec.Decode(append(bytes.Clone(b), trailer...))
			if err != nil {
				t.Errorf("%s: %d trailing bytes: %v", cc.name, len(trailer), err)
			} else if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %d trailing bytes: got %+v, want %+v", cc.name, len(trailer), got, want)
			}
		}
	}
}

// maxPayload is the largest payload that fits in MaxDatagram with codec c,
// computed from the layout rather than taken from the encoder.
func maxPayload(c *Codec) int {
	n := MaxDatagram - headerLen - checksumLen
	if len(c.Key) > 0 {
		n -= tagLen
	}
	return n
}

func TestEncodeSizeLimit(t *testing.T) {
	for _, cc := range bothCodec {
		room := maxPayload(cc.codec) - messageFixedLen
		largest := []algo.Message{
			{From: 1, Peers: make([]algo.Peer, room/peerLen), Data: make([]byte, room%peerLen)},
			{From: 1, Data: make([]byte, room)},
		}
		for _, m := range largest {
			b, err := cc.codec.AppendMessage(nil, 1, &m)
			if err != nil {
				t.Fatalf("%s: the largest message (%d peers, %d data bytes): %v", cc.name, len(m.Peers), len(m.Data), err)
			}
			if len(b) != MaxDatagram {
				t.Errorf("%s: the largest message made %d bytes, want exactly %d", cc.name, len(b), MaxDatagram)
			}
			d, err := cc.codec.Decode(b)
			if err != nil {
				t.Fatalf("%s: decode the largest message: %v", cc.name, err)
			}
			if len(d.Message.Peers) != len(m.Peers) || len(d.Message.Data) != len(m.Data) {
				t.Errorf("%s: largest message decoded with %d peers and %d data bytes, want %d and %d",
					cc.name, len(d.Message.Peers), len(d.Message.Data), len(m.Peers), len(m.Data))
			}

			// One data byte more does not fit.
			m.Data = append(m.Data, 0)
			dst := []byte("x")
			b, err = cc.codec.AppendMessage(dst, 1, &m)
			if err == nil || !strings.Contains(err.Error(), strconv.Itoa(MaxDatagram+1)+" bytes") {
				t.Errorf("%s: a message one byte too large: error %v, want one naming %d bytes", cc.name, err, MaxDatagram+1)
			}
			if string(b) != "x" {
				t.Errorf("%s: refused message changed dst to %q", cc.name, b)
			}
		}

		m := algo.Message{From: 1, Peers: make([]algo.Peer, 200)}
		size := headerLen + messageFixedLen + 200*peerLen + (MaxDatagram - maxPayload(cc.codec) - headerLen)
		_, err := cc.codec.AppendMessage(nil, 1, &m)
		if err == nil || !strings.Contains(err.Error(), strconv.Itoa(size)+" bytes") {
			t.Errorf("%s: 200 peers: error %v, want one naming %d bytes", cc.name, err, size)
		}
	}
}

func TestCodecDoesNotAllocate(t *testing.T) {
	m := typicalMessage()
	full := fullMessage()
	buf := make([]byte, 0, MaxDatagram)
	allocs := testing.AllocsPerRun(100, func() {
		b, _ := plain.AppendMessage(buf, 1, &m)
		b, _ = plain.AppendMessage(b[:0], 1, &full)
		_, _ = plain.AppendHello(b[:0], 1, 1, 1, 1)
	})
	if allocs != 0 {
		t.Errorf("unkeyed encoding into a large enough buffer: %v allocations, want 0", allocs)
	}
	b, _ := plain.AppendMessage(buf, 1, &m)
	allocs = testing.AllocsPerRun(100, func() {
		_, _ = plain.Decode(b)
	})
	if allocs != 0 {
		t.Errorf("decoding a message without peers or data: %v allocations, want 0", allocs)
	}
}

func TestReasons(t *testing.T) {
	all := AllReasons()
	if len(all) != NumReasons {
		t.Fatalf("AllReasons has %d reasons, NumReasons is %d", len(all), NumReasons)
	}
	want := []string{"short", "oversized", "magic", "version", "kind", "flags", "length", "checksum",
		"unsigned", "bad_mac", "cluster", "payload", "sender", "replay", "misaddressed", "stranger", "flood", "range"}
	var got []string
	for i, r := range all {
		if r != Reason(i) {
			t.Errorf("AllReasons()[%d] = %d", i, r)
		}
		got = append(got, r.String())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reason names %q\nwant %q", got, want)
	}
	if s := Reason(NumReasons).String(); s != "Reason(18)" {
		t.Errorf("an unknown reason prints %q", s)
	}
	if KindHello.String() != "hello" || KindMessage.String() != "message" || Kind(9).String() != "Kind(9)" {
		t.Errorf("kinds print %q %q %q", KindHello, KindMessage, Kind(9))
	}
}

func BenchmarkEncodeMessage(b *testing.B) {
	m := typicalMessage()
	for _, cc := range bothCodec {
		b.Run(cc.name, func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, MaxDatagram)
			for b.Loop() {
				if _, err := cc.codec.AppendMessage(buf, 1, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodeMessage(b *testing.B) {
	m := typicalMessage()
	for _, cc := range bothCodec {
		b.Run(cc.name, func(b *testing.B) {
			b.ReportAllocs()
			buf, err := cc.codec.AppendMessage(nil, 1, &m)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := cc.codec.Decode(buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// testFrames are a data frame with a full message and a bare
// acknowledgement (whose Payload names only its ends, for the encoder).
func testFrames() []Frame[algo.Message] {
	m := fullMessage()
	return []Frame[algo.Message]{
		{FrameHeader{Epoch: 1767225600000000000, Theirs: 1767225599000000000, Ack: 41, Seq: 7, Data: true}, m},
		{FrameHeader{Epoch: 5, Theirs: 6, Ack: 1 << 31}, algo.Message{From: m.From, To: m.To}},
	}
}

// A frame decodes to what was encoded: its numbers, its destination, and
// its message when it carries one.
func TestFrameRoundTrip(t *testing.T) {
	for _, c := range []*Codec{plain, keyed} {
		for _, f := range testFrames() {
			b, err := c.AppendFrame(nil, f.Payload.From, f.Payload.To, 77, &f)
			if err != nil {
				t.Fatal(err)
			}
			d, err := c.Decode(b)
			if err != nil {
				t.Fatalf("%+v: %v", f.FrameHeader, err)
			}
			if d.Kind != KindFrame || d.Seq != 77 || d.Sender != f.Payload.From || d.To != f.Payload.To || d.Frame != f.FrameHeader {
				t.Errorf("decoded %+v, want frame %+v from %d to %d", d, f.FrameHeader, f.Payload.From, f.Payload.To)
			}
			if f.Data && !reflect.DeepEqual(d.Message, f.Payload) {
				t.Errorf("message %+v, want %+v", d.Message, f.Payload)
			}
		}
	}
	// A frame refuses a message that is not between its ends.
	f := testFrames()[0]
	if _, err := plain.AppendFrame(nil, f.Payload.From, f.Payload.To+1, 1, &f); err == nil {
		t.Errorf("a frame to another node than its message's was encoded")
	}
}

// The sizes the metrics count a simulated run's bytes with
// (internal/wiresize) are those of the datagrams written here.
func TestWireSizes(t *testing.T) {
	m := &algo.Message{Type: 1, To: 2, Peers: []algo.Peer{{ID: 1}, {ID: 2}, {ID: 3}}, Data: []byte("hello")}
	b, err := plain.AppendMessage(nil, 9, m)
	if err != nil {
		t.Fatal(err)
	}
	if want := wiresize.Message(3, 5); len(b) != want {
		t.Errorf("unsigned: %d bytes, wiresize says %d", len(b), want)
	}
	if b, _ = keyed.AppendMessage(nil, 9, m); len(b) != wiresize.Message(3, 5)+wiresize.Tag {
		t.Errorf("signed: %d bytes, wiresize says %d", len(b), wiresize.Message(3, 5)+wiresize.Tag)
	}
	if wiresize.Tag != sha256.Size {
		t.Errorf("the tag is %d bytes, SHA-256 %d", wiresize.Tag, sha256.Size)
	}
}
