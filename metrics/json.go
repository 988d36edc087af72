package metrics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/electgo/elect/algo"
)

// WriteJSON writes s as one line of JSON, byte for byte what
// json.NewEncoder(w).Encode(s) writes, but with the two lists that grow with
// the network (final and components) written by hand: at a million nodes
// encoding/json's reflection over them took 1.5-2 s, more than a tenth of the
// run.
func WriteJSON(w io.Writer, s *Summary) error {
	rest := *s
	rest.Final, rest.Components = nil, nil
	head, err := json.Marshal(&rest)
	if err != nil {
		return err
	}
	// Final and Components are neighbours in Summary; with both nil they
	// encode as this, once: inside a JSON string every quote is escaped.
	const hole = `"final":null,"components":null`
	i := bytes.Index(head, []byte(hole))
	if i < 0 {
		return fmt.Errorf("metrics: summary JSON lacks %s", hole)
	}
	out := chunked{w: w, b: make([]byte, 0, 2*chunk)}
	out.b = append(out.b, head[:i]...)
	out.b = append(out.b, `"final":`...)
	if err := appendFinals(&out, s.Final); err != nil {
		return err
	}
	out.b = append(out.b, `,"components":`...)
	appendComponents(&out, s.Components)
	out.b = append(out.b, head[i+len(hole):]...)
	out.b = append(out.b, '\n')
	out.flush()
	return out.err
}

// chunk is how much chunked holds before it writes: the lists are written in
// pieces, not built whole (80 MB at a million nodes, costly in page faults).
const chunk = 32 << 10

// chunked is a buffer written out whenever it reaches chunk bytes.
type chunked struct {
	w   io.Writer
	b   []byte
	err error
}

// fill writes the buffer out once it holds a chunk.
func (c *chunked) fill() {
	if len(c.b) >= chunk {
		c.flush()
	}
}

func (c *chunked) flush() {
	if c.err == nil {
		_, c.err = c.w.Write(c.b)
	}
	c.b = c.b[:0]
}

// appendFinals appends fs as encoding/json would encode it.
func appendFinals(c *chunked, fs []NodeFinal) error {
	if fs == nil {
		c.b = append(c.b, "null"...)
		return nil
	}
	// A run has a handful of state names; each is quoted once.
	quoted := map[string][]byte{}
	c.b = append(c.b, '[')
	for i, f := range fs {
		if i > 0 {
			c.b = append(c.b, ',')
		}
		q, ok := quoted[f.State]
		if !ok {
			var err error
			if q, err = json.Marshal(f.State); err != nil {
				return err
			}
			quoted[f.State] = q
		}
		b := append(c.b, `{"id":`...)
		b = strconv.AppendInt(b, int64(f.ID), 10)
		b = append(b, `,"value":`...)
		b = strconv.AppendInt(b, f.Value, 10)
		b = append(b, `,"alive":`...)
		b = strconv.AppendBool(b, f.Alive)
		b = append(b, `,"leader":`...)
		b = strconv.AppendInt(b, int64(f.Leader), 10)
		b = append(b, `,"state":`...)
		b = append(b, q...)
		c.b = append(b, '}')
		c.fill()
	}
	c.b = append(c.b, ']')
	return nil
}

// appendComponents appends cs as encoding/json would encode it.
func appendComponents(c *chunked, cs [][]algo.NodeID) {
	if cs == nil {
		c.b = append(c.b, "null"...)
		return
	}
	c.b = append(c.b, '[')
	for i, comp := range cs {
		if i > 0 {
			c.b = append(c.b, ',')
		}
		if comp == nil {
			c.b = append(c.b, "null"...)
			continue
		}
		c.b = append(c.b, '[')
		for j, v := range comp {
			if j > 0 {
				c.b = append(c.b, ',')
			}
			c.b = strconv.AppendInt(c.b, int64(v), 10)
			c.fill()
		}
		c.b = append(c.b, ']')
	}
	c.b = append(c.b, ']')
}
