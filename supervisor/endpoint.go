package supervisor

import (
	"context"
	"net"
	"net/http"
)

// Endpoint is where a node serves HTTP: a TCP address, or the path of a
// Unix socket, which reaches a node inside a network namespace of its own
// from outside it.
type Endpoint struct {
	Network string // "tcp" or "unix"
	Address string // HOST:PORT, or the socket's path
}

// String is the endpoint as `elect node --http` takes it: HOST:PORT, or
// unix:PATH.
func (e Endpoint) String() string {
	if e.Network == "unix" {
		return "unix:" + e.Address
	}
	return e.Address
}

// client is an HTTP client whose every connection goes to e, whatever
// host a URL names: a Unix socket has no host to name.
func (e Endpoint) client() *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, e.Network, e.Address)
		},
		MaxIdleConnsPerHost: 2, DisableCompression: true,
	}}
}

// url is the address of path on the endpoint's server, for client: over
// TCP its host is the endpoint's, so that errors name it.
func (e Endpoint) url(path string) string {
	host := "node"
	if e.Network != "unix" {
		host = e.Address
	}
	return "http://" + host + path
}
