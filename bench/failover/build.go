package failover

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Module paths of the benchmark and of the repository it measures.
const (
	BenchModule = "github.com/electgo/elect/bench/failover"
	ElectModule = "github.com/electgo/elect"
)

// FindModules walks up from dir to the benchmark's module directory and the
// repository root above it (the module of `elect`).
func FindModules(dir string) (bench, repo string, err error) {
	dir, err = filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		switch modulePath(filepath.Join(d, "go.mod")) {
		case BenchModule:
			bench = d
		case ElectModule:
			if bench == "" {
				return "", "", fmt.Errorf("%s is the elect repository; run from %s (or give the binaries)", d, filepath.Join(d, "bench", "failover"))
			}
			return bench, d, nil
		}
		if filepath.Dir(d) == d {
			return "", "", fmt.Errorf("no go.mod of %s with %s above it, up from %s", BenchModule, ElectModule, dir)
		}
	}
}

func modulePath(gomod string) string {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// Build runs `go build -o out pkg` in dir.
func Build(dir, pkg, out string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s in %s: %v\n%s", pkg, dir, err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// CheckElectNode fails unless the elect binary has the node command.
func CheckElectNode(bin string) error {
	out, err := exec.Command(bin, "node", "--help").CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("--peers")) {
		msg := strings.TrimSpace(string(out))
		if len(msg) > 500 {
			msg = msg[:500] + "..."
		}
		return errors.New("this elect has no usable `elect node` command (`" + bin + " node --help`: " + fmt.Sprint(err) + "):\n" + msg)
	}
	return nil
}
