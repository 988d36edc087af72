package runtime

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
)

// MinKeyLen is the shortest key a cluster may have, in bytes.
const MinKeyLen = 16

// ReadKeyFile reads a cluster key: the file's bytes, surrounding white
// space removed, at least MinKeyLen of them.
func ReadKeyFile(path string) ([]byte, error) {
	key, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	key = bytes.TrimSpace(key)
	if len(key) < MinKeyLen {
		return nil, fmt.Errorf("%s: the key has %d bytes; use at least %d (e.g. head -c 32 /dev/urandom | base64 > %s)", path, len(key), MinKeyLen, path)
	}
	return key, nil
}

// NewKeyFile writes a fresh random key (32 bytes from crypto/rand, in
// base64) to path, readable by its owner only, and returns it as
// ReadKeyFile will read it: what elect cluster and elect emulate give
// their nodes when the user gives none.
func NewKeyFile(path string) ([]byte, error) {
	raw := make([]byte, 32)
	rand.Read(raw)
	key := []byte(base64.StdEncoding.EncodeToString(raw))
	if err := os.WriteFile(path, append(key, '\n'), 0o600); err != nil {
		return nil, err
	}
	return key, nil
}
