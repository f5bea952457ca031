// record-exit3: a program that does its work and then reports failure: 5 complete iterations of copy in, kernel, copy
// out on a stream and cudaStreamSynchronize, each timed by a pair of CUDA events and printed as
// "iteration I: X.XXX ms", then main returns 3.
#include "program_common.cuh"

int main()
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    Pipeline pipeline;
    if (makePipeline(pipeline, 1 << 22, cudaStreamDefault) != 0)
        return 1;
    for (int iteration = 1; iteration <= 5; ++iteration) {
        if (submit(pipeline, 2.0f) != 0 || finish(pipeline, 2.0f, "record-exit3") != 0)
            return 1;
        std::printf("iteration %d: %.3f ms\n", iteration, double(pipeline.milliseconds));
    }
    if (freePipeline(pipeline) != 0)
        return 1;
    std::printf("record-exit3: 5 iterations done; exiting with status 3\n");
    return 3;
}
