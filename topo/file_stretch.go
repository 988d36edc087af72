package topo

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/electgo/elect/internal/hugemem"
)

// readStretches reads the lines of r into edges. A reader that can read at
// any offset (a regular file) is cut into stretches of about equal length,
// one a worker, each worker reading the lines that start in its stretch
// (in blocks, on past its end to finish its last line) from a fresh start,
// all at once; any other reader is read by one worker. Then, in order,
// each worker's state is joined to the state of the stretches before it,
// the first worker's, the file's: its lines counted on from the file's,
// its "nodes" line and its largest id taken unless the file has them
// already. The readers keep the edges; the first one's state is the
// file's.
//
// A stretch read from a fresh start reads as it would after the lines
// before it but for its line numbers, which the join fixes, and but for
// what depends on those lines: a nodes line when the file has one
// already, the edge limit. A stretch with an error, or where that state
// would have mattered, is read again from the file's state to give the
// error reading the file from its start would give, its first one,
// numbered alike. So the edges, or the error, are the same for any cut
// and any number of workers.
func readStretches(name string, r io.Reader, plan readPlan) ([]lineReader, error) {
	src, size := sizedReader(r)
	// Stretch w is [at[w], at[w+1]); the last one runs to the end, which
	// a stream, or a file that grew, has not reached at size.
	at := plan.starts
	switch {
	case src == nil:
		at = []int64{0}
	case at == nil:
		k := max(1, min(int64(plan.workers), size/int64(plan.minStretch)))
		at = make([]int64, k)
		for w := range k {
			at[w] = w * size / k
		}
	}
	k := len(at)
	at = append(at[:k:k], math.MaxInt64)
	bufLen := plan.block
	if src != nil {
		bufLen = int(min(int64(bufLen), size/int64(k)+1))
	}
	all := hugemem.Make[byte](k * bufLen) // one array, more of it in huge pages
	bufs := make([][]byte, k)
	readers := make([]lineReader, k)
	errs := make([]error, k)
	parallel(k, func(w int) {
		readers[w] = lineReader{name: name, maxEdges: plan.maxEdges}
		readers[w].st.fresh()
		bufs[w] = all[w*bufLen : (w+1)*bufLen : (w+1)*bufLen]
		errs[w] = readers[w].readStretch(stretch(r, src, at[w]), at[w], at[w+1], bufs[w])
	})
	file := &readers[0]
	if errs[0] != nil {
		return nil, errs[0]
	}
	for w := 1; w < k; w++ {
		s := &readers[w].st
		if errs[w] != nil || s.declared != 0 && file.st.declared != 0 || file.st.edges+s.edges > file.maxEdges {
			err := file.readStretch(stretch(r, src, at[w]), at[w], at[w+1], bufs[w])
			if err == nil { // an I/O error that went away: still an error
				err = errs[w]
			}
			if err == nil {
				panic("topo: an edge-list stretch read again from the file's state has no error")
			}
			return nil, err
		}
		file.st.join(s)
	}
	return readers, nil
}

// sized is a reader that can read at any offset and knows its size, like
// strings.Reader.
type sized interface {
	io.ReaderAt
	Size() int64
}

// sizedReader is r as a reader at any offset, and its size, when it is one
// (a regular file, a strings.Reader); nil otherwise.
func sizedReader(r io.Reader) (sized, int64) {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return regularFile{f, fi.Size()}, fi.Size()
		}
		return nil, 0
	}
	if s, ok := r.(sized); ok {
		return s, s.Size()
	}
	return nil, 0
}

// regularFile is a regular file as a sized reader, its size when it was
// opened: the last stretch reads on to its end, if it grew since.
type regularFile struct {
	*os.File
	size int64
}

func (f regularFile) Size() int64 { return f.size }

// stretch is the reader of the stretch that starts at offset from, from
// the byte before it on so that its reader sees whether a line starts
// there: src from there, or r itself for the one stretch of a stream.
func stretch(r io.Reader, src sized, from int64) io.Reader {
	if src == nil {
		return r
	}
	from = max(from-1, 0)
	return io.NewSectionReader(src, from, math.MaxInt64-from)
}

// readStretch reads the lines of src that start at an offset in [from,
// end) of the file, src being the file from from-1 on (from 0 on for the
// first stretch), a block of buf at a time.
func (lr *lineReader) readStretch(src io.Reader, from, end int64, buf []byte) error {
	skip := from > 0 // the rest of the line before from, or its "\n"
	pos := max(from-1, 0)
	have := 0 // the start of a line, carried from the block before
	for {
		if have == len(buf) {
			// A line as long as the buffer, yet allowed: a small file's
			// small buffer.
			buf = append(buf, make([]byte, len(buf))...)
		}
		n, rerr := io.ReadFull(src, buf[have:])
		data := buf[:have+n] // data[0] is at offset pos
		eof := rerr == io.EOF || rerr == io.ErrUnexpectedEOF
		var carry []byte
		if !eof {
			// Whole lines only: the last one may go on in the next block.
			i := bytes.LastIndexByte(data, '\n') + 1
			data, carry = data[:i], data[i:]
		}
		if skip && len(data) > 0 {
			i := bytes.IndexByte(data, '\n') + 1
			if i == 0 { // the file's last line, not ending in "\n"
				i = len(data)
			}
			data, pos, skip = data[i:], pos+int64(i), false
		}
		if stop := end - pos; stop <= int64(len(data)) {
			// The lines from the first that starts at end on are the next
			// stretch's.
			cut := 0
			if stop > 0 {
				if i := bytes.IndexByte(data[stop-1:], '\n'); i >= 0 {
					cut = int(stop) + i
				} else {
					cut = len(data)
				}
			}
			return lr.read(data[:cut])
		}
		if err := lr.read(data); err != nil {
			return err
		}
		if eof {
			return nil
		}
		if rerr != nil {
			return fmt.Errorf("%s: %w", lr.name, rerr)
		}
		if len(carry) >= maxLine {
			return fmt.Errorf("%s:%d: line too long", lr.name, lr.st.lineNo+1)
		}
		pos += int64(len(data))
		have = copy(buf, carry)
	}
}

// join adds to s, the state of the lines before a stretch, the state p
// that reading the stretch from a fresh start left: its line numbers count
// on from s's, and s keeps its nodes line and its largest id's first line.
func (s *readState) join(p *readState) {
	base := s.lineNo
	s.lineNo += p.lineNo
	s.edges += p.edges
	if p.declared != 0 {
		s.declared, s.declLine = p.declared, base+p.declLine
	}
	if p.maxID > s.maxID {
		s.maxID, s.maxLineNo = p.maxID, base+p.maxLineNo
		s.maxText = append(s.maxText[:0], p.maxText...)
	}
}
