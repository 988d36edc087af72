package node_test

import (
	"context"
	"log"
	"os"
	"os/signal"

	"github.com/electgo/elect/node"
	"github.com/electgo/elect/runtime"
)

// A program that embeds a node serves its HTTP API as `elect node` does:
// /status, /status/stream, /metrics and /healthz on loopback for anyone,
// POST /elect on a socket file only its user may open.
func ExampleNode_Serve() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	tr, err := runtime.ListenUDP("127.0.0.1:7000")
	if err != nil {
		log.Fatal(err)
	}
	n, err := node.New(node.Config{ID: 0, Transport: tr})
	if err != nil {
		tr.Close()
		log.Fatal(err)
	}
	err = n.Serve(ctx, node.ServeOptions{HTTP: ":8000", Admin: "unix:/run/elect/admin.sock"})
	if err != nil {
		log.Fatal(err)
	}
}
