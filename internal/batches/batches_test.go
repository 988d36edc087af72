package batches

import (
	"testing"
	"time"
)

// Values arrive in order, across batches, partial last batch included; a
// producer many batches ahead waits rather than grow the line.
func TestLineInOrder(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 100} {
		l := New[int](8, 3)
		go func() {
			for i := range n {
				if !l.Put(i) {
					t.Error("the consumer left early")
				}
			}
			l.Close(nil)
		}()
		next := 0
		for {
			b, ok := l.Next()
			if !ok {
				break
			}
			if len(b) == 0 || len(b) > 8 {
				t.Fatalf("%d values: a batch of %d", n, len(b))
			}
			for _, v := range b {
				if v != next {
					t.Fatalf("%d values: got %d, want %d", n, v, next)
				}
				next++
			}
		}
		if next != n || l.ClosedWith() != nil {
			t.Errorf("%d values: got %d, closed with %v", n, next, l.ClosedWith())
		}
	}
}

// A consumer that leaves makes the producer's next Put or Flush fail, with
// the consumer's reason; Drain waits for the producer to close.
func TestLineLeave(t *testing.T) {
	l := New[int](4, 2)
	stopped := make(chan any)
	go func() {
		for i := 0; ; i++ {
			if !l.Put(i) {
				stopped <- l.LeftWith()
				l.Close(nil)
				return
			}
		}
	}()
	if b, ok := l.Next(); !ok || b[0] != 0 {
		t.Fatalf("first batch %v %v", b, ok)
	}
	l.Leave("enough")
	if why := <-stopped; why != "enough" {
		t.Errorf("the producer stopped with %v", why)
	}
	l.Drain()
}

// A producer's panic reaches the consumer after the values put before it.
func TestLineClosedWith(t *testing.T) {
	l := New[int](4, 2)
	go func() {
		defer func() { l.Close(recover()) }()
		for i := range 6 {
			l.Put(i)
		}
		panic("producer bug")
	}()
	got := 0
	for {
		b, ok := l.Next()
		if !ok {
			break
		}
		got += len(b)
	}
	if got != 6 || l.ClosedWith() != "producer bug" {
		t.Errorf("%d values, closed with %v", got, l.ClosedWith())
	}
}

// A producer that goes on to Close after its consumer left hands over
// nothing twice, and Close does not block.
func TestLineCloseAfterLeave(t *testing.T) {
	l := New[int](1, 2)
	l.Put(1)
	b, _ := l.Next()
	if len(b) != 1 {
		t.Fatalf("first batch %v", b)
	}
	l.Leave(nil)
	for l.Put(2) {
	}
	closed := make(chan struct{})
	go func() { l.Close(nil); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close blocked")
	}
	n := 0
	for range l.full {
		n++
	}
	if n > 1 {
		t.Errorf("%d batches handed over after the consumer left, want at most 1", n)
	}
}
