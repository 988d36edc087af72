//go:build linux

package emulate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"strings"

	"github.com/electgo/elect/topo"
)

// Names of the kernel objects of one run, all derived from its tag (4 hex
// digits), so that `elect emulate --cleanup` can find them again:
//
//	network namespace  elect-TAG-I     (node I)
//	bridge             elTAGbr
//	veth, host end     elTAG-I         (its other end is eth0 inside the namespace)
//	the spy's veth     elTAGspy        (on the bridge; its other end elTAGtap
//	                                    in the host's namespace: see spy)
//	nftables table     bridge elect_TAG
//
// Interface names have at most 15 bytes: "el" + 4 + "-" + up to 8 digits.
const (
	nsPrefix    = "elect-"
	linkPrefix  = "el"
	tablePrefix = "elect_"
)

func nsName(tag string, v int) string   { return fmt.Sprintf("%s%s-%d", nsPrefix, tag, v) }
func bridgeName(tag string) string      { return linkPrefix + tag + "br" }
func vethName(tag string, v int) string { return fmt.Sprintf("%s%s-%d", linkPrefix, tag, v) }
func tableName(tag string) string       { return tablePrefix + tag }
func spyName(tag string) string         { return linkPrefix + tag + "spy" }
func tapName(tag string) string         { return linkPrefix + tag + "tap" }

// subnet holds the nodes' addresses. It is used inside the namespaces only:
// the host has no address on the bridge, so nothing of the host's own
// routing sees it, and a host that uses the same range elsewhere is not
// disturbed.
var subnet = netip.MustParsePrefix("10.213.0.0/16")

// maxNodes is how many nodes the subnet numbers (.0.1 to .255.254).
const maxNodes = 1<<16 - 2

// addr is node v's address: the subnet's (v+1)th.
func addr(v int) netip.Addr {
	a := subnet.Addr().As4()
	n := v + 1
	a[2], a[3] = byte(n>>8), byte(n)
	return netip.AddrFrom4(a)
}

// broadcast is the subnet's broadcast address, where hellos go.
func broadcast() netip.Addr {
	a := subnet.Addr().As4()
	a[2], a[3] = 255, 255
	return netip.AddrFrom4(a)
}

// geteuid is os.Geteuid, replaced in tests.
var geteuid = os.Geteuid

// Preflight says what keeps this machine from emulating: not root, or ip
// (iproute2) or nft (nftables) missing. Its errors say what to do.
func Preflight() error {
	var errs []error
	if geteuid() != 0 {
		errs = append(errs, errors.New("elect emulate needs root to create network namespaces and nftables rules: run it as root (sudo elect emulate ...)"))
	}
	for _, t := range []struct{ bin, pkg string }{{"ip", "iproute2"}, {"nft", "nftables"}} {
		if _, err := exec.LookPath(t.bin); err != nil {
			errs = append(errs, fmt.Errorf("%s not found in PATH: install %s (Debian and Ubuntu: apt-get install %s)", t.bin, t.pkg, t.pkg))
		}
	}
	return errors.Join(errs...)
}

// command runs name with args, feeding it stdin; its error carries what the
// command wrote to stderr.
func command(ctx context.Context, stdin string, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return out, fmt.Errorf("%s %s: %s", name, strings.Join(args, " "), msg)
	}
	return out, nil
}

// setUp creates the network of n nodes: one namespace each, a veth pair
// from each into the bridge, addresses, and the nftables table whose
// forward chain lets through only the pairs in links, losing a frame with
// probability loss; and, with spy, the spy's port (see spy), which no port
// of the bridge then learns addresses from, so that it floods every frame
// to the spy. The caller removes it all with removeRun, whether setUp
// succeeded or not.
func setUp(ctx context.Context, tag string, n int, links []topo.Edge, loss float64, spy bool) error {
	var b strings.Builder
	br := bridgeName(tag)
	for v := range n {
		fmt.Fprintf(&b, "netns add %s\n", nsName(tag, v))
	}
	// No spanning tree and no forwarding delay: ports forward at once.
	fmt.Fprintf(&b, "link add %s type bridge stp_state 0 forward_delay 0\n", br)
	for v := range n {
		fmt.Fprintf(&b, "link add %s type veth peer name eth0 netns %s\n", vethName(tag, v), nsName(tag, v))
		fmt.Fprintf(&b, "link set %s master %s up\n", vethName(tag, v), br)
	}
	if spy {
		fmt.Fprintf(&b, "link add %s type veth peer name %s\n", spyName(tag), tapName(tag))
		fmt.Fprintf(&b, "link set %s master %s up\n", spyName(tag), br)
		// No address on the tap, not even IPv6's link-local: the host
		// sends nothing of its own into the run.
		fmt.Fprintf(&b, "link set %s addrgenmode none up\n", tapName(tag))
		for v := range n {
			fmt.Fprintf(&b, "link set %s type bridge_slave learning off\n", vethName(tag, v))
		}
		fmt.Fprintf(&b, "link set %s type bridge_slave learning off\n", spyName(tag))
	}
	fmt.Fprintf(&b, "link set %s up\n", br)
	if _, err := command(ctx, b.String(), "ip", "-batch", "-"); err != nil {
		return err
	}
	// The rules go in before any node speaks.
	if err := nftApply(ctx, nftTable(tag, links, loss, spy)); err != nil {
		return err
	}
	bits := subnet.Bits()
	for v := range n {
		script := fmt.Sprintf("link set lo up\naddr add %s/%d broadcast %s dev eth0\nlink set eth0 up\n", addr(v), bits, broadcast())
		if _, err := command(ctx, script, "ip", "-n", nsName(tag, v), "-batch", "-"); err != nil {
			return err
		}
	}
	return nil
}

