package cli

import (
	"os"
	"strings"
	"testing"
)

// elect algos prints each built-in's message bound, as its document gives
// it; those whose nodes never fall quiet have none.
func TestAlgosPrintsBounds(t *testing.T) {
	out := mustRun(t, "algos")
	for name, want := range map[string]string{
		"echo":          "messages of one election: exactly 2m + n - 1 with one initiator; with k, from 2m + n - 1 to 2km + n - 1",
		"extinction":    "messages of one election: exactly 2m + n - 1 with one initiator",
		"chang-roberts": "messages of one election: from 2n to n(n+1)/2 + n",
		"ring":          "messages of one election: exactly 2n with one commander",
		"all-to-all":    "messages of one election: exactly k(n - 1) for k candidates, n(n - 1) with all",
		"capture-sync":  "messages of one election: from 3(n - 1) to (2n*ceil(log n) - n) captures + n*ceil(log n) acks + (n - 1) leader (n nodes",
		"capture-async": "messages of one election: from 3(n - 1) to 6(2n*floor(log n) + n) + (n - 1) leader",
		"vkt":           "",
		"park":          "",
		"bully":         "",
	} {
		_, entry, _ := strings.Cut("\n"+out, "\n"+name+": ")
		entry, _, _ = strings.Cut(entry, "\n\n")
		if got := strings.Contains(entry, "messages of one election"); want == "" && got || want != "" && !strings.Contains(entry, want) {
			t.Errorf("%s: want %q in\n%s", name, want, entry)
		}
	}
}

// check holds a trace to the bound its header names, computed by the
// algorithm registered here; where the algorithm is not, it says the bound
// went unchecked rather than passing it in silence.
func TestCheckMessageBound(t *testing.T) {
	dir := t.TempDir()
	tr := dir + "/run.jsonl"
	mustRun(t, "sim", "--algo", "test-ring-cr", "--topology", "ring:8", "--trace", tr)
	if out := mustRun(t, "check", tr); !strings.Contains(out, "bound: 16 to 44 (from 2n to n(n+1)/2 + n; one election in each piece") {
		t.Errorf("check does not show the bound:\n%s", out)
	}
	b, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	alien := dir + "/alien.jsonl"
	if err := os.WriteFile(alien, []byte(strings.Replace(string(b), `"algorithm":"test-ring-cr"`, `"algorithm":"nowhere"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "check", alien)
	if code != ExitOK || strings.Contains(out, "  bound: ") ||
		!strings.Contains(errOut, `elect: note: the message bound (from 2n to n(n+1)/2 + n) was not checked: unknown algorithm "nowhere"`) {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}
