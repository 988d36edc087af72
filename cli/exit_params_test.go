package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electgo/elect/algo"
)

// hasNo is algo.Algorithm.Resolve's refusal of an unknown parameter, with
// the algorithm's parameters as the registry has them now.
func hasNo(t *testing.T, name, param string) string {
	t.Helper()
	a, err := algo.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range a.Params {
		names = append(names, p.Name)
	}
	if len(names) == 0 {
		t.Fatalf("%s has no parameters to list", name)
	}
	return fmt.Sprintf("%s has no parameter %q (it has: %s)", name, param, strings.Join(names, ", "))
}

// Every command that takes -p/--param refuses a name the algorithm does not
// declare, with exit 1 and the list of the parameters it has, before it
// runs anything.
func TestExitUnknownParam(t *testing.T) {
	dir := t.TempDir()
	vkt, echo := hasNo(t, "vkt", "colour"), hasNo(t, "echo", "colour")
	for _, c := range []exitCase{
		{name: "sim", args: []string{"sim", "--algo", "vkt", "-p", "colour=red"}, code: ExitError, err: []string{vkt}},
		{name: "sim, long flag", args: []string{"sim", "--algo", "echo", "--param", "colour=red"}, code: ExitError, err: []string{echo}},
		{name: "node", args: []string{"node", "--algo", "vkt", "--id", "0", "--listen", "127.0.0.1:0", "-p", "colour=red"}, code: ExitError, err: []string{vkt}},
		{name: "cluster", args: []string{"cluster", "--algo", "vkt", "--nodes", "3", "-p", "colour=red"}, code: ExitError, err: []string{vkt}},
		{name: "emulate", args: []string{"emulate", "--algo", "vkt", "-p", "colour=red"}, code: ExitError, err: []string{vkt}},
		{name: "bench", args: []string{"bench", "--algos", "vkt", "-p", "colour=red", "--out", filepath.Join(dir, "b1")}, code: ExitError,
			err: []string{"elect: --param colour=red: " + vkt + "\n"}},
		{name: "bench, two algorithms", args: []string{"bench", "--algos", "vkt,echo", "--param", "colour=red", "--out", filepath.Join(dir, "b2")}, code: ExitError,
			err: []string{"elect: --param colour=red: " + vkt + "; " + echo + "\n"}},
		{name: "bench, a value refused", args: []string{"bench", "--algos", "vkt,echo", "-p", "heartbeat=soon", "--out", filepath.Join(dir, "b3")}, code: ExitError,
			err: []string{`elect: --param heartbeat=soon: vkt parameter heartbeat: invalid duration "soon"`}},
		{name: "bench, a parameter of one algorithm of two", args: []string{"bench", "--quiet", "--algos", "vkt,echo", "-p", "tree=graph", "--experiments", "start",
			"--topology", "ring:{n}@5", "--seeds", "1", "--out", filepath.Join(dir, "b4")}, code: ExitOK, out: []string{"2 runs written to"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, _ := c.run(t)
			if c.code == ExitError && out != "" {
				t.Errorf("refused, yet stdout %q", out)
			}
		})
	}
}
