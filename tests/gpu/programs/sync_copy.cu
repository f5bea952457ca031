// record-sync-copy: iterations made of synchronous calls only, as a program that never names a stream is written: 20
// iterations of cudaMemcpy from pageable memory (malloc) to the device, a kernel on the default stream, and cudaMemcpy
// back to pageable memory, which returns once the copy is done (there is no explicit synchronisation). A pair of CUDA
// events on the default stream brackets each iteration; their times are read once the last iteration is done (reading
// one earlier would wait on the GPU) and printed as "iteration I: X.XXX ms".
#include "program_common.cuh"

int main()
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    constexpr int iterations = 20;
    const int n = 1 << 22;
    const size_t bytes = size_t(n) * sizeof(float);
    float* in = static_cast<float*>(std::malloc(bytes));
    float* out = static_cast<float*>(std::malloc(bytes));
    if (in == nullptr || out == nullptr) {
        std::fprintf(stderr, "record-sync-copy: no host memory for two buffers of %zu bytes\n", bytes);
        return 1;
    }
    for (int i = 0; i < n; ++i)
        in[i] = 1.0f;
    float* device = nullptr;
    CHECK(cudaMalloc(&device, bytes));
    cudaEvent_t start[iterations];
    cudaEvent_t stop[iterations];
    for (int i = 0; i < iterations; ++i) {
        CHECK(cudaEventCreate(&start[i]));
        CHECK(cudaEventCreate(&stop[i]));
    }
    std::printf("record-sync-copy: %d iterations of %zu KiB, pageable memory, synchronous copies\n", iterations,
        bytes >> 10);
    for (int i = 0; i < iterations; ++i) {
        CHECK(cudaEventRecord(start[i], 0));
        CHECK(cudaMemcpy(device, in, bytes, cudaMemcpyHostToDevice));
        scaleEach<<<blocksFor(n), 256>>>(device, n, 2.0f);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(out, device, bytes, cudaMemcpyDeviceToHost));
        CHECK(cudaEventRecord(stop[i], 0));
        if (!holds(out, n, 2.0f, "record-sync-copy"))
            return 1;
    }
    CHECK(cudaEventSynchronize(stop[iterations - 1]));
    for (int i = 0; i < iterations; ++i) {
        float ms = 0.0f;
        CHECK(cudaEventElapsedTime(&ms, start[i], stop[i]));
        std::printf("iteration %d: %.3f ms\n", i + 1, double(ms));
    }
    for (int i = 0; i < iterations; ++i) {
        CHECK(cudaEventDestroy(start[i]));
        CHECK(cudaEventDestroy(stop[i]));
    }
    CHECK(cudaFree(device));
    std::free(out);
    std::free(in);
    return 0;
}
