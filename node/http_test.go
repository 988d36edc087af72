package node

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/electgo/elect/runtime"
)

// TestHTTP: /status says what Status says, /metrics parses as the
// Prometheus text format with every family, /healthz is 200 while running.
func TestHTTP(t *testing.T) {
	c := newCluster(t, 3, nil)
	c.waitAgree(ids(0, 3), 2, 5*time.Second)
	srv := httptest.NewServer(c.nodes[0].Handler())
	defer srv.Close()

	get := func(path string) (*http.Response, string) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, string(b)
	}

	resp, body := get("/status")
	var st StatusJSON
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatalf("/status: %v\n%s", err, body)
	}
	if st.ID != 0 || st.Leader != 2 || st.State != "Norm" || st.Algorithm != "vkt" || len(st.Neighbors) != 2 || st.ElectionIndex == 0 {
		t.Errorf("/status = %+v", st)
	}
	if st.Counters.Sent["election"] == 0 || st.Counters.HellosRecv == 0 {
		t.Errorf("/status counters = %+v, want elections sent and hellos received", st.Counters)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("/status Content-Type %q", ct)
	}

	_, body = get("/metrics")
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics is not the Prometheus text format: %v\n%s", err, body)
	}
	for _, name := range []string{"elect_messages_sent_total", "elect_messages_received_total", "elect_datagrams_rejected_total",
		"elect_elections_total", "elect_leader_changes_total", "elect_leaderless_seconds_total", "elect_leader", "elect_election_index"} {
		if families[name] == nil {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	if got := len(families["elect_datagrams_rejected_total"].GetMetric()); got != runtime.NumReasons {
		t.Errorf("%d rejection reasons in /metrics, want all %d (zeros included)", got, runtime.NumReasons)
	}
	if v := families["elect_leader"].GetMetric()[0].GetGauge().GetValue(); v != 2 {
		t.Errorf("elect_leader %v, want 2", v)
	}

	if resp, _ := get("/healthz"); resp.StatusCode != 200 {
		t.Errorf("/healthz %d while running", resp.StatusCode)
	}
	c.stop(0)
	if resp, _ := get("/healthz"); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/healthz %d after Run returned, want 503", resp.StatusCode)
	}
}

// TestHTTPStreamAndElect: /status/stream sends the current status at once
// and a line for each change; POST /elect starts an election, which the
// stream shows as a new election index (with the time of the change).
func TestHTTPStreamAndElect(t *testing.T) {
	c := newCluster(t, 3, nil)
	c.waitAgree(ids(0, 3), 2, 5*time.Second)
	srv := httptest.NewServer(c.nodes[0].Handler())
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/status/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("/status/stream Content-Type %q", ct)
	}
	lines := make(chan StatusJSON, 16)
	go func() {
		defer close(lines)
		dec := json.NewDecoder(resp.Body)
		for {
			var st StatusJSON
			if dec.Decode(&st) != nil {
				return
			}
			lines <- st
		}
	}()
	next := func() StatusJSON {
		t.Helper()
		select {
		case st, ok := <-lines:
			if !ok {
				t.Fatal("stream ended")
			}
			return st
		case <-time.After(5 * time.Second):
			t.Fatal("no status line within 5s")
		}
		return StatusJSON{}
	}
	first := next()
	if first.Leader != 2 || first.State != "Norm" || first.ChangedUnixNS == 0 {
		t.Fatalf("first line = %+v, want the current status (leader 2, Norm, a change time)", first)
	}
	before := time.Now().UnixNano()
	post, err := http.Post(srv.URL+"/elect", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != http.StatusAccepted {
		t.Errorf("POST /elect: %s, want 202", post.Status)
	}
	for {
		st := next()
		if st.ElectionIndex > first.ElectionIndex {
			if st.ChangedUnixNS < before {
				t.Errorf("change at %d, before the request at %d", st.ChangedUnixNS, before)
			}
			break
		}
	}
	if get, err := http.Get(srv.URL + "/elect"); err == nil {
		get.Body.Close()
		if get.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("GET /elect: %s, want 405", get.Status)
		}
	}
}

