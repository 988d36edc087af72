// Package blame tells whose bug a panic is: an algorithm's (a machine's
// code, built in or a user's), which a driver reports as a violation of the
// specification, or elect's own (its drivers, checker and tools), which is
// an internal error. It reads the panicking goroutine's stack from where the
// panic began down to the driver's call.
//
// Layer 0: it imports no package of elect; it names the drivers it knows as
// strings (docs/architecture.md).
package blame

import (
	"fmt"
	"path"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// elect's own packages: a panic that begins in one of them is elect's bug
// (unless the driver says otherwise, see Machine), whatever called it. The
// algorithms' packages (algo and below), the
// examples and anything outside the module are the algorithms' side.
var drivers = []string{
	"sim", "trace", "check", "metrics", "runner", "torture", "topo", "mobility",
	"scenario", "node", "runtime", "supervisor", "emulate", "bench", "viz",
	"cli", "internal/behind", "internal/batches", "internal/hugemem",
	"internal/ids", "internal/blame", "conform", "explore", "study", "cluster",
	"internal/journal",
}

// elect's dependencies (go.mod's requirements; TestServants holds the two
// equal): they serve elect's tools (the command line, YAML, plots,
// metrics), so a frame of theirs says nothing and the frames that called
// them decide.
var servants = []string{
	"codeberg.org/go-fonts/liberation", "codeberg.org/go-latex/latex", "codeberg.org/go-pdf/fpdf",
	"git.sr.ht/~sbinet/gg", "github.com/ajstarks/svgo", "github.com/beorn7/perks",
	"github.com/cespare/xxhash/v2", "github.com/expr-lang/expr", "github.com/golang/freetype", "github.com/inconshreveable/mousetrap",
	"github.com/kylelemons/godebug", "github.com/mitchellh/colorstring", "github.com/munnerz/goautoneg",
	"github.com/pandatix/go-abnf", "github.com/prometheus/client_golang", "github.com/prometheus/client_model",
	"github.com/prometheus/common", "github.com/prometheus/procfs", "github.com/rivo/uniseg",
	"github.com/schollz/progressbar/v3", "github.com/spf13/cobra", "github.com/spf13/pflag", "github.com/yuin/goldmark",
	"go.yaml.in/yaml/v3", "golang.org/x/image", "golang.org/x/sys",
	"golang.org/x/term", "golang.org/x/text", "gonum.org/v1/plot", "google.golang.org/protobuf",
}

const module = "github.com/electgo/elect/"

// side is where a frame's function lives.
type side uint8

const (
	neutral side = iota // the Go runtime, the standard library, package algo or a servant: says nothing
	elect               // one of elect's own packages
	theirs              // an algorithm's code
)

// sideOf says where function fn (as runtime.Frame.Function names it) lives.
func sideOf(fn string) side {
	pkg := Package(fn)
	switch {
	case pkg == module+"algo":
		// The contract's package: its helpers serve machines and drivers
		// alike, so the frames around them decide.
		return neutral
	case pkg == "main":
		// A program's own main package: elect's only calls the command
		// line; a user's may hold the algorithm it registers.
		return theirs
	}
	if rest, ok := strings.CutPrefix(pkg, module); ok {
		for _, d := range drivers {
			if rest == d || strings.HasPrefix(rest, d+"/") {
				return elect
			}
		}
		return theirs
	}
	if within(pkg, servants) {
		return neutral
	}
	if mods := modules(); mods != nil {
		// The standard library is in no module of the build; a user's
		// code is, whatever its path (go mod init peterson).
		if within(pkg, mods) {
			return theirs
		}
		return neutral
	}
	// No build information: the standard library's paths have no dot in
	// their first element.
	if first, _, _ := strings.Cut(pkg, "/"); !strings.Contains(first, ".") {
		return neutral
	}
	return theirs
}

// within says package pkg belongs to one of the modules.
func within(pkg string, modules []string) bool {
	for _, m := range modules {
		if pkg == m || strings.HasPrefix(pkg, m+"/") {
			return true
		}
	}
	return false
}

// modules are the paths of the build's modules (the main module and its
// dependencies), nil when the binary has no build information.
var modules = sync.OnceValue(func() []string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	mods := []string{info.Main.Path}
	for _, d := range info.Deps {
		mods = append(mods, d.Path)
	}
	return mods
})

// Package is the import path of function fn as runtime.Frame.Function
// names it: "example.com/x/y.(*T).M" is in "example.com/x/y". The last
// element of a path escapes its dots ("%2e"), so the function's name
// starts at the first dot after the last slash.
func Package(fn string) string {
	dir, base := path.Split(fn)
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	return strings.ReplaceAll(dir+base, "%2e", ".")
}

// Panic is what a driver knows of a panic it recovered.
type Panic struct {
	Value any
	// Frames are the stack's frames in an algorithm's code, from where the
	// panic began down to the driver's call (at most maxFrames), as "function (file:line)" with
	// the file's base name, which does not depend on where the code was
	// built.
	Frames []string
	// Call is the name of the outermost function of the algorithm's code
	// before the driver's frames: for a machine, the method the driver
	// called (Receive, Timer...).
	Call string
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
		if s == theirs {
			p.Call = f.Function[strings.LastIndexByte(f.Function, '.')+1:]
			if len(p.Frames) < maxFrames {
				p.Frames = append(p.Frames, fmt.Sprintf("%s (%s:%d)", f.Function, path.Base(f.File), f.Line))
			}
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

// Said says the panic as drivers report it: "in CALL: VALUE; at F1 < F2",
// CALL being the input the machine was handed ("Receive of Election from
// 2"); without a call, "VALUE; at F1 < F2". CallOf and Unframed read it
// back.
func (p *Panic) Said(call string) string {
	var b strings.Builder
	if call != "" {
		fmt.Fprintf(&b, "in %s: ", call)
	}
	fmt.Fprint(&b, p.Value)
	if len(p.Frames) > 0 {
		b.WriteString(framesSep)
		b.WriteString(strings.Join(p.Frames, " < "))
	}
	return b.String()
}

const framesSep = "; at "

// CallOf is the call of a text Said wrote: what comes before its first
// ": " ("in Receive of Election from 2"), which, unlike the value and the
// frames, does not depend on addresses or on where code lines fall.
func CallOf(said string) string {
	call, _, _ := strings.Cut(said, ": ")
	return call
}

// Unframed is a text Said wrote without its frames.
func Unframed(said string) string {
	if i := strings.LastIndex(said, framesSep); i >= 0 {
		return said[:i]
	}
	return said
}
