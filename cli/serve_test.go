package cli

import (
	"bufio"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/electgo/elect/emulate"
)

// watchLive starts this test binary as elect with args (a run with
// --serve), reads the page's address from stderr, follows /events to the
// run's end, then stops the command with Ctrl-C (SIGINT), which must end
// it with status 0. It returns the events' data lines.
func watchLive(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := electCommand(t, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	url := ""
	rx := regexp.MustCompile(`watch the run at (http://\S+)`)
	for url == "" && sc.Scan() {
		if m := rx.FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatal("no address of the page on stderr")
	}
	go func() {
		for sc.Scan() { // the rest of stderr, so the command never blocks on it
		}
	}()
	resp, err := http.Get(url + "events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var data []string
	ev := bufio.NewScanner(resp.Body)
	ev.Buffer(nil, 1<<20)
	ended := false
	for ev.Scan() {
		line := ev.Text()
		if line == "event: end" {
			ended = true
			break
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			data = append(data, d)
		}
	}
	if !ended {
		t.Fatalf("/events ended without the run's end, after %d events", len(data))
	}
	interruptExitsZero(t, cmd)
	return data
}

// TestSimServe: elect sim --serve shows the run as it goes (paced by
// --speed) and keeps the page up until Ctrl-C; the page gets the trace's
// header and every event.
func TestSimServe(t *testing.T) {
	data := watchLive(t, "sim", "--topology", "ring:5", "--values", "id", "--duration", "2s", "--speed", "4", "--serve", "127.0.0.1:0")
	if len(data) < 10 || !strings.Contains(data[0], `"ev":"header"`) || !strings.Contains(data[len(data)-1], `"ev":"end"`) {
		t.Errorf("%d events, first %q, last %q", len(data), data[0], data[len(data)-1])
	}
}

// TestEmulateServe: elect emulate --serve shows the real nodes' run the
// same way.
func TestEmulateServe(t *testing.T) {
	if err := emulate.Preflight(); err != nil {
		t.Skipf("cannot emulate here: %v", err)
	}
	data := watchLive(t, "emulate", "-q", "--topology", "complete:3", "--values", "id", "--duration", "3s",
		"--hello", "100ms", "--hello-loss", "10", "--serve", "127.0.0.1:0")
	statuses := 0
	for _, d := range data {
		if strings.Contains(d, `"ev":"status"`) {
			statuses++
		}
	}
	if statuses < 3 || !strings.Contains(data[len(data)-1], `"ev":"end"`) {
		t.Errorf("%d events, %d status changes, last %q", len(data), statuses, data[len(data)-1])
	}
}

// TestServeBadFlags: --serve and --speed name what is wrong.
func TestServeBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--speed", "2"}, "--speed paces a run shown with --serve"},
		{[]string{"sim", "--serve", "127.0.0.1:0", "--speed", "0"}, "--speed 0: want more than 0"},
		{[]string{"sim", "--serve", "nowhere"}, "--serve: "},
	} {
		code, _, errOut := cli(t, c.args...)
		if code != ExitError || !strings.Contains(errOut, c.want) {
			t.Errorf("elect %s: exit %d, stderr %q; want 1 and %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
}
