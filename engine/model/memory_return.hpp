// Giving freed memory back to the system. A series being measured keeps working columns (its summary's sorted values,
// its batches' runs) of megabytes on the thread that runs it; once the series ends they are freed, but glibc's malloc
// keeps freed blocks of up to 32 MiB in the heap of the thread that made them (its mmap threshold rises each time a
// mapped block is freed): after a million-run live session the window held some 50 MB, 49 bytes a run, that nothing
// used. A fixed mmap threshold would give such blocks back as they are freed, but then every large scratch buffer is
// mapped and faulted in afresh: comparing two million-run series took 3.4 s instead of 2.0.
#pragma once

namespace asyncscope {

// Hands the heaps' free pages back (malloc_trim): for the end of a long piece of work, off the window's thread (it
// walks every heap, holding each one's lock meanwhile). Nothing where the C library is not glibc.
void returnFreedMemory();

}  // namespace asyncscope
