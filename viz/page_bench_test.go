package viz

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/scenario"
)

// BenchmarkBrowserPage opens the page of a 60-s vkt run in headless
// Chromium (browser/bench.mjs) and reports what a person waits for and
// what the tab holds: the first frame as the server starts reading the
// trace and once it has, the tab's heap, a seek, and the time a frame
// takes to draw while zooming and panning and while playing at 1x.
//
//	go test ./viz -run '^$' -bench BrowserPage -benchtime 1x
//
// The traces (470 MB and 2.4 GB) are made once, in VIZ_BENCH_DIR (the
// system's temporary directory by default), and kept there.
func BenchmarkBrowserPage(b *testing.B) {
	chromium, node := browser(b)
	for _, c := range []struct{ name, topology string }{
		{"2000nodes", "geometric:2000:50"},
		{"10000nodes", "geometric:10000:22"}, // the same mean degree, 15
	} {
		b.Run(c.name, func(b *testing.B) {
			path := benchTrace(b, c.topology)
			for b.Loop() {
				r, err := NewReplay(path)
				if err != nil {
					b.Fatal(err)
				}
				srv := httptest.NewServer(r.Handler())
				cmd := exec.Command(node, "bench.mjs", srv.URL+"/")
				cmd.Dir = "browser"
				cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
				out, err := cmd.Output()
				srv.Close()
				r.Close()
				if err != nil {
					b.Fatalf("bench.mjs: %v\n%s", err, out)
				}
				var m map[string]float64
				if err := json.Unmarshal(out, &m); err != nil {
					b.Fatalf("bench.mjs said %s: %v", out, err)
				}
				for _, k := range [][2]string{
					{"firstFrameMS", "first-frame-ms"}, {"firstFrameReadMS", "first-frame-read-ms"},
					{"heapFirstMB", "heap-first-MB"}, {"heapAfterMB", "heap-after-MB"}, {"seekMedianMS", "seek-ms"},
					{"zoomPanDrawMedianMS", "zoom-pan-frame-ms"}, {"zoomPanDrawMaxMS", "zoom-pan-frame-max-ms"},
					{"playDrawMedianMS", "play-frame-ms"}, {"playDrawMaxMS", "play-frame-max-ms"}, {"playFPS", "play-fps"},
				} {
					b.ReportMetric(m[k[0]], k[1])
				}
			}
		})
	}
}

// benchTrace makes (once) the trace of 60 s of vkt on topology.
func benchTrace(b *testing.B, topology string) string {
	dir := os.Getenv("VIZ_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "elect-viz-bench")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, strings.ReplaceAll(topology, ":", "-")+".jsonl")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	s := scenario.Default()
	s.Topology, s.Duration, s.Seed = topology, 60*time.Second, 1
	tmp := path + ".part"
	simulate(b, s, tmp)
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}
