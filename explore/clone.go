package explore

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/electgo/elect/algo"
)

// Exploration branches: every state's successors start from a copy of the
// machine that the step touches. A machine that implements algo.Cloner
// copies itself; any other is copied by cloneMachine's generic deep copy,
// which asks nothing of its author: it follows the machine's fields,
// exported or not (through package unsafe, as a debugger would), copies
// slices, maps and what pointers point to, keeps pointers that pointed to
// the same thing pointing to one copy, and shares what cannot change
// under the machine (strings, functions, channels). What it cannot copy
// faithfully is what a machine must not hold anyway (docs/algorithms.md):
// an Env kept past its call, a channel, state outside the machine.

// cloneMachine copies m, sharing with it what the network's machines
// share (findShared).
func cloneMachine(m algo.Machine, shared sharing) algo.Machine {
	if c, ok := m.(algo.Cloner); ok {
		return c.Clone()
	}
	cp := copiers.Get().(*copier)
	cp.shared = shared
	defer cp.release()
	return cp.fresh(reflect.ValueOf(m)).Interface().(algo.Machine)
}

// copier is one deep copy under way: the copies of the pointers met so
// far, so that a pointer met twice is copied once, and what is shared.
type copier struct {
	seen   map[target]reflect.Value
	shared sharing
}

// target is what a pointer points to: an address and a type (a struct and
// its first field share their address).
type target struct {
	p unsafe.Pointer
	t reflect.Type
	n int // a slice's length: a slice of a shared array is not the array
}

var copiers = sync.Pool{New: func() any { return &copier{seen: map[target]reflect.Value{}} }}

func (c *copier) release() {
	clear(c.seen)
	c.shared = nil
	copiers.Put(c)
}

// fresh is a deep copy of v.
func (c *copier) fresh(v reflect.Value) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	c.into(out, v)
	return out
}

// into copies src into dst, which is settable. src is never read-only:
// every value reached through an unexported field is first seen through
// its address (open), as if exported.
func (c *copier) into(dst, src reflect.Value) {
	t := src.Type()
	p := planOf(t)
	if p.plain {
		dst.Set(src)
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if src.IsNil() || c.shared.has(src) {
			dst.Set(src)
			return
		}
		k := target{p: src.UnsafePointer(), t: t}
		if cp, ok := c.seen[k]; ok {
			dst.Set(cp)
			return
		}
		cp := reflect.New(t.Elem())
		c.seen[k] = cp
		c.into(cp.Elem(), reflect.NewAt(t.Elem(), k.p).Elem())
		dst.Set(cp)
	case reflect.Struct:
		src = addressable(src)
		dst.Set(src) // the plain fields; the others are copied below
		for _, i := range p.deep {
			c.into(open(dst.Field(i)), open(src.Field(i)))
		}
	case reflect.Array:
		for i := range src.Len() {
			c.into(dst.Index(i), src.Index(i))
		}
	case reflect.Slice:
		if src.IsNil() || c.shared.has(src) {
			dst.Set(src)
			return
		}
		cp := reflect.MakeSlice(t, src.Len(), src.Len())
		if planOf(t.Elem()).plain {
			reflect.Copy(cp, src)
		} else {
			for i := range src.Len() {
				c.into(cp.Index(i), src.Index(i))
			}
		}
		dst.Set(cp)
	case reflect.Map:
		if src.IsNil() || c.shared.has(src) {
			dst.Set(src)
			return
		}
		cp := reflect.MakeMapWithSize(t, src.Len())
		for it := src.MapRange(); it.Next(); {
			cp.SetMapIndex(c.fresh(it.Key()), c.fresh(it.Value()))
		}
		dst.Set(cp)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		dst.Set(c.fresh(src.Elem()))
	default: // unsafe pointers: shared
		dst.Set(src)
	}
}

// open is v, settable and readable whether its field was exported or not:
// the same memory, seen through its address. v must be addressable.
func open(v reflect.Value) reflect.Value {
	if v.CanSet() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// addressable is v, or a copy of it that has an address (a struct held in
// a map or an interface has none, and its unexported fields could not be
// opened).
func addressable(v reflect.Value) reflect.Value {
	if v.CanAddr() {
		return v
	}
	cp := reflect.New(v.Type()).Elem()
	cp.Set(v)
	return cp
}
