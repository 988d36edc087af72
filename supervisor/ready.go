package supervisor

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// AwaitUp waits until the current life answers on /healthz, asking more
// and more slowly (a hundred nodes booting at once on two cores need the
// CPU more than the supervisor's questions do). It fails, with the end of
// the life's log, when the life ends first, or when within passes: then
// it kills the life, which is of no use if it cannot be asked anything.
func (p *Process) AwaitUp(ctx context.Context, within time.Duration) error {
	p.mu.Lock()
	done, life := p.done, p.info.Life
	p.mu.Unlock()
	if done == nil {
		return fmt.Errorf("%s: no life launched", p.spec.Name)
	}
	deadline := time.Now().Add(within)
	pause := 5 * time.Millisecond
	for {
		if p.healthy(ctx) {
			p.mu.Lock()
			if p.info.Life == life && p.info.State == Starting {
				p.info.State = Running
			}
			p.mu.Unlock()
			return nil
		}
		select {
		case <-done:
			p.mu.Lock()
			err := p.exit
			p.mu.Unlock()
			return fmt.Errorf("%s ended as it started (%v)%s", p.spec.Name, err, p.LogTail())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(pause*3/2, 100*time.Millisecond)
		if time.Now().After(deadline) {
			p.Kill()
			return fmt.Errorf("%s did not answer on %s within %v%s", p.spec.Name, p.spec.HTTP, within, p.LogTail())
		}
	}
}

// healthy reports whether /healthz answers 200 within a second.
func (p *Process) healthy(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL("/healthz"), nil)
	if err != nil {
		return false
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
