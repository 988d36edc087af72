package node

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/electgo/elect/algo"
)

func TestParsePeers(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "", want: ""},
		{in: "0=127.0.0.1:7000, 1=127.0.0.1:7001", want: "0=127.0.0.1:7000 1=127.0.0.1:7001"},
		{in: "3=localhost:9", want: "3=127.0.0.1:9"},
		{in: "0:127.0.0.1:7000", err: `peer 1 "0:127.0.0.1:7000": want ID=HOST:PORT`},
		{in: "0=127.0.0.1:7000,x=127.0.0.1:1", err: `peer 2 "x=127.0.0.1:1": id "x" is not a non-negative integer`},
		{in: "-1=127.0.0.1:1", err: `id "-1" is not a non-negative integer`},
		{in: "1=127.0.0.1", err: `peer 1 "1=127.0.0.1": address "127.0.0.1": want HOST:PORT`},
		{in: "1=127.0.0.1:0", err: `no port`},
		{in: "0=:1", err: `address ":1": no host`},
		{in: "0=0.0.0.0:1", err: `no host`},
		{in: "1=127.0.0.1:5,1=127.0.0.1:6", err: `peer 2 "1=127.0.0.1:6": id 1 listed twice`},
	} {
		got, err := ParsePeers(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParsePeers(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParsePeers(%q): %v", tc.in, err)
			continue
		}
		var parts []string
		for id := range algo.NodeID(len(got) + 10) {
			if a, ok := got[id]; ok {
				parts = append(parts, fmt.Sprintf("%d=%v", id, a))
			}
		}
		if s := strings.Join(parts, " "); s != tc.want {
			t.Errorf("ParsePeers(%q) = %s, want %s", tc.in, s, tc.want)
		}
	}
}

func FuzzParsePeers(f *testing.F) {
	for _, s := range []string{"", "0=127.0.0.1:7000,1=127.0.0.1:7001", "1=", "=:", "9999999999=1.2.3.4:5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsFunc(s, unicode.IsLetter) {
			return // a host name: resolving it would query DNS
		}
		peers, err := ParsePeers(s)
		if err == nil {
			for id, a := range peers {
				if id < 0 || !a.IsValid() || a.Port() == 0 {
					t.Fatalf("ParsePeers(%q) accepted peer %d at %v", s, id, a)
				}
			}
		}
	})
}
