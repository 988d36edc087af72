package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// sim and bench write CPU and heap profiles that go tool pprof reads
// (gzipped protocol buffers), and refuse a path they cannot create.
func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"sim", "--topology", "grid:5x5", "--duration", "5s"},
		{"bench", "--quiet", "--experiments", "start", "--topology", "ring:{n}@5", "--seeds", "1", "--out", filepath.Join(dir, "b")},
	} {
		cpu, mem := filepath.Join(dir, args[0]+".cpu"), filepath.Join(dir, args[0]+".mem")
		mustRun(t, append(args, "--cpuprofile", cpu, "--memprofile", mem)...)
		for _, f := range []string{cpu, mem} {
			b, err := os.ReadFile(f)
			if err != nil || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
				t.Errorf("%s: %v, %d bytes, not a gzipped profile", f, err, len(b))
			}
		}
	}
	code, _, errOut := cli(t, "sim", "--topology", "ring:5", "--cpuprofile", filepath.Join(dir, "no", "such", "dir"))
	if code != ExitError || !bytes.Contains([]byte(errOut), []byte("--cpuprofile: open ")) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
