package cli

import (
	"context"
	"testing"
)

// runNodeUntilEnd runs elect node with flags f (runNode, its HTTP served
// as the command serves it: node.Serve) until the test ends, and fails
// the test if it stops with an error.
func runNodeUntilEnd(t *testing.T, f nodeFlags) {
	t.Helper()
	cfg, err := f.config(newNodeCmd())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runNode(ctx, cfg, &f) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
}
