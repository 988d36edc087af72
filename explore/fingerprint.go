package explore

import (
	"math"
	"reflect"
	"unsafe"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/trace"
)

// A state is known by its fingerprint, a 64-bit hash of everything that
// decides its future: each machine's fields (followed as the deep copy
// follows them), status, timers and random source, the messages in flight
// with their numbers, the links taken down, the faults spent, the
// transmissions so far, and in timed exploration the time. Two different
// states share a fingerprint with probability about 2^-64 per pair: among
// N states, a collision (which would leave the second state unexplored)
// has probability about N²/2^65, 3·10^-6 for ten million states. A machine
// that implements algo.Fingerprinter writes its own state's bytes instead
// of being walked.

// fph accumulates a fingerprint with the trace hash's mixing
// (trace.Hasher: Word, Sum), every run of bytes after its length, so that
// an empty one is told from none.
type fph struct{ trace.Hasher }

func newFPH() fph { return fph{trace.NewHasher()} }

func (f *fph) bytes(b []byte) {
	f.Word(uint64(len(b)))
	f.Bytes(b)
}

// fingerprint of the world: its nodes' (computed once each: a step
// recomputes only those it touched), links, links down, time and faults.
func (w *world) fingerprint() uint64 {
	f := newFPH()
	for _, nd := range w.nodes {
		if nd.fp == 0 {
			nd.fp = nd.fingerprint(w.shared)
		}
		f.Word(nd.fp)
	}
	for i, l := range w.links {
		if l == nil || (len(l.msgs) == 0 && l.next == 0) {
			continue
		}
		f.Word(uint64(i))
		f.Word(uint64(l.next))
		for _, m := range l.msgs {
			f.Word(uint64(m.seq))
			f.Message(&m.m)
			if w.s.Timed {
				f.Word(uint64(m.sent))
			}
		}
	}
	for i, d := range w.down {
		if d {
			f.Word(uint64(i) | 1<<63)
		}
	}
	f.Word(uint64(w.used.Crashes) | uint64(w.used.Restarts)<<16 | uint64(w.used.Losses)<<32 | uint64(w.used.LinkChanges)<<48)
	f.Word(w.sent)
	if w.s.Timed {
		f.Word(uint64(w.now))
		for _, t := range w.changed {
			f.Word(uint64(t)) // the checker's bounds run from there
		}
	}
	return f.Sum()
}

// fingerprint of one node: never 0 (0 means not yet computed).
func (nd *nodeRec) fingerprint(shared sharing) uint64 {
	f := newFPH()
	if nd.m == nil {
		f.Word(1)
		f.bytes(nd.saved)
	} else {
		f.Word(2)
		if fp, ok := nd.m.(algo.Fingerprinter); ok {
			f.bytes(fp.AppendState(nil))
		} else {
			w := walker{f: &f, shared: shared}
			w.value(reflect.ValueOf(nd.m))
		}
		s := nd.status
		f.Word(uint64(uint32(s.Leader)) | uint64(s.State)<<32)
		f.Word(uint64(s.Index.Num) | uint64(uint32(s.Index.ID))<<32)
		for _, a := range nd.timers {
			f.Word(uint64(a.t))
			f.Word(uint64(a.at))
		}
		b, _ := nd.rng.MarshalBinary()
		f.bytes(b)
	}
	if h := f.Sum(); h != 0 {
		return h
	}
	return 1
}

// walker hashes a value as the deep copy follows it. A pointer's target is
// hashed where it is met, unless it is on the way down to it already (a
// cycle), which hashes as how far up it is, or shared by the machines
// (findShared), which is the same in every state: so equal states hash
// equal whatever their addresses, and whatever order their maps iterate in
// (a map hashes as the sum of its entries' hashes).
type walker struct {
	f      *fph
	path   []target
	shared sharing
}

func (w *walker) value(v reflect.Value) {
	f := w.f
	t := v.Type()
	p := planOf(t)
	if p.raw && v.CanAddr() {
		f.bytes(unsafe.Slice((*byte)(v.Addr().UnsafePointer()), p.size))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			f.Word(1)
		} else {
			f.Word(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.Word(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		f.Word(v.Uint())
	case reflect.Float32, reflect.Float64:
		f.Word(math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		f.Word(math.Float64bits(real(c)))
		f.Word(math.Float64bits(imag(c)))
	case reflect.String:
		s := v.String()
		f.bytes(unsafe.Slice(unsafe.StringData(s), len(s)))
	case reflect.Pointer:
		if w.opaque(v) {
			return
		}
		k := target{p: v.UnsafePointer(), t: t}
		for i := len(w.path) - 1; i >= 0; i-- {
			if w.path[i] == k {
				f.Word(uint64(len(w.path)-i) | 1<<62)
				return
			}
		}
		w.path = append(w.path, k)
		f.Word(3)
		w.value(v.Elem())
		w.path = w.path[:len(w.path)-1]
	case reflect.Struct:
		if v.CanAddr() {
			base := v.Addr().UnsafePointer()
			for _, s := range p.rawSpans {
				f.bytes(unsafe.Slice((*byte)(unsafe.Add(base, s[0])), s[1]-s[0]))
			}
			for _, i := range p.hashed {
				w.value(v.Field(i))
			}
			return
		}
		for i := range v.NumField() {
			w.value(v.Field(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			w.value(v.Index(i))
		}
	case reflect.Slice:
		if w.opaque(v) {
			return
		}
		f.Word(uint64(v.Len()) + 1)
		if ep := planOf(t.Elem()); ep.raw {
			f.bytes(unsafe.Slice((*byte)(v.UnsafePointer()), uintptr(v.Len())*ep.size))
			return
		}
		for i := range v.Len() {
			w.value(v.Index(i))
		}
	case reflect.Map:
		if w.opaque(v) {
			return
		}
		var sum uint64
		for it := v.MapRange(); it.Next(); {
			e := newFPH()
			sub := walker{f: &e, path: w.path, shared: w.shared}
			sub.value(it.Key())
			sub.value(it.Value())
			sum += e.Sum()
		}
		f.Word(uint64(v.Len()) + 1)
		f.Word(sum)
	case reflect.Interface:
		if v.IsNil() {
			f.Word(0)
			return
		}
		e := v.Elem()
		name := e.Type().String()
		f.bytes(unsafe.Slice(unsafe.StringData(name), len(name)))
		w.value(e)
	default: // functions, channels, unsafe pointers: not state
	}
}

// opaque hashes a nil or shared pointer, slice or map as a mark (the
// shared are the same in every state), and says whether it did.
func (w *walker) opaque(v reflect.Value) bool {
	switch {
	case v.IsNil():
		w.f.Word(0)
	case w.shared.has(v):
		w.f.Word(5)
	default:
		return false
	}
	return true
}
