package algo_test

import (
	"testing"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/algo/algotest"
)

// algo.Broadcast is one transmission on a driver with a broadcast medium,
// and one Send per neighbour, ascending, on any other Env.
func TestBroadcastHelper(t *testing.T) {
	m := algo.Message{Type: 0, Index: algo.Index{Num: 3, ID: 1}, Peer: algo.Peer{ID: 7}}
	env := algotest.New(1, []string{"hello"}, 0, 4, 9)
	algo.Broadcast(env, m)
	if got := env.Take(); got != "hello>* <3,1> 7" {
		t.Errorf("on a Broadcaster: %q, want one transmission", got)
	}
	algo.Broadcast(struct{ algo.Env }{env}, m) // an Env without the method
	if got := env.Take(); got != "hello>0 <3,1> 7; hello>4 <3,1> 7; hello>9 <3,1> 7" {
		t.Errorf("on an Env without a broadcast: %q, want a Send to each neighbour", got)
	}
	if algo.Everyone == algo.None {
		t.Error("Everyone must differ from None")
	}
}
