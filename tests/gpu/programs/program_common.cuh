// What the recorder's test programs (tests/gpu/programs) share: the check that stops a program at the first CUDA call
// that fails, naming the call and its error, the kernel their iterations run and the pipeline most of them iterate
// (copy in, kernel, copy out on a stream, timed by a pair of CUDA events). Each program is one translation unit that
// includes this once.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <initializer_list>

// Returns 1 from the enclosing function when `call` does not return cudaSuccess, after printing the call and the
// error on standard error.
#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        const cudaError_t status_ = (call);                                                                            \
        if (status_ != cudaSuccess) {                                                                                  \
            std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(status_));                               \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

// Each element times `factor`: the work of one iteration between its copy in and its copy out.
__global__ void scaleEach(float* data, int n, float factor)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}

// The blocks of 256 threads that cover `n` elements.
inline int blocksFor(int n) { return (n + 255) / 256; }

// Whether the first and last of `n` elements copied out hold `expected`; says which does not, on standard error.
inline bool holds(const float* data, int n, float expected, const char* who)
{
    for (const int i : { 0, n - 1 }) {
        if (data[i] != expected) {
            std::fprintf(stderr, "%s: element %d is %g, not %g\n", who, i, double(data[i]), double(expected));
            return false;
        }
    }
    return true;
}

// A positive count from the command line (argument `index`, or `fallback` where it is absent); 0 when it is given but
// is not a positive number below a million, which the program refuses with its usage.
inline int countArgument(int argc, char** argv, int index, int fallback)
{
    if (index >= argc)
        return fallback;
    char* end = nullptr;
    const long value = std::strtol(argv[index], &end, 10);
    return end != argv[index] && *end == '\0' && value > 0 && value < 1000000 ? int(value) : 0;
}

// A stream with its pinned buffers in and out, a device buffer of `n` floats and the two events that time an
// iteration on it: the pipeline of one thread or one process.
struct Pipeline {
    int n = 0;
    size_t bytes = 0;
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    float* in = nullptr;
    float* out = nullptr;
    float* device = nullptr;
    float milliseconds = 0.0f;  // the last finished iteration's time between the events
};

// Makes the pipeline's stream (with `streamFlags`), events and buffers; the input holds 1.0 everywhere.
inline int makePipeline(Pipeline& p, int n, unsigned streamFlags)
{
    p.n = n;
    p.bytes = size_t(n) * sizeof(float);
    CHECK(cudaStreamCreateWithFlags(&p.stream, streamFlags));
    CHECK(cudaEventCreate(&p.start));
    CHECK(cudaEventCreate(&p.stop));
    CHECK(cudaMallocHost(&p.in, p.bytes));
    CHECK(cudaMallocHost(&p.out, p.bytes));
    CHECK(cudaMalloc(&p.device, p.bytes));
    for (int i = 0; i < n; ++i)
        p.in[i] = 1.0f;
    return 0;
}

// Submits one iteration without waiting for it: the start event, the copy in, the kernel (times `factor`), the copy
// out and the stop event.
inline int submit(Pipeline& p, float factor)
{
    CHECK(cudaEventRecord(p.start, p.stream));
    CHECK(cudaMemcpyAsync(p.device, p.in, p.bytes, cudaMemcpyHostToDevice, p.stream));
    scaleEach<<<blocksFor(p.n), 256, 0, p.stream>>>(p.device, p.n, factor);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(p.out, p.device, p.bytes, cudaMemcpyDeviceToHost, p.stream));
    CHECK(cudaEventRecord(p.stop, p.stream));
    return 0;
}

// Waits for the submitted iteration (cudaStreamSynchronize), reads its time and checks what it copied out.
inline int finish(Pipeline& p, float factor, const char* who)
{
    CHECK(cudaStreamSynchronize(p.stream));
    CHECK(cudaEventElapsedTime(&p.milliseconds, p.start, p.stop));
    return holds(p.out, p.n, factor, who) ? 0 : 1;
}

inline int freePipeline(Pipeline& p)
{
    CHECK(cudaFree(p.device));
    CHECK(cudaFreeHost(p.out));
    CHECK(cudaFreeHost(p.in));
    CHECK(cudaEventDestroy(p.stop));
    CHECK(cudaEventDestroy(p.start));
    CHECK(cudaStreamDestroy(p.stream));
    return 0;
}
