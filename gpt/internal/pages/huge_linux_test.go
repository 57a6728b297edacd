package pages

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestHugeBacksTheSlab asks for huge pages on a new 16 MB slab, writes it, and reads from
// /proc/self/smaps that the mapping holding its first whole 2 MB page has huge pages: at
// least the 6 whole 2 MB pages the slab must hold. It skips where the kernel has transparent huge pages turned off.
func TestHugeBacksTheSlab(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skipf("no transparent huge pages here (%q, %v)", mode, err)
	}
	s := make([]float32, 4<<20) // 16 MB
	Huge(s)
	for i := range s {
		s[i] = float32(i)
	}
	// The advice splits the mapping: the part from the first whole 2 MB page on is its own.
	start := uintptr(unsafe.Pointer(&s[0]))
	kb, err := anonHugeKB((start + hugePage - 1) &^ (hugePage - 1))
	if err != nil {
		t.Fatal(err)
	}
	if kb < 6*2048 {
		t.Errorf("the mapping holding the slab has %d kB in huge pages, want at least %d", kb, 6*2048)
	}
	for i, v := range s {
		if v != float32(i) {
			t.Fatalf("s[%d] = %v after Huge, want %d", i, v, i)
		}
	}
}

// anonHugeKB reads AnonHugePages of the mapping that holds addr from /proc/self/smaps.
func anonHugeKB(addr uintptr) (int, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 { // a mapping's first line
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "AnonHugePages:") {
			var kb int
			fmt.Sscanf(strings.TrimPrefix(line, "AnonHugePages:"), "%d", &kb)
			return kb, nil
		}
	}
	return 0, fmt.Errorf("no mapping holds %#x in /proc/self/smaps", addr)
}
