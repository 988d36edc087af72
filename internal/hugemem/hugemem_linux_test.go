package hugemem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// A large array is zeroed, usable, and its aligned inside is advised for
// huge pages: the mapping that holds it carries the hg flag in
// /proc/self/smaps. A small one is left alone.
func TestMakeAdvises(t *testing.T) {
	big := Make[uint64](2 * Min / 8)
	for i, x := range big {
		if x != 0 {
			t.Fatalf("element %d is %d, not zero", i, x)
		}
	}
	big[len(big)-1] = 7
	mid := uintptr(unsafe.Pointer(&big[len(big)/2]))
	if flags := vmFlags(t, mid); !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the mapping holding a %d-byte array is not advised for huge pages (VmFlags: %s)", 2*Min, flags)
	}
	small := Make[byte](64 << 10)
	if len(small) != 64<<10 {
		t.Fatalf("len %d", len(small))
	}
}

// vmFlags returns the VmFlags line of the mapping of /proc/self/smaps that
// holds address a.
func vmFlags(t *testing.T, a uintptr) string {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := span(line); ok {
			in = lo <= a && a < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:"))
		}
	}
	t.Fatalf("no mapping holds %#x", a)
	return ""
}

// span parses the address range that opens a mapping's lines in smaps.
func span(line string) (lo, hi uintptr, ok bool) {
	r, _, found := strings.Cut(line, " ")
	a, b, dash := strings.Cut(r, "-")
	if !found || !dash {
		return 0, 0, false
	}
	x, err1 := strconv.ParseUint(a, 16, 64)
	y, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(x), uintptr(y), true
}
