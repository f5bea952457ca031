// record-threads: host threads that each drive a stream of their own, as a program with a worker per stream does.
// Each thread makes a non-blocking stream, pinned buffers and a device buffer of 4 MiB, then runs its iterations: the
// copy in (cudaMemcpyAsync from pinned memory), a kernel that multiplies each element by the thread's own factor, the
// copy out, and cudaStreamSynchronize. Each iteration is timed by a pair of CUDA events around it on the stream and
// printed as "thread T iteration I: X.XXX ms".
// Usage: record-threads [THREADS [ITERATIONS]] (4 threads of 25 iterations by default).
#include "program_common.cuh"

#include <mutex>
#include <thread>
#include <vector>

namespace {

std::mutex g_print;  // one thread's line at a time

// One thread's iterations; 0 when every one ran and copied back what it should.
int work(int thread, int iterations, int n)
{
    const float factor = float(thread + 2);
    char who[32];
    std::snprintf(who, sizeof who, "thread %d", thread);
    Pipeline pipeline;
    if (makePipeline(pipeline, n, cudaStreamNonBlocking) != 0)
        return 1;
    for (int iteration = 1; iteration <= iterations; ++iteration) {
        if (submit(pipeline, factor) != 0 || finish(pipeline, factor, who) != 0)
            return 1;
        std::lock_guard lock(g_print);
        std::printf("thread %d iteration %d: %.3f ms\n", thread, iteration, double(pipeline.milliseconds));
    }
    return freePipeline(pipeline);
}

}  // namespace

int main(int argc, char** argv)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const int threads = countArgument(argc, argv, 1, 4);
    const int iterations = countArgument(argc, argv, 2, 25);
    if (threads == 0 || iterations == 0 || argc > 3) {
        std::fprintf(stderr, "usage: record-threads [THREADS [ITERATIONS]]\n");
        return 2;
    }
    const int n = 1 << 20;
    std::printf("record-threads: %d threads, each on a stream of its own, %d iterations of %zu KiB each\n", threads,
        iterations, size_t(n) * sizeof(float) >> 10);
    std::vector<int> results(size_t(threads), 1);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([&results, t, iterations, n] { results[size_t(t)] = work(t, iterations, n); });
    for (std::thread& worker : workers)
        worker.join();
    int failed = 0;
    for (const int result : results)
        failed += result != 0;
    if (failed > 0) {
        std::fprintf(stderr, "record-threads: %d of %d threads failed\n", failed, threads);
        return 1;
    }
    std::printf("record-threads: %d iterations done on %d threads\n", threads * iterations, threads);
    return 0;
}