// The second finding of issue 20: POST /elect needed no key, and an
// election started before a slow body arrived. With a key, a request
// without the credential derived from it is refused (401, counted) and one
// with it taken; a body is read whole, 1 KiB at most, before anything
// happens.
func TestElectNeedsTheKey(t *testing.T) {
	key := []byte("the cluster's key, 32 bytes long")
	c := newCluster(t, 2, func(cfg *Config) { cfg.Key = key })
	c.waitAgree(ids(0, 2), 1, 5*time.Second)
	nd := c.nodes[0]
	h := nd.Handler()
	post := func(auth string, body io.Reader) int {
		req := httptest.NewRequest(http.MethodPost, "/elect", body)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	elections := func() uint64 { return nd.metrics.elections.Load() }
	before := elections()
	for _, auth := range []string{"", "Bearer wrong", "Bearer " + HTTPToken([]byte("another key, 32 bytes long too!!")), HTTPToken(key)} {
		if code := post(auth, nil); code != http.StatusUnauthorized {
			t.Errorf("Authorization %q: %d, want 401", auth, code)
		}
	}
	if got := nd.metrics.httpRefused.Load(); got != 4 || elections() != before {
		t.Errorf("%d refusals counted, %d elections started; want 4 and none", got, elections()-before)
	}
	if code := post("Bearer "+HTTPToken(key), strings.NewReader(strings.Repeat("x", 2000))); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 2000-byte body: %d, want 413", code)
	}
	// A body that has not arrived starts nothing.
	body, w := io.Pipe()
	done := make(chan int)
	go func() { done <- post("Bearer "+HTTPToken(key), body) }()
	time.Sleep(100 * time.Millisecond)
	if elections() != before {
		t.Errorf("an election started before the body arrived")
	}
	w.Write([]byte("go"))
	w.Close()
	if code := <-done; code != http.StatusAccepted {
		t.Errorf("with the credential: %d, want 202", code)
	}
	waitFor(2*time.Second, func() bool { return elections() > before })
	if elections() == before {
		t.Errorf("no election after an authorized POST /elect")
	}
}

// POST /value is guarded as POST /elect is, refuses a body that is not
// {"value": N} with 400 naming what is wrong, and sets the value: the
// node, now the most valued, takes over, and /status shows its value.
func TestValueHTTP(t *testing.T) {
	key := []byte("the cluster's key, 32 bytes long")
	token := "Bearer " + HTTPToken(key)
	c := newCluster(t, 3, func(cfg *Config) { cfg.Key = key })
	c.waitAgree(ids(0, 3), 2, 5*time.Second)
	n := c.nodes[0]
	do := func(h http.Handler, auth, body string) (int, string) {
		req := httptest.NewRequest(http.MethodPost, "/value", strings.NewReader(body))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	for _, tc := range []struct {
		name, auth, body string
		read             bool // on ReadHandler
		code             int
		says             string // in the body
	}{
		{name: "no credential", body: `{"value":100}`, code: 401, says: "POST /value needs Authorization"},
		{name: "the reading address", read: true, auth: token, body: `{"value":100}`, code: 403, says: "POST /value goes to the node's operator address"},
		{name: "no body", auth: token, code: 400, says: `POST /value: no body: want a JSON object {"value": N}`},
		{name: "not JSON", auth: token, body: "{", code: 400, says: "POST /value: body:"},
		{name: "no value", auth: token, body: `{}`, code: 400, says: `no "value"`},
		{name: "a null value", auth: token, body: `{"value":null}`, code: 400, says: `no "value"`},
		{name: "an unknown field", auth: token, body: `{"value":1,"valeu":2}`, code: 400, says: `unknown field "valeu"`},
		{name: "a fraction", auth: token, body: `{"value":1.5}`, code: 400, says: "value 1.5: want an integer"},
		{name: "a string", auth: token, body: `{"value":"7"}`, code: 400, says: `value "7": want an integer`},
		{name: "out of range", auth: token, body: `{"value":9223372036854775808}`, code: 400, says: "value 9223372036854775808: want an integer"},
		{name: "two objects", auth: token, body: `{"value":1} {}`, code: 400, says: "one JSON object"},
		{name: "not an object", auth: token, body: `100`, code: 400, says: "body:"},
	} {
		h := n.Handler()
		if tc.read {
			h = n.ReadHandler()
		}
		code, body := do(h, tc.auth, tc.body)
		if code != tc.code || !strings.Contains(body, tc.says) {
			t.Errorf("%s: %d %q, want %d saying %q", tc.name, code, body, tc.code, tc.says)
		}
	}
	time.Sleep(50 * time.Millisecond)
	if st := n.StatusJSON(); st.Value != 0 {
		t.Fatalf("refused requests changed the value: %d", st.Value)
	}
	code, body := do(n.Handler(), token, `{"value": 100}`)
	var got ValueJSON
	if err := json.Unmarshal([]byte(body), &got); code != 200 || err != nil || got.Value != 100 {
		t.Fatalf("POST /value: %d %s (%v), want 200 and {\"value\": 100}", code, body, err)
	}
	c.waitAgree(ids(0, 3), 0, 5*time.Second)
	if st := n.StatusJSON(); st.Value != 100 {
		t.Errorf("/status value %d, want 100", st.Value)
	}
}
