package viz

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/electgo/elect/trace"
)

// TestReplayServes: the page, its assets, the trace as it is and the
// layout come from the handler, with nothing fetched from elsewhere.
func TestReplayServes(t *testing.T) {
	path := writeTrace(t)
	r, srv := serveReplay(t, path)
	get := func(p string) (string, string) {
		t.Helper()
		code, ct, b := httpGet(t, srv.URL+p)
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d", p, code)
		}
		return string(b), ct
	}
	page, _ := get("/")
	for _, asset := range []string{"app.js", "style.css"} {
		if !strings.Contains(page, asset) {
			t.Errorf("the page does not load %s", asset)
		}
		get("/" + asset)
	}
	// Every file of the page is served, refers to no other site, and each
	// module it imports is one of them (a missing module would only show
	// as a page that never gets ready).
	files, err := web.ReadDir("web")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range files {
		have[f.Name()] = true
	}
	modules := 0
	imports := regexp.MustCompile(`(?m)^(?:import|\}) .*from ['"]\./([^'"]+)['"];?$`)
	for _, f := range files {
		name := f.Name()
		b, _ := web.ReadFile("web/" + name)
		get("/" + name)
		// An SVG's namespace is a name, not an address fetched.
		text := strings.ReplaceAll(string(b), `xmlns="http://www.w3.org/2000/svg"`, "")
		if strings.Contains(text, "http://") || strings.Contains(text, "https://") {
			t.Errorf("%s refers to another site", name)
		}
		for _, m := range imports.FindAllStringSubmatch(string(b), -1) {
			modules++
			if !have[m[1]] {
				t.Errorf("%s imports ./%s, which the page does not have", name, m[1])
			}
		}
	}
	if !have["app.js"] || len(files) < 5 || modules < 8 {
		t.Errorf("web/ holds %d files importing %d modules; want the page's modules", len(files), modules)
	}
	// The page asks for every module at once (index.html's modulepreload
	// links) rather than import by import: each module imported is
	// preloaded, and each preloaded is a file.
	preloaded := map[string]bool{}
	for _, m := range regexp.MustCompile(`<link rel="modulepreload" href="([^"]+)">`).FindAllStringSubmatch(page, -1) {
		preloaded[m[1]] = true
		if !have[m[1]] {
			t.Errorf("index.html preloads %s, which the page does not have", m[1])
		}
	}
	for _, f := range files {
		b, _ := web.ReadFile("web/" + f.Name())
		for _, m := range imports.FindAllStringSubmatch(string(b), -1) {
			if !preloaded[m[1]] {
				t.Errorf("%s imports ./%s, which index.html does not preload", f.Name(), m[1])
			}
		}
	}
	body, ct := get("/trace")
	file, _ := os.ReadFile(path)
	if body != string(file) || ct != "application/x-ndjson" {
		t.Errorf("/trace serves %d bytes as %q, want the file's %d", len(body), ct, len(file))
	}
	lay, _ := get("/layout")
	var l Layout
	if err := json.Unmarshal([]byte(lay), &l); err != nil {
		t.Fatal(err)
	}
	// grid:4x4: node y*4+x at (x+0.5, y+0.5).
	if l.Width != 4 || l.Height != 4 || len(l.X) != 16 || l.X[6] != 2.5 || l.Y[6] != 1.5 {
		t.Errorf("layout %+v, want the 4x4 lattice", l)
	}
	if r.Header.Nodes != 16 {
		t.Errorf("replay of %d nodes", r.Header.Nodes)
	}
}

// httpGet fetches url: its status, content type and body.
func httpGet(t *testing.T, url string) (int, string, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// serveReplay serves the replay of the trace at path until the test ends.
func serveReplay(t *testing.T, path string) (*Replay, *httptest.Server) {
	t.Helper()
	return serveReplayChunks(t, path, chunkEvents)
}

// serveReplayChunks is serveReplay with per events a chunk.
func serveReplayChunks(t *testing.T, path string, per int) (*Replay, *httptest.Server) {
	t.Helper()
	r, err := newReplay(path, per)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r.Handler())
	t.Cleanup(func() { srv.Close(); r.Close() })
	return r, srv
}

// TestReplayLayouts: positions come from the topology when it has them,
// and the page lays out the rest.
func TestReplayLayouts(t *testing.T) {
	for _, c := range []struct {
		topology string
		nodes    int
		want     bool
	}{
		{"geometric:30:300", 30, true},
		{"line:5", 5, true},
		{"ring:6", 6, true},
		{"complete:5", 5, true},
		{"gnp:20:0.2", 20, false},
		{"file:/nowhere/net.txt", 4, false},
		{"", 4, false},
	} {
		h := headerFor(c.topology, c.nodes)
		if l := layout(h); (l != nil) != c.want || l != nil && len(l.X) != c.nodes {
			t.Errorf("%q: layout %+v, want one: %v", c.topology, l, c.want)
		}
	}
	// A ring is drawn as a circle: node 0 at the top, the others
	// clockwise, every node as far from the centre.
	l := layout(headerFor("ring:4", 4))
	if math.Abs(l.X[0]-1) > 1e-9 || !(l.Y[0] < 1) || !(l.X[1] > 1) || math.Abs(math.Hypot(l.X[2]-1, l.Y[2]-1)-0.9) > 1e-9 {
		t.Errorf("ring:4 laid out at %v, %v", l.X, l.Y)
	}
}

func headerFor(topology string, nodes int) trace.Header {
	return trace.Header{Topology: topology, Nodes: nodes, Seed: 1}
}

// A trace compressed with gzip is replayed as it is: served with
// Content-Encoding gzip, which the browser undoes, so the page reads the
// same JSON lines.
func TestReplayGzip(t *testing.T) {
	path := writeTrace(t)
	plain, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	packed := path + ".gz"
	f, err := os.Create(packed)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write(plain)
	zw.Close()
	f.Close()
	r, srv := serveReplay(t, packed)
	resp, err := http.Get(srv.URL + "/trace") // the client asks for gzip and undoes it, as a browser does
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if string(body) != string(plain) || !resp.Uncompressed || r.Wait() != nil || r.Events() == 0 {
		t.Errorf("/trace of a gzip trace: %d bytes (uncompressed by the client: %v), want the %d of its JSON lines; %d events", len(body), resp.Uncompressed, len(plain), r.Events())
	}
}

// faultMarks are r's timeline marks but its elections', as "MS KIND: WHAT".
func faultMarks(r *Replay) []string {
	var out []string
	for _, m := range r.info().Marks {
		if m.Kind != "elected" && m.Kind != "election" {
			out = append(out, fmt.Sprintf("%g %s: %s", m.MS, m.Kind, m.What))
		}
	}
	return out
}

// changesOf is node v's history of changes at the end of r, as the page
// asks for it (GET /node), as "MS WHAT", newest first.
func changesOf(t *testing.T, r *Replay, srv *httptest.Server, v int) []string {
	t.Helper()
	_, _, b := httpGet(t, fmt.Sprintf("%s/node?v=%d&i=%d", srv.URL, v, r.Events()))
	var h nodeHistory
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range h.Changes {
		out = append(out, fmt.Sprintf("%g %s", m.MS, m.What))
	}
	return out
}
