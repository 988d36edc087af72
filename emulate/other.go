//go:build !linux

package emulate

import (
	"context"
	"errors"
)

var errLinux = errors.New("elect emulate needs Linux (network namespaces and nftables)")

// Preflight says why this machine cannot emulate: it is not Linux.
func Preflight() error { return errLinux }

// Run needs Linux.
func Run(context.Context, Config) (*Result, error) { return nil, errLinux }

// Cleanup needs Linux.
func Cleanup(context.Context) ([]string, error) { return nil, errLinux }
