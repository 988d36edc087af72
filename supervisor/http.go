package supervisor

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/electgo/elect/node"
)

// newClient is an HTTP client whose every connection goes to ep,
// whatever host a URL names: a Unix socket has no host to name.
func newClient(ep Endpoint) *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, ep.Network, ep.Address)
		},
		MaxIdleConnsPerHost: 2, DisableCompression: true,
	}}
}

// Client is an HTTP client that reaches the node's HTTP server, at any
// URL that URL makes. It has no timeout of its own, so that it can follow
// /status/stream: give each request a context.
func (p *Process) Client() *http.Client { return p.client }

// URL is the address of path ("/status") on the node's HTTP server, for
// Client: over TCP its host is the endpoint's, so that errors name it.
func (p *Process) URL(path string) string {
	host := "node"
	if p.spec.HTTP.Network != "unix" {
		host = p.spec.HTTP.Address
	}
	return "http://" + host + path
}

// Status is the node's GET /status, asked for a second at most: a node
// that takes longer is as good as silent to a poll.
func (p *Process) Status(ctx context.Context) (*node.StatusJSON, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	url := p.URL("/status")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	var st node.StatusJSON
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	return &st, nil
}
