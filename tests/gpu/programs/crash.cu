// record-crash: a program that dies mid-way. It plans 10 iterations of copy in, kernel, copy out on a stream and
// cudaStreamSynchronize, each timed by a pair of CUDA events and printed as "iteration I: X.XXX ms"; after 5 of them it
// submits the 6th and, before waiting for it, writes through a null pointer and is killed by SIGSEGV.
#include "program_common.cuh"

int main()
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    Pipeline pipeline;
    if (makePipeline(pipeline, 1 << 22, cudaStreamDefault) != 0)
        return 1;
    std::printf("record-crash: 10 iterations of %zu KiB planned; the 6th crashes\n", pipeline.bytes >> 10);
    for (int iteration = 1; iteration <= 10; ++iteration) {
        if (submit(pipeline, 2.0f) != 0)
            return 1;
        if (iteration == 6) {
            std::fprintf(stderr, "record-crash: writing through a null pointer in iteration 6\n");
            // Volatile both ways: the compiler can neither assume the pointer nor drop the store.
            volatile int* volatile nowhere = nullptr;
            *nowhere = 6;
        }
        if (finish(pipeline, 2.0f, "record-crash") != 0)
            return 1;
        std::printf("iteration %d: %.3f ms\n", iteration, double(pipeline.milliseconds));
    }
    std::fprintf(stderr, "record-crash: the 6th iteration did not crash\n");
    return 1;
}
