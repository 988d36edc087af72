package cli

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/emulate"
)

// watchLive starts this test binary as elect with args (a run with
// --serve), reads the page's address from stderr, follows the page's
// index to the run's end, then stops the command with Ctrl-C (SIGINT),
// which must end it with status 0. It returns the index at the end.
func watchLive(t *testing.T, args ...string) liveIndex {
	t.Helper()
	cmd, sc := startElect(t, false, args...)
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
	// The page asks the run's index what is new until the run is over.
	var info liveIndex
	for deadline := time.Now().Add(60 * time.Second); !info.Done; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the run was not over after a minute: %+v", info)
		}
		resp, err := http.Get(url + "index")
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&info)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	interruptExitsZero(t, cmd)
	return info
}

// liveIndex is what the tests read of a live page's GET /index.
type liveIndex struct {
	Done   bool       `json:"done"`
	Events int        `json:"events"`
	EndMS  float64    `json:"end_ms"`
	Now    [3]float64 `json:"now"` // messages sent, nodes alive without a leader, nodes alive
}

// TestSimServe: elect sim --serve shows the run as it goes (paced by
// --speed) and keeps the page up until Ctrl-C; the page gets the trace's
// header and every event.
func TestSimServe(t *testing.T) {
	info := watchLive(t, "sim", "--topology", "ring:5", "--values", "id", "--duration", "2s", "--speed", "4", "--serve", "127.0.0.1:0")
	if info.Events < 10 || info.EndMS != 2000 || info.Now[2] != 5 || info.Now[0] == 0 {
		t.Errorf("the page's index at the end: %+v, want the 2 s of 5 nodes", info)
	}
}

// TestEmulateServe: elect emulate --serve shows the real nodes' run the
// same way.
func TestEmulateServe(t *testing.T) {
	if err := emulate.Preflight(); err != nil {
		t.Skipf("cannot emulate here: %v", err)
	}
	info := watchLive(t, "emulate", "-q", "--topology", "complete:3", "--values", "id", "--duration", "3s",
		"--hello", "100ms", "--hello-loss", "10", "--serve", "127.0.0.1:0")
	// Every node alive follows a leader at the end: each had its status.
	if info.Now[2] != 3 || info.Now[1] != 0 || info.Events < 10 {
		t.Errorf("the page's index at the end: %+v, want 3 nodes alive, all with a leader", info)
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
