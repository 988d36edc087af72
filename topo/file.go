package topo

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// readEdgeFile reads the edge list of file:path (format in Spec.Build), path
// resolved against baseDir when relative.
func readEdgeFile(path, baseDir string) (*Graph, error) {
	name := path
	if baseDir != "" && !filepath.IsAbs(path) {
		name = filepath.Join(baseDir, path)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseEdgeList(name, f)
}

// parseEdgeList parses an edge list from the start of r; name labels
// errors. A large regular file is read on every processor (up to
// maxWorkers), a stretch each (see readStretches), and the graph built so
// too (see fromChunks): the graph, or the error, is the same as reading
// the lines one after the other would give.
func parseEdgeList(name string, r io.Reader) (*Graph, error) {
	return readEdges(name, r, readPlan{workers: workers(), block: readBlock, minStretch: minStretch, maxEdges: MaxEdges})
}

// readPlan says how readEdges goes through a file. Tests shrink it to cut
// small files at every place.
type readPlan struct {
	workers    int // the most stretches a file is cut into, read side by side
	block      int // the most bytes a worker reads at a time
	minStretch int // the fewest bytes worth a worker of their own
	maxEdges   int // MaxEdges
	// starts, if set, are the stretches' starts (0 first, rising) instead
	// of size/workers apart: tests cut a file at every place.
	starts []int64
}

const (
	// readBlock is what a worker reads of a file at a time: a large file
	// is never in memory whole (only its edges, a third of its size). At
	// least twice maxLine, so that a block always holds a whole line.
	readBlock = 4 << 20
	// minStretch is the smallest stretch of a file a worker is given: a
	// small file is read on one goroutine.
	minStretch = 64 << 10
)

// readEdges parses an edge list as plan says.
func readEdges(name string, r io.Reader, plan readPlan) (*Graph, error) {
	readers, err := readStretches(name, r, plan)
	if err != nil {
		return nil, err
	}
	st := &readers[0].st
	n := st.maxID + 1
	if st.declared != 0 {
		if st.maxID >= st.declared {
			return nil, fmt.Errorf("%s:%d: %q: node id %d is not below the node count %d declared at line %d",
				name, st.maxLineNo, st.maxText, st.maxID, st.declared, st.declLine)
		}
		n = st.declared
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: no edges and no \"nodes K\" line", name)
	}
	var chunks [][]Edge
	for w := range readers {
		chunks = append(chunks, readers[w].chunks...)
	}
	g := fromChunks(n, chunks)
	return g, nil
}
