package mobility

import (
	"math"

	"github.com/electgo/elect/topo"
)

// cells is a grid of square cells over the whole plane that follows the
// nodes incrementally: a node is in the cell of its position in the middle
// of the current window (Radio.mid), and moves when that position is in
// another cell. Two nodes at most side apart are in the same or adjacent
// cells.
//
// Only cells ever entered exist, so that an area's size (or a node far away
// from the others) costs nothing: a map from coordinates finds a cell when
// a node enters one that was never entered before, and each cell keeps its
// eight neighbours, so that the search for partners never hashes.
type cells struct {
	side, inv float64 // inv = 1/side
	index     map[[2]int64]int32
	list      []cell
	at        []nodeCell // per node
	prev      [][2]int64 // per node, the cell it was in before it last moved,
	moved     []uint32   // in window number moved
	room      []int32    // where the next cell's list starts
}

// cellRoom is the room a cell's list of nodes has to start with.
const cellRoom = 16

type cell struct {
	x, y  int64
	nodes []int32
	nb    [9]int32 // the cell at (x+dx, y+dy) is nb[(dy+1)*3+dx+1]; -1: never entered
}

// nodeCell is where a node is: its cell's coordinates and index, and its
// place in that cell's list.
type nodeCell struct {
	x, y int64
	c    int32
	slot int32
}

// Cell coordinates are clamped far beyond any useful grid, so that a
// coordinate of 1e300 m still has one (sharing its cell with its
// neighbours only makes more pairs watched).
const cellLimit = 1 << 60

func (g *cells) coords(p topo.Point) (int64, int64) {
	return cellCoord(p.X * g.inv), cellCoord(p.Y * g.inv)
}

func cellCoord(f float64) int64 {
	f = math.Floor(f)
	switch {
	case f < -cellLimit:
		return -cellLimit
	case f > cellLimit:
		return cellLimit
	}
	return int64(f)
}

// reset prepares an empty grid of n nodes with cells of the given side.
func (g *cells) reset(n int, side float64) {
	g.side, g.inv = side, 1/side
	g.index = make(map[[2]int64]int32)
	g.list, g.room = g.list[:0], nil
	g.at = make([]nodeCell, n)
	g.prev = make([][2]int64, n)
	g.moved = make([]uint32, n)
}

// get returns the cell at (x, y), making it (and linking it to its
// neighbours) the first time.
func (g *cells) get(x, y int64) int32 {
	if c, ok := g.index[[2]int64{x, y}]; ok {
		return c
	}
	id := int32(len(g.list))
	g.index[[2]int64{x, y}] = id
	// Its list starts in a shared array, next to those of the cells
	// made about as early (neighbours, mostly).
	if len(g.room) < cellRoom {
		g.room = make([]int32, 256*cellRoom)
	}
	c := cell{x: x, y: y, nodes: g.room[:0:cellRoom]}
	g.room = g.room[cellRoom:]
	for k := range c.nb {
		c.nb[k] = -1
	}
	c.nb[4] = id
	for dy := int64(-1); dy <= 1; dy++ {
		for dx := int64(-1); dx <= 1; dx++ {
			if dx == 0 && dy == 0 {
				continue
			}
			if o, ok := g.index[[2]int64{x + dx, y + dy}]; ok {
				c.nb[(dy+1)*3+dx+1] = o
				g.list[o].nb[(1-dy)*3+1-dx] = id
			}
		}
	}
	g.list = append(g.list, c)
	return id
}

// put places node v in cell c, at (x, y).
func (g *cells) put(v int32, c int32, x, y int64) {
	l := &g.list[c].nodes
	g.at[v] = nodeCell{x: x, y: y, c: c, slot: int32(len(*l))}
	*l = append(*l, v)
}

// move takes node v out of its cell and into the one at (x, y), in window
// number w.
func (g *cells) move(v int32, x, y int64, w uint32) {
	at := g.at[v]
	from := &g.list[at.c]
	l := from.nodes
	last := l[len(l)-1]
	l[at.slot] = last
	g.at[last].slot = at.slot
	from.nodes = l[:len(l)-1]
	c := int32(-1)
	if adjacentCells(x, y, at.x, at.y) {
		c = from.nb[(y-at.y+1)*3+x-at.x+1]
	}
	if c < 0 {
		c = g.get(x, y)
	}
	g.prev[v], g.moved[v] = [2]int64{at.x, at.y}, w
	g.put(v, c, x, y)
}

// adjacentCells reports whether the cells at (x, y) and (x2, y2) are the same or
// adjacent.
func adjacentCells(x, y, x2, y2 int64) bool {
	return x-x2 <= 1 && x2-x <= 1 && y-y2 <= 1 && y2-y <= 1
}
