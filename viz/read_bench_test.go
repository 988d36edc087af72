package viz

import (
	"os"
	"testing"
)

// BenchmarkReplayRead reads and indexes the trace named by VIZ_TRACE (a
// large one: elect sim --topology geometric:2000:50 --duration 60s
// --trace t.jsonl), as elect viz does before the page can go anywhere.
func BenchmarkReplayRead(b *testing.B) {
	path := os.Getenv("VIZ_TRACE")
	if path == "" {
		skip(b, "VIZ_TRACE names no trace: make one with elect sim --trace and name it")
	}
	for b.Loop() {
		r, err := NewReplay(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Wait(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Events()), "events")
		r.Close()
	}
}
