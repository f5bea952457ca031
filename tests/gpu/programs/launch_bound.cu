// record-launch-bound: a program whose time goes into launching, the worst case for a tracer (every launch is a
// runtime call and a kernel, each a record). Each iteration launches an empty kernel 100 times on one stream, then
// waits for the stream (cudaStreamSynchronize). It prints, once, how long the iterations took by the host's clock and
// by a pair of CUDA events around them, and the host time a launch took on average.
// Usage: record-launch-bound [ITERATIONS] (2000 by default).
#include "program_common.cuh"

#include <chrono>

__global__ void nothing() { }

int main(int argc, char** argv)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const int iterations = countArgument(argc, argv, 1, 2000);
    if (iterations == 0 || argc > 2) {
        std::fprintf(stderr, "usage: record-launch-bound [ITERATIONS]\n");
        return 2;
    }
    constexpr int launches = 100;
    cudaStream_t stream;
    cudaEvent_t start;
    cudaEvent_t stop;
    CHECK(cudaStreamCreate(&stream));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    nothing<<<1, 1, 0, stream>>>();  // the module loads before the clock starts
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(stream));
    const auto began = std::chrono::steady_clock::now();
    CHECK(cudaEventRecord(start, stream));
    for (int iteration = 0; iteration < iterations; ++iteration) {
        for (int launch = 0; launch < launches; ++launch)
            nothing<<<1, 1, 0, stream>>>();
        CHECK(cudaGetLastError());
        CHECK(cudaStreamSynchronize(stream));
    }
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    std::printf("record-launch-bound: %d iterations of %d launches: %.6f s by the host's clock, %.3f ms by CUDA "
                "events, %.3f us a launch\n",
        iterations, launches, seconds, double(ms), seconds * 1e6 / (double(iterations) * launches));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaStreamDestroy(stream));
    return 0;
}
