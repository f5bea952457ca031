// Where a process's freed memory goes. A series' columns and its working copies (sorted values, a batch's runs) are
// blocks of megabytes made and freed on several threads. glibc's malloc raises its mmap threshold each time a mapped
// block is freed (up to 32 MiB); from then on blocks of a few megabytes come from the heap of the thread that made
// them and stay with the process once freed: after a million-run live session the window held some 50 MB (49 bytes a
// run) that nothing used. A fixed threshold keeps every block of kHugePageBytes or more mapped, and given back to the
// system as it is freed.
#pragma once

namespace asyncscope {

// Called once, first thing in main(). Nothing where the C library is not glibc.
void returnBigBlocksWhenFreed();

}  // namespace asyncscope
