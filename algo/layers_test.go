package algo

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// layer0 are elect's tools below the ground floor (docs/architecture.md):
// the only packages outside algo/ that a package under algo/ may import.
var layer0 = []string{
	"internal/hugemem", "internal/ids", "internal/batches", "internal/blame",
	"internal/wiresize",
}

const electModule = "github.com/electgo/elect"

// groundFloorMay says package path pkg (an elect package, the module's
// path included) is one that the ground floor may import: algo, a package
// under algo/, or one of layer 0.
func groundFloorMay(pkg string) bool {
	rest, ok := strings.CutPrefix(pkg, electModule+"/")
	if !ok {
		return false
	}
	if rest == "algo" || strings.HasPrefix(rest, "algo/") {
		return true
	}
	return slices.Contains(layer0, rest)
}

// TestLayers: no package under algo/ (algo itself and algo/*, recursively),
// nor any package they import, imports an elect package outside algo/ but
// layer 0, so that an algorithm depends on the contract alone. Only the
// packages themselves count, not their tests: go list without -test leaves
// test files out, and a test of an algorithm (an external _test package
// such as algo/vkt's conform_test.go) may import the conformance kit,
// conform, and whatever else stands above algo.
func TestLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the packages with")
	}
	cmd := exec.Command("go", "list", "-deps", "-json", electModule+"/algo/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	// The listing holds the packages under algo/ and everything they
	// import, each once. An edge from a package the ground floor may
	// import to an elect package it may not is the violation; the packages
	// past it are listed too, but their imports are not checked, so each
	// violation is told once, by the import that makes it.
	seen := 0
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p struct {
			ImportPath string
			Imports    []string
			DepOnly    bool
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list's output: %v", err)
		}
		if !p.DepOnly {
			seen++
		}
		if !groundFloorMay(p.ImportPath) {
			continue
		}
		for _, imp := range p.Imports {
			if (imp == electModule || strings.HasPrefix(imp, electModule+"/")) && !groundFloorMay(imp) {
				t.Errorf("%s imports %s, which is above algo/ (only algo/... and layer 0: %s)",
					p.ImportPath, imp, strings.Join(layer0, ", "))
			}
		}
	}
	if seen < 10 {
		t.Errorf("go list found %d packages under algo/; the test reads its output wrong", seen)
	}
}
