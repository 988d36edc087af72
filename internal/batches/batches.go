// Package batches carries values from one goroutine to another in order, a
// batch at a time: the simulator's way of putting work that nothing waits
// for on a second core (the checker behind the engine, a radio's link
// changes ahead of it).
//
// A value costs the producer an append, and a batch one channel send each
// way: passing values one by one on a channel would cost more than most of
// the work moved. The batches circulate, and the producer makes a new one
// only when none is free, up to a bound: it runs at most that many batches
// ahead, and memory stays bounded.
//
// Layer 0: it imports no package of elect (docs/architecture.md).
package batches

import (
	"fmt"
	"runtime/debug"
)

// Line is a one-way line of batches from a producer goroutine to a consumer
// goroutine. The producer calls Put, Flush and Close; the consumer Next and
// Leave.
type Line[T any] struct {
	size, most, made int // values a batch; batches at most, and made so far
	full             chan []T
	free             chan []T
	gone             chan struct{} // closed when the consumer leaves
	out              []T           // the batch the producer fills
	in               []T           // the batch the consumer reads
	// What each side ended with: a panic, or nil.
	closedWith, leftWith any
}

// New makes a Line of batches of size values each, at most most of them.
// Batches are made as the producer gets ahead: one whose consumer keeps up
// uses two, and one whose consumer has bursts of slow work (a checker's
// first search of a million nodes) runs ahead through them, up to most
// batches, rather than wait.
func New[T any](size, most int) *Line[T] {
	return &Line[T]{
		size: size, most: max(most, 2), made: 1,
		full: make(chan []T, max(most, 2)),
		free: make(chan []T, max(most, 2)),
		gone: make(chan struct{}),
		out:  make([]T, 0, size),
	}
}

// Put adds v to the batch being filled and hands the batch over when it is
// full; false when the consumer has left, after which the producer puts
// nothing more and calls Close.
func (l *Line[T]) Put(v T) bool {
	l.out = append(l.out, v)
	if len(l.out) == cap(l.out) {
		return l.Flush()
	}
	return true
}

// Flush hands over the batch being filled, if it holds anything, and takes
// an empty one, waiting for the consumer to free one if need be; false when
// the consumer has left, after which the producer puts nothing more and
// calls Close.
func (l *Line[T]) Flush() bool {
	if len(l.out) == 0 {
		return true
	}
	// Never blocks: at most most batches exist and the channel holds most.
	l.full <- l.out
	l.out = nil // handed over: a Close after a refusal sends nothing twice
	select {
	case l.out = <-l.free:
		return true
	case <-l.gone:
		return false
	default:
	}
	if l.made < l.most {
		l.made++
		l.out = make([]T, 0, l.size)
		return true
	}
	select {
	case l.out = <-l.free:
		return true
	case <-l.gone:
		return false
	}
}

// Close ends the line from the producer's side, after handing over what it
// put; fault, if not nil, is the producer's panic, for the consumer to
// raise. The producer puts nothing after it.
func (l *Line[T]) Close(fault any) {
	if len(l.out) > 0 {
		l.full <- l.out
		l.out = nil
	}
	l.closedWith = fault
	close(l.full)
}

// Next returns the next batch, which the consumer may read until its next
// call; false when the producer has closed the line and every batch has
// been read.
func (l *Line[T]) Next() ([]T, bool) {
	if l.in != nil {
		l.free <- l.in[:0]
	}
	b, ok := <-l.full
	l.in = b
	return b, ok
}

// Leave ends the line from the consumer's side: the producer's next Put or
// Flush returns false, and LeftWith then says why (fault: the consumer's
// panic, or nil). The consumer reads nothing after it but Drain.
func (l *Line[T]) Leave(fault any) {
	l.leftWith = fault
	close(l.gone)
}

// Fault is a panic on one side of a line, raised again on the other: the
// value and where it was first raised, which the second panic's own stack
// does not show.
type Fault struct {
	Value any
	Stack []byte
}

func (f *Fault) Error() string {
	return fmt.Sprintf("%v\n\n(first raised on another goroutine:)\n%s", f.Value, f.Stack)
}

// Recovered returns what a deferred call on one side of a line should pass
// to Close or Leave: nil, or the side's panic as a Fault with its stack. It
// must be given recover()'s result from the deferred function itself.
func Recovered(v any) any {
	if v == nil {
		return nil
	}
	return &Fault{Value: v, Stack: debug.Stack()}
}

// ClosedWith is the producer's panic (Close), for the consumer to read once
// Next has returned false.
func (l *Line[T]) ClosedWith() any { return l.closedWith }

// LeftWith is the consumer's panic (Leave), for the producer to read once
// Put or Flush has returned false.
func (l *Line[T]) LeftWith() any { return l.leftWith }

// Drain reads and drops the batches the producer still hands over until it
// closes the line: a consumer that left calls it to wait for the producer
// to finish.
func (l *Line[T]) Drain() {
	for range l.full {
	}
}
