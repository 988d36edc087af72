// Package blame tells whose bug a panic is: an algorithm's (a machine's
// code, built in or a user's), which a driver reports as a violation of the
// specification, or elect's own (its drivers, checker and tools), which is
// an internal error. It reads the panicking goroutine's stack from where the
// panic began down to the driver's call.
package blame

import (
	"fmt"
	"path"
	"runtime"
	"strings"
)

// elect's own packages: a panic that begins in one of them is elect's bug
// (unless the driver says otherwise, see Machine), whatever called it. The
// algorithms' packages (algo and below, but for the conformance kit), the
// examples and anything outside the module are the algorithms' side.
var drivers = []string{
	"sim", "trace", "check", "metrics", "runner", "torture", "topo", "mobility",
	"scenario", "node", "runtime", "supervisor", "emulate", "bench", "viz",
	"cli", "cmd", "internal/behind", "internal/batches", "internal/hugemem",
	"internal/ids", "internal/blame", "algo/conform",
}

const module = "github.com/electgo/elect/"

// side is where a frame's function lives.
type side uint8

const (
	neutral side = iota // the Go runtime, the standard library or package algo: says nothing
	elect               // one of elect's own packages
	theirs              // an algorithm's code
)

// sideOf says where function fn (as runtime.Frame.Function names it) lives.
func sideOf(fn string) side {
	pkg := pkgOf(fn)
	if pkg == module+"algo" {
		// The contract's package: its helpers serve machines and drivers
		// alike, so the frames around them decide.
		return neutral
	}
	if rest, ok := strings.CutPrefix(pkg, module); ok {
		for _, d := range drivers {
			if rest == d || strings.HasPrefix(rest, d+"/") {
				return elect
			}
		}
		return theirs
	}
	// The standard library's paths have no dot in their first element.
	if first, _, _ := strings.Cut(pkg, "/"); !strings.Contains(first, ".") {
		return neutral
	}
	return theirs
}

// pkgOf is the import path of function fn: "example.com/x/y.(*T).M" is in
// "example.com/x/y".
func pkgOf(fn string) string {
	dir, base := path.Split(fn)
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	return dir + base
}

// Panic is what a driver knows of a panic it recovered.
type Panic struct {
	Value any
	// Frames are the stack's frames in an algorithm's code, from where the
	// panic began down to the driver's call (at most maxFrames), as "function (file:line)" with
	// the file's base name, which does not depend on where the code was
	// built.
	Frames []string
	// Theirs says the panic began in an algorithm's code: the first frame
	// of the stack outside the Go runtime and the standard library is not
	// one of elect's own packages.
	Theirs bool
	// Stack is the goroutine's whole stack, as the runtime prints it.
	Stack []byte
}

const maxFrames = 8

// Recovered describes a panic just recovered with value v. Call it from the
// deferred function that recovered it, so that the stack is the panic's.
func Recovered(v any) *Panic {
	p := &Panic{Value: v, Stack: stack()}
	pcs := make([]uintptr, 128)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	// The frames begin with the deferred function that recovered, then
	// runtime.gopanic; the panic's own frames come after it.
	decided, panicked := false, false
	for more := true; more; {
		var f runtime.Frame
		f, more = frames.Next()
		if !panicked {
			panicked = f.Function == "runtime.gopanic"
			continue
		}
		s := sideOf(f.Function)
		if !decided && s != neutral {
			decided, p.Theirs = true, s == theirs
		}
		if s == elect && len(p.Frames) > 0 {
			break // the driver's call: the algorithm's frames end here
		}
		if s == theirs && len(p.Frames) < maxFrames {
			p.Frames = append(p.Frames, fmt.Sprintf("%s (%s:%d)", f.Function, path.Base(f.File), f.Line))
		}
	}
	return p
}

// stack is the calling goroutine's stack, as the runtime prints it.
func stack() []byte {
	buf := make([]byte, 16<<10)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}
