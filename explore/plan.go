package explore

import (
	"reflect"
	"sync"
)

// typePlan is what the deep copy and the fingerprint need to know of a
// type, worked out once per type.
type typePlan struct {
	// plain: no pointer, slice, map or interface inside: a value is copied
	// whole by assignment (strings are immutable; functions and channels
	// are shared anyway).
	plain bool
	// raw: plain and no string, function or channel inside: a value is
	// hashed by its bytes.
	raw bool
	// deep and hashed list a struct's fields that are not plain (copied
	// one by one after the struct is assigned whole) and not raw (hashed
	// one by one; the others' bytes are hashed in one run).
	deep, hashed []int
	// rawSpans are the byte ranges of a struct's raw fields, merged where
	// they touch.
	rawSpans [][2]uintptr
	size     uintptr
}

var plans sync.Map // reflect.Type -> *typePlan

func planOf(t reflect.Type) *typePlan {
	if p, ok := plans.Load(t); ok {
		return p.(*typePlan)
	}
	p := &typePlan{size: t.Size()}
	p.plain = plainOf(t, map[reflect.Type]bool{})
	p.raw = p.plain && rawOf(t)
	if t.Kind() == reflect.Struct {
		for i := range t.NumField() {
			f := t.Field(i)
			fp := planOf(f.Type)
			if !fp.plain {
				p.deep = append(p.deep, i)
			}
			if !fp.raw {
				p.hashed = append(p.hashed, i)
				continue
			}
			end := f.Offset + f.Type.Size()
			if n := len(p.rawSpans); n > 0 && p.rawSpans[n-1][1] == f.Offset {
				p.rawSpans[n-1][1] = end
			} else if f.Type.Size() > 0 {
				p.rawSpans = append(p.rawSpans, [2]uintptr{f.Offset, end})
			}
		}
	}
	plans.Store(t, p)
	return p
}

func plainOf(t reflect.Type, visiting map[reflect.Type]bool) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.UnsafePointer:
		return false
	case reflect.Array:
		return plainOf(t.Elem(), visiting)
	case reflect.Struct:
		if visiting[t] {
			return false
		}
		visiting[t] = true
		for i := range t.NumField() {
			if !plainOf(t.Field(i).Type, visiting) {
				return false
			}
		}
	}
	return true
}

// rawOf says a plain type's bytes are its value: no string (whose bytes
// are a pointer), function or channel, and no padding between fields
// (whose bytes could differ between equal values).
func rawOf(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Func, reflect.Chan:
		return false
	case reflect.Array:
		return rawOf(t.Elem())
	case reflect.Struct:
		var at uintptr
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Offset != at || !rawOf(f.Type) {
				return false
			}
			at = f.Offset + f.Type.Size()
		}
		return at == t.Size()
	}
	return true
}
