// Package scenarios holds the example scenarios as files, and the demo's
// for the binary: `elect sim` with no scenario runs Demo, the same bytes as
// demo.yaml.
//
// It imports nothing of elect: the files are data (docs/architecture.md).
package scenarios

import _ "embed"

// Demo is demo.yaml: what elect sim runs when it is given no scenario.
//
//go:embed demo.yaml
var Demo []byte
