// record-rank: one rank of a program that a launcher (mpirun, torchrun, or record-ranks.sh beside it) starts once per
// rank with RANK in its environment. Each rank runs 15 iterations of copy in, kernel, copy out on a stream and
// cudaStreamSynchronize, on 4 MiB times (RANK + 1), so that the ranks' runs are told apart by size; each iteration is
// timed by a pair of CUDA events and printed as "rank R iteration I: X.XXX ms".
#include "program_common.cuh"

int main()
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const char* text = std::getenv("RANK");
    char* end = nullptr;
    const long rank = text != nullptr ? std::strtol(text, &end, 10) : 0;
    if (text != nullptr && (end == text || *end != '\0' || rank < 0 || rank > 63)) {
        std::fprintf(stderr, "record-rank: RANK is '%s', not a rank from 0 to 63\n", text);
        return 2;
    }
    const int n = (1 << 20) * int(rank + 1);
    char who[32];
    std::snprintf(who, sizeof who, "rank %ld", rank);
    std::printf("%s: 15 iterations of %zu KiB\n", who, size_t(n) * sizeof(float) >> 10);
    Pipeline pipeline;
    if (makePipeline(pipeline, n, cudaStreamDefault) != 0)
        return 1;
    const float factor = float(rank + 2);
    for (int iteration = 1; iteration <= 15; ++iteration) {
        if (submit(pipeline, factor) != 0 || finish(pipeline, factor, who) != 0)
            return 1;
        std::printf("%s iteration %d: %.3f ms\n", who, iteration, double(pipeline.milliseconds));
    }
    return freePipeline(pipeline);
}
