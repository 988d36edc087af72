package explore

import (
	"reflect"

	"github.com/electgo/elect/algo"
)

// Machines of one network often point to what they share: the
// algorithm's configuration, and through it the slab every node was
// allocated from. Copied and hashed with each machine, that would be the
// whole network at every step. What two machines both reach at the boot,
// without passing through a third machine, is taken for such shared,
// read-only data: a copy shares it and a fingerprint skips it. Machines
// must not change what they share (docs/algorithms.md: nodes speak only by
// messages), which is what makes this sound.

// sharing is the set of what the boot's machines share.
type sharing map[target]bool

// findShared walks each machine from its root, stopping at the other
// machines' roots, and returns what more than one of them reaches.
func findShared(ms []algo.Machine) sharing {
	roots := map[target]bool{}
	for _, m := range ms {
		if t, ok := rootOf(m); ok {
			roots[t] = true
		}
	}
	count := map[target]int{}
	for _, m := range ms {
		if m == nil {
			continue
		}
		seen := map[target]bool{}
		v := reflect.ValueOf(m)
		if t, ok := rootOf(m); ok {
			seen[t] = true
			v = reflect.NewAt(v.Type().Elem(), t.p).Elem()
		}
		reach(v, roots, seen)
		for t := range seen {
			count[t]++
		}
	}
	shared := sharing{}
	for t, k := range count {
		if k > 1 && !roots[t] {
			shared[t] = true
		}
	}
	return shared
}

// rootOf is what a machine's interface value points to, if a pointer.
func rootOf(m algo.Machine) (target, bool) {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return target{}, false
	}
	return target{p: v.UnsafePointer(), t: v.Type()}, true
}

// reach adds to seen what v reaches through pointers, slices and maps,
// not entering roots.
func reach(v reflect.Value, roots, seen map[target]bool) {
	if planOf(v.Type()).plain {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		t := target{p: v.UnsafePointer(), t: v.Type()}
		if seen[t] || roots[t] {
			return
		}
		seen[t] = true
		reach(reflect.NewAt(v.Type().Elem(), t.p).Elem(), roots, seen)
	case reflect.Slice:
		if v.Cap() == 0 {
			return
		}
		t := target{v.UnsafePointer(), v.Type(), v.Len()}
		if seen[t] {
			return
		}
		seen[t] = true
		for i := range v.Len() {
			reach(v.Index(i), roots, seen)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		t := target{p: v.UnsafePointer(), t: v.Type()}
		if seen[t] {
			return
		}
		seen[t] = true
		for it := v.MapRange(); it.Next(); {
			reach(it.Key(), roots, seen)
			reach(it.Value(), roots, seen)
		}
	case reflect.Interface:
		if !v.IsNil() {
			reach(v.Elem(), roots, seen)
		}
	case reflect.Struct:
		v = addressable(v)
		for _, i := range planOf(v.Type()).deep {
			reach(open(v.Field(i)), roots, seen)
		}
	case reflect.Array:
		for i := range v.Len() {
			reach(v.Index(i), roots, seen)
		}
	}
}

// has says whether v (a pointer, slice or map) points to shared data.
func (s sharing) has(v reflect.Value) bool {
	if len(s) == 0 {
		return false
	}
	t := target{p: v.UnsafePointer(), t: v.Type()}
	if v.Kind() == reflect.Slice {
		t.n = v.Len()
	}
	return s[t]
}
