package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/electgo/elect/algo"
)

// Saved is what a node keeps on disk so that, restarted with it, it recovers
// (the documents' "recovery", handled as a merge) instead of restarting with
// an election.
type Saved struct {
	Version   int         `json:"version"`
	Algorithm string      `json:"algorithm"`
	ID        algo.NodeID `json:"id"`
	Cluster   uint32      `json:"cluster"`
	// ElectionIndex is the highest election index the node had reported,
	// so that it never goes back after a recovery.
	ElectionIndex uint64 `json:"election_index"`
	// Fence is the highest fencing token the node had issued or heard of
	// (node's fence.go), so that a restarted node's tokens stay above.
	Fence uint64 `json:"fence,omitempty"`
	// Heard is, per sender, the highest sequence number accepted from it
	// (saved at least once a second while it changes, and at a clean
	// stop), so that a restarted node refuses datagrams captured before.
	Heard map[algo.NodeID]uint64 `json:"heard,omitempty"`
	// Machine is the algorithm's own Save.
	Machine []byte `json:"machine"`
}

// savedVersion is the version of Saved's encoding.
const savedVersion = 1

// StateDir is a directory holding one node's Saved state in the file
// "state.json", written atomically: a crash mid-write leaves the previous
// state, never a torn one.
type StateDir string

// stateFile is the name of the state file in its directory.
const stateFile = "state.json"

// Path is the state file's path.
func (d StateDir) Path() string { return filepath.Join(string(d), stateFile) }

// Load reads the saved state; it returns nil and no error when there is
// none (a first boot, or a restart meant to start afresh).
func (d StateDir) Load() (*Saved, error) {
	b, err := os.ReadFile(d.Path())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s Saved
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: not a saved node state (%v); remove it to start this node afresh", d.Path(), err)
	}
	if s.Version != savedVersion {
		return nil, fmt.Errorf("%s: state version %d, this program reads version %d", d.Path(), s.Version, savedVersion)
	}
	return &s, nil
}

// Store writes s atomically: to a temporary file in the same directory,
// synced, then renamed over the old one, and the directory synced so that
// the rename itself survives a power cut.
func (d StateDir) Store(s Saved) error {
	s.Version = savedVersion
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(string(d), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(string(d), stateFile+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), d.Path()); err != nil {
		return err
	}
	dir, err := os.Open(string(d))
	if err != nil {
		return err
	}
	defer dir.Close()
	return dir.Sync()
}
