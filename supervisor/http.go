package supervisor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/electgo/elect/node"
)

// Client is an HTTP client that reaches the node's HTTP server, at any
// URL that URL makes. It has no timeout of its own, so that it can follow
// /status/stream: give each request a context.
func (p *Process) Client() *http.Client { return p.client }

// URL is the address of path ("/status") on the node's HTTP server, for
// Client.
func (p *Process) URL(path string) string { return p.spec.HTTP.url(path) }

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

// Elect asks the node to start an election (POST /elect), within a second.
func (p *Process) Elect(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	url := p.URL("/elect")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	if p.spec.Token != "" {
		req.Header.Set("Authorization", "Bearer "+p.spec.Token)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return fmt.Errorf("POST %s: %s", url, resp.Status)
	}
	return nil
}

// PostJSON sends in as the JSON body of a POST to path on the node's HTTP
// server (its operator address: Spec.HTTP), with the credential Spec.Token
// as Elect sends it, within a second, and decodes a 2xx answer's JSON
// body into out (nil: not read). Any other answer is an error that
// carries the node's message ("POST http://.../gray: 400 Bad Request:
// POST /gray: cut_from: ...").
func (p *Process) PostJSON(ctx context.Context, path string, in, out any) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	url := p.URL(path)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if p.spec.Token != "" {
		req.Header.Set("Authorization", "Bearer "+p.spec.Token)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		if m := strings.TrimSpace(string(msg)); m != "" {
			return fmt.Errorf("POST %s: %s: %s", url, resp.Status, m)
		}
		return fmt.Errorf("POST %s: %s", url, resp.Status)
	}
	if out == nil {
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("POST %s: %w", url, err)
	}
	return nil
}

// SetGray replaces the node's gray failures (POST /gray, node.Gray: {}
// heals it) and returns them as the node now has them.
func (p *Process) SetGray(ctx context.Context, g node.Gray) (node.Gray, error) {
	var now node.Gray
	err := p.PostJSON(ctx, "/gray", g, &now)
	return now, err
}

// SetValue sets the node's value, its desirability as leader (POST
// /value, node.ValueJSON), as its current life takes it; a later life
// starts with Spec.Args' --value unless SetArgs changed them.
func (p *Process) SetValue(ctx context.Context, v int64) error {
	var now node.ValueJSON
	if err := p.PostJSON(ctx, "/value", node.ValueJSON{Value: v}, &now); err != nil {
		return err
	}
	if now.Value != v {
		return fmt.Errorf("POST %s: the node answered value %d, want %d", p.URL("/value"), now.Value, v)
	}
	return nil
}