// nftTable is the nftables script that creates a run's table: the set of
// linked port pairs (both directions of each link) and the forward chain
// that drops by default, drops a share loss of what it would let through,
// and accepts the pairs in the set: CORE's WLAN model, with one set lookup
// standing for its per-pair accept rules. With spy, every frame also goes
// to the spy's port, before any loss (a sniffer beside each sender); the
// spy's own frames pass by the first rule, to every port.
func nftTable(tag string, links []topo.Edge, loss float64, spy bool) string {
	var b strings.Builder
	t := tableName(tag)
	fmt.Fprintf(&b, "add table bridge %s\n", t)
	fmt.Fprintf(&b, "add set bridge %s links { type ifname . ifname; }\n", t)
	fmt.Fprintf(&b, "add chain bridge %s forward { type filter hook forward priority 0; policy drop; }\n", t)
	// A frame must pass every table's chain on the hook: frames of other
	// bridges (another run's, a container runtime's) are not this run's
	// to judge. (meta ibrname would say it better; kernels before 5.x
	// lack it.)
	fmt.Fprintf(&b, "add rule bridge %s forward iifname != %q accept\n", t, linkPrefix+tag+"-*")
	if spy {
		fmt.Fprintf(&b, "add rule bridge %s forward oifname %q accept\n", t, spyName(tag))
	}
	if loss > 0 {
		// numgen draws per frame and per output port: a broadcast reaches
		// each neighbour or not on its own draw, as radio loss does.
		fmt.Fprintf(&b, "add rule bridge %s forward numgen random mod 1000000 < %d counter drop\n", t, lossPPM(loss))
	}
	fmt.Fprintf(&b, "add rule bridge %s forward iifname . oifname @links counter accept\n", t)
	fmt.Fprintf(&b, "add rule bridge %s forward counter drop\n", t)
	writeElements(&b, "add", tag, bothWays(links))
	return b.String()
}

// lossPPM is a loss probability in parts per million: 0 for none, and at
// least 1 for any other, so that a tiny loss is not lost to rounding.
func lossPPM(loss float64) int {
	if loss <= 0 {
		return 0
	}
	return max(1, int(loss*1e6+0.5))
}

// dirUpdate is the nftables script that brings directions of links (A
// sends, B receives) up and down in one transaction: a frame sees the
// links before it or after it, never half. A link is both its directions
// (bothWays); one cut one way carries the other alone.
func dirUpdate(tag string, up, down []topo.Edge) string {
	var b strings.Builder
	writeElements(&b, "delete", tag, down)
	writeElements(&b, "add", tag, up)
	return b.String()
}

// bothWays lists both directions of each link.
func bothWays(links []topo.Edge) []topo.Edge {
	out := make([]topo.Edge, 0, 2*len(links))
	for _, k := range links {
		out = append(out, k, topo.Edge{A: k.B, B: k.A})
	}
	return out
}

// writeElements writes an add or delete of the set elements for the
// directions dirs (A's port in, B's out), in lines of at most 1,000.
func writeElements(b *strings.Builder, verb, tag string, dirs []topo.Edge) {
	const perLine = 1000
	for i := 0; i < len(dirs); i += perLine {
		fmt.Fprintf(b, "%s element bridge %s links { ", verb, tableName(tag))
		for j, k := range dirs[i:min(i+perLine, len(dirs))] {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%q . %q", vethName(tag, int(k.A)), vethName(tag, int(k.B)))
		}
		b.WriteString(" }\n")
	}
}

// nftApply runs a script with nft -f: atomically, all of it or none.
func nftApply(ctx context.Context, script string) error {
	if script == "" {
		return nil
	}
	_, err := command(ctx, script, "nft", "-f", "-")
	return err
}
