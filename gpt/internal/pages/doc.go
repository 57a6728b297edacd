// Package pages asks the operating system to back a large slab with huge pages (2 MB on
// x86-64 Linux) before anything is written to it.
//
// The first write to each page of new memory is a page fault: the kernel stops the thread,
// finds a page, zeroes it and maps it. On a laptop that costs a fraction of a microsecond
// per 4 kB page; in a virtual machine it can cost ten (10.5 µs measured on the machine the
// project is tested on, docs/performance.md row A12). A cached decode step writes one row of
// keys and one of values into every layer's part of the KV cache, new memory for the first
// generation over a model: for GPT-2 Small in fp32 that is 72 kB, 18 new pages a step, about
// half a millisecond of faults in a step of ten. One fault for each 2 MB instead of each
// 4 kB takes that to a few microseconds. A forward with the logits of every position writes
// a new slab of them: 206 MB for 1,024 positions of Small, 50,000 faults of 4 kB that took
// 0.4–0.5 s of a 2.1 s forward here (row A17).
//
// Reading order: huge_linux.go (the request), huge_other.go (elsewhere, nothing).
package pages
