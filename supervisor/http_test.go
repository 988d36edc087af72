package supervisor

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electgo/elect/algo"
	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/node"
	"github.com/electgo/elect/runtime"
)

// SetGray reaches a node's POST /gray with the token of the Spec, returns
// the state the node answers, and carries the node's refusal in its
// error; PostJSON with a wrong token is refused.
func TestSetGray(t *testing.T) {
	key := []byte("the cluster's key, 32 bytes long")
	net := runtime.NewMemNetwork()
	ep := net.Listen()
	n, err := node.New(node.Config{ID: 0, Transport: ep, Key: key,
		Peers:  map[algo.NodeID]netip.AddrPort{1: net.Listen().LocalAddr(), 2: net.Listen().LocalAddr()},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(n.Handler())
	defer srv.Close()
	endpoint := Endpoint{Network: "tcp", Address: strings.TrimPrefix(srv.URL, "http://")}
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		token string
		g     node.Gray
		err   string // in the error; "" for none
	}{
		{name: "set", token: node.HTTPToken(key), g: node.Gray{CutFrom: []algo.NodeID{2, 1}, ClockRate: 1.2, Slow: time.Millisecond}},
		{name: "a bad value", token: node.HTTPToken(key), g: node.Gray{CutTo: []algo.NodeID{5}}, err: "400 Bad Request: POST /gray: cut_to: node 5 is not a listed peer"},
		{name: "no token", g: node.Gray{}, err: "401 Unauthorized"},
		{name: "healed", token: node.HTTPToken(key), g: node.Gray{}},
	} {
		p := New(Spec{Name: "node 0", HTTP: endpoint, Token: c.token})
		got, err := p.SetGray(ctx, c.g)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want an error with %q", c.name, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		default:
			want := n.Gray()
			if !slices.Equal(got.CutFrom, want.CutFrom) || got.ClockRate != want.ClockRate || got.Slow != want.Slow || len(got.CutTo) != 0 {
				t.Errorf("%s: answered %+v, the node has %+v", c.name, got, want)
			}
			if !slices.Equal(want.CutFrom, idsSorted(c.g.CutFrom)) || want.Slow != c.g.Slow {
				t.Errorf("%s: the node has %+v, want %+v", c.name, want, c.g)
			}
		}
	}
}

func idsSorted(ids []algo.NodeID) []algo.NodeID {
	s := slices.Clone(ids)
	slices.Sort(s)
	return s
}

// SetValue reaches a running node's POST /value with the token of the
// Spec and sets its value; without the token it is refused, and the
// value stays.
func TestSetValue(t *testing.T) {
	key := []byte("the cluster's key, 32 bytes long")
	net := runtime.NewMemNetwork()
	n, err := node.New(node.Config{ID: 0, Value: 3, Transport: net.Listen(), Key: key,
		Peers:  map[algo.NodeID]netip.AddrPort{1: net.Listen().LocalAddr()},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- n.Run(ctx) }()
	defer func() { cancel(); <-ran }()
	srv := httptest.NewServer(n.Handler())
	defer srv.Close()
	endpoint := Endpoint{Network: "tcp", Address: strings.TrimPrefix(srv.URL, "http://")}
	if err := New(Spec{Name: "node 0", HTTP: endpoint}).SetValue(ctx, 9); err == nil || !strings.Contains(err.Error(), "401 Unauthorized") {
		t.Errorf("without the token: %v, want 401", err)
	}
	if err := New(Spec{Name: "node 0", HTTP: endpoint, Token: node.HTTPToken(key)}).SetValue(ctx, -7); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Second); n.Status().Value != -7; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the node's value is %d, want -7", n.Status().Value)
		}
	}
}

// SetArgs changes the command of the lives launched after it.
func TestSetArgs(t *testing.T) {
	p := New(Spec{Name: "n", Args: []string{"node", "--value", "1"}})
	args := []string{"node", "--value", "5"}
	p.SetArgs(args)
	args[2] = "6" // the caller's slice is its own
	if got := p.Args(); !slices.Equal(got, []string{"node", "--value", "5"}) {
		t.Errorf("Args() = %q", got)
	}
}
