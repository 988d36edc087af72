//go:build !linux

package hugemem

// Advise does nothing where there are no transparent huge pages.
func Advise[T any](s []T) {}
