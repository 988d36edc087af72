//go:build linux

package emulate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// runsDir records the runs under way: TAG.pid holds the pid of the elect
// emulate that owns the objects named with TAG. Cleanup leaves alone the
// runs whose owner still lives.
const runsDir = "/run/elect-emulate"

var (
	nsPattern    = regexp.MustCompile(`^` + nsPrefix + `([0-9a-f]{4})-[0-9]+$`)
	linkPattern  = regexp.MustCompile(`^` + linkPrefix + `([0-9a-f]{4})(br|spy|tap|-[0-9]+)$`)
	tablePattern = regexp.MustCompile(`^` + tablePrefix + `([0-9a-f]{4})$`)
)

// claim picks a tag no run uses and records this process as its owner.
func claim() (string, error) {
	if err := os.MkdirAll(runsDir, 0o755); err != nil {
		return "", err
	}
	seed := uint32(time.Now().UnixNano()) ^ uint32(os.Getpid())<<8
	for i := range uint32(1 << 16) {
		tag := fmt.Sprintf("%04x", (seed+i*40503)&0xffff)
		f, err := os.OpenFile(filepath.Join(runsDir, tag+".pid"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = fmt.Fprintf(f, "%d\n", os.Getpid())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return tag, err
	}
	return "", fmt.Errorf("every run tag is taken in %s: run elect emulate --cleanup", runsDir)
}

// owned reports whether the run tag belongs to a live process other than
// this one.
func owned(tag string) bool {
	b, err := os.ReadFile(filepath.Join(runsDir, tag+".pid"))
	if err != nil {
		return false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid == os.Getpid() {
		return false
	}
	return syscall.Kill(pid, 0) == nil
}

// objects are the kernel objects named after runs, by tag, as the kernel
// lists them.
type objects struct {
	namespaces, links map[string][]string
	tables            map[string]bool
}

// list asks the kernel for the namespaces, links and bridge tables of runs.
func list(ctx context.Context) (objects, error) {
	o := objects{namespaces: map[string][]string{}, links: map[string][]string{}, tables: map[string]bool{}}
	var nss []struct{ Name string }
	if err := listJSON(ctx, &nss, "ip", "-j", "netns", "list"); err != nil {
		return o, err
	}
	for _, ns := range nss {
		if m := nsPattern.FindStringSubmatch(ns.Name); m != nil {
			o.namespaces[m[1]] = append(o.namespaces[m[1]], ns.Name)
		}
	}
	var links []struct{ Ifname string }
	if err := listJSON(ctx, &links, "ip", "-j", "link", "show"); err != nil {
		return o, err
	}
	for _, l := range links {
		if m := linkPattern.FindStringSubmatch(l.Ifname); m != nil {
			o.links[m[1]] = append(o.links[m[1]], l.Ifname)
		}
	}
	out, err := command(ctx, "", "nft", "list", "tables", "bridge")
	if err != nil {
		return o, err
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "table" {
			if m := tablePattern.FindStringSubmatch(f[2]); m != nil {
				o.tables[m[1]] = true
			}
		}
	}
	return o, nil
}

// listJSON runs a listing command that answers in JSON (nothing at all
// for an empty list, as ip netns does) and decodes it into v.
func listJSON(ctx context.Context, v any, name string, args ...string) error {
	out, err := command(ctx, "", name, args...)
	if err != nil || len(strings.TrimSpace(string(out))) == 0 {
		return err
	}
	if err := json.Unmarshal(out, v); err != nil {
		return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return nil
}

// leftovers lists the tags that have kernel objects or a run record.
func leftovers(ctx context.Context) (map[string]bool, objects, error) {
	o, err := list(ctx)
	if err != nil {
		return nil, o, err
	}
	tags := map[string]bool{}
	for tag := range o.namespaces {
		tags[tag] = true
	}
	for tag := range o.links {
		tags[tag] = true
	}
	for tag := range o.tables {
		tags[tag] = true
	}
	entries, err := os.ReadDir(runsDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, o, err
	}
	for _, e := range entries {
		if tag, ok := strings.CutSuffix(e.Name(), ".pid"); ok && len(tag) == 4 {
			tags[tag] = true
		}
	}
	return tags, o, nil
}

// Cleanup removes what killed runs left behind: their node processes,
// namespaces, bridges, veths, nftables tables and run records. Runs whose
// elect emulate still lives are left alone. It returns the tags it removed.
func Cleanup(ctx context.Context) ([]string, error) {
	if err := Preflight(); err != nil {
		return nil, err
	}
	tags, o, err := leftovers(ctx)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for tag := range tags {
		if owned(tag) {
			continue
		}
		// A killed run's nodes died with it (their parent-death signal),
		// but a process started into its namespaces by hand may not have.
		if err := remove(ctx, tag, o, true); err != nil {
			errs = append(errs, err)
		}
		removed = append(removed, tag)
	}
	slices.Sort(removed)
	return removed, errors.Join(errs...)
}

// removeRun removes the kernel objects and record of a run that is ending:
// its nodes are already reaped.
func removeRun(ctx context.Context, tag string) error {
	o, err := list(ctx)
	if err != nil {
		return err
	}
	return remove(ctx, tag, o, false)
}

// remove removes every kernel object of run tag in o, and its record: it
// kills the processes inside its namespaces (when kill), deletes the
// namespaces (their veth ends go with them), the veths and bridge left on
// the host, and the nftables table. It finds them by name, so it serves a
// run ending as well as the leftovers of a killed one, and it goes on past
// errors.
func remove(ctx context.Context, tag string, o objects, kill bool) error {
	var errs []error
	var del strings.Builder
	for _, ns := range o.namespaces[tag] {
		if kill {
			killIn(ctx, ns)
		}
		fmt.Fprintf(&del, "netns del %s\n", ns)
	}
	for _, l := range o.links[tag] {
		fmt.Fprintf(&del, "link del %s\n", l)
	}
	if del.Len() > 0 {
		// -force goes on past a veth already gone with its namespace.
		if _, err := command(ctx, del.String(), "ip", "-force", "-batch", "-"); err != nil && !strings.Contains(err.Error(), "Cannot find device") {
			errs = append(errs, err)
		}
	}
	if o.tables[tag] {
		if _, err := command(ctx, "", "nft", "delete", "table", "bridge", tableName(tag)); err != nil {
			errs = append(errs, err)
		}
	}
	if err := os.Remove(filepath.Join(runsDir, tag+".pid")); err != nil && !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// killIn kills every process in namespace ns and waits (up to 2 s) until
// they are gone, so that deleting the namespace frees it.
func killIn(ctx context.Context, ns string) {
	out, err := command(ctx, "", "ip", "netns", "pids", ns)
	if err != nil {
		return
	}
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil {
			syscall.Kill(pid, syscall.SIGKILL)
			pids = append(pids, pid)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for _, pid := range pids {
		for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
}
