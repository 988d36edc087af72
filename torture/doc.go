// Package torture runs randomized fault schedules against the algorithms,
// the way deterministic simulation testing does (FoundationDB's simulator,
// TigerBeetle's VOPR): it draws scenarios inside an algorithm's declared
// fault model (or, to document how it fails, outside it), runs each in the
// simulator under the checker, and shrinks every failing one to a small
// scenario file that still fails. Run i of a seed is the same scenario on
// every machine, so a failure is reproduced from two numbers.
//
// A driver: it must not import cli or the real-node packages
// (docs/architecture.md).
package torture
