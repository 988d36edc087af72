package cli

// The commands' tests run the built-in algorithms, which a program
// registers by importing them (cmd/elect does); so does this test binary.
import _ "github.com/electgo/elect/algo/all"
