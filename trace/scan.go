package trace

import (
	"math"

	"github.com/electgo/elect/algo"
)

// scanEvent is the reader's fast path: it decodes raw into j when raw is a
// line as the Writer writes it (an object without spaces, with known keys
// in lower case, each once; integers without a fraction or an exponent;
// strings of ASCII from the space up, without escapes; the message as an object of
// the same kind). It reports false, having decoded nothing to rely on, for
// any other line, which decodeStrict then reads, accepting or refusing it
// as encoding/json does: the two agree on every line the fast path takes
// (FuzzScanEvent). encoding/json spends most of the time of reading a
// trace in reflection; this reads a line about ten times faster.
//
// scratch holds what j's pointers point to, so that a line costs no
// allocation but for a message's peers.
func (tr *Reader) scanEvent(raw []byte, j *jsonEvent) bool {
	*j = jsonEvent{}
	sc := &tr.scratch
	s := scanner{b: raw}
	var seen uint16
	ok := s.object(func(key []byte) bool {
		var bit uint16
		var good bool
		switch string(key) {
		case "t":
			bit, j.T = 1<<0, &sc.t
			sc.t, good = s.int()
		case "ev":
			bit = 1 << 1
			j.Ev, good = s.name(kindNames[:])
		case "node":
			bit, j.Node = 1<<2, &sc.node
			sc.node, good = s.int()
		case "peer":
			bit, j.Peer = 1<<3, &sc.peer
			sc.peer, good = s.int()
		case "value":
			bit = 1 << 4
			j.Value, good = s.int()
		case "reason":
			bit = 1 << 5
			j.Reason, good = s.name(reasonNames[:])
		case "msg":
			bit, j.Msg = 1<<6, &sc.msg
			good = tr.scanMsg(&s, &sc.msg)
		case "timer":
			bit = 1 << 7
			j.Timer, good = s.int()
		case "leader":
			bit, j.Leader = 1<<8, &sc.leader
			sc.leader, good = s.int()
		case "state":
			bit = 1 << 9
			j.State, good = s.name(algo.StateNames())
		case "index":
			bit = 1 << 10
			j.Index, good = s.pair()
		case "quiescent":
			bit = 1 << 11
			j.Quiescent, good = s.bool()
		case "moved":
			bit = 1 << 12
			j.Moved, good = s.bool()
		case "text":
			bit = 1 << 13
			var b []byte
			b, good = s.str()
			j.Text = string(b)
		}
		return once(&seen, bit, good)
	})
	return ok && s.i == len(s.b)
}

func (tr *Reader) scanMsg(s *scanner, m *jsonMsg) bool {
	*m = jsonMsg{}
	var seen uint16
	return s.object(func(key []byte) bool {
		var bit uint16
		var good bool
		switch string(key) {
		case "type":
			bit = 1 << 0
			var b []byte
			if b, good = s.str(); good {
				// The header's own string when it names the type: no copy.
				if t, known := tr.types[string(b)]; known {
					m.Type = tr.Header.Messages[t]
				} else {
					m.Type = string(b)
				}
			}
		case "level":
			bit = 1 << 1
			var v int64
			v, good = s.int()
			good = good && v >= math.MinInt32 && v <= math.MaxInt32
			m.Level = int32(v)
		case "index":
			bit = 1 << 2
			m.Index, good = s.pair()
		case "peer":
			bit = 1 << 3
			m.Peer, good = s.pair()
		case "peers":
			bit = 1 << 4
			m.Peers, good = s.pairs()
		case "data":
			bit = 1 << 5
			var b []byte
			b, good = s.str()
			m.Data = string(b)
		}
		return once(&seen, bit, good)
	})
}

// once says a member was read well and, by its bit in seen, for the first
// time: a key twice is the slow path's to settle (the last one wins).
func once(seen *uint16, bit uint16, good bool) bool {
	if !good || *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// scanner reads the JSON the Writer writes, and nothing else.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object reads {"key":value,...}, calling member with each key to read
// its value.
func (s *scanner) object(member func(key []byte) bool) bool {
	if !s.eat('{') {
		return false
	}
	if s.eat('}') {
		return true
	}
	for {
		key, ok := s.str()
		if !ok || !s.eat(':') || !member(key) {
			return false
		}
		if s.eat('}') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// str reads a string of ASCII from the space up, without escapes; the
// bytes are raw's.
func (s *scanner) str() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], true
		case c < 0x20 || c >= 0x80 || c == '\\':
			return nil, false
		}
	}
	return nil, false
}

// name reads a string that must be one of names (else the slow path says
// what is wrong), returned as the table's own string.
func (s *scanner) name(names []string) (string, bool) {
	b, ok := s.str()
	if !ok {
		return "", false
	}
	for _, n := range names {
		if n == string(b) {
			return n, true
		}
	}
	return "", false
}

// int reads an integer as JSON writes it: no leading zero, no fraction,
// no exponent, within int64.
func (s *scanner) int() (int64, bool) {
	neg := s.eat('-')
	start := s.i
	var v uint64
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		v = v*10 + uint64(s.b[s.i]-'0')
		s.i++
	}
	// Up to 19 digits fit a uint64; past int64, or past 19 digits, the
	// slow path decides (and refuses).
	n := s.i - start
	if n == 0 || n > 19 || n > 1 && s.b[start] == '0' {
		return 0, false
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	switch {
	case neg && v <= 1<<63:
		return int64(-v), true // -(1<<63) wraps to itself: math.MinInt64
	case !neg && v <= math.MaxInt64:
		return int64(v), true
	}
	return 0, false
}

func (s *scanner) bool() (bool, bool) {
	switch {
	case len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "true":
		s.i += 4
		return true, true
	case len(s.b)-s.i >= 5 && string(s.b[s.i:s.i+5]) == "false":
		s.i += 5
		return false, true
	}
	return false, false
}

// pair reads [x,y].
func (s *scanner) pair() (pair, bool) {
	var p pair
	var ok1, ok2 bool
	if !s.eat('[') {
		return p, false
	}
	p[0], ok1 = s.int()
	if !ok1 || !s.eat(',') {
		return p, false
	}
	p[1], ok2 = s.int()
	return p, ok2 && s.eat(']')
}

// pairs reads [[x,y],...].
func (s *scanner) pairs() ([]pair, bool) {
	if !s.eat('[') {
		return nil, false
	}
	out := []pair{}
	if s.eat(']') {
		return out, true
	}
	for {
		p, ok := s.pair()
		if !ok {
			return nil, false
		}
		out = append(out, p)
		if s.eat(']') {
			return out, true
		}
		if !s.eat(',') {
			return nil, false
		}
	}
}
