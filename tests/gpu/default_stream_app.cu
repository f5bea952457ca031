// A program for the recorder's GPU tests (tests/gpu/record_gpu_test.cpp), written for them: each of its 20
// iterations copies in on a stream of its own (made with cudaStreamCreate: blocking), runs a kernel on the default
// stream, copies out on its stream and waits for it. Built as the legacy default stream has it, the kernel waits for
// the stream and the stream for the kernel; built with nvcc --default-stream per-thread, the kernel goes to the
// thread's own default stream, which waits for nothing. tests/gpu/build_samples.sh builds both (default_stream,
// default_stream_per_thread).
#include <cstdio>

__global__ void doubleEach(float* data, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= 2.0f;
}

#define CHECK(call)                                                                                    \
    do {                                                                                               \
        const cudaError_t status = (call);                                                             \
        if (status != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(status));                \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

int main()
{
    const int n = 1 << 22;
    const size_t bytes = n * sizeof(float);
    float* host = nullptr;
    float* device = nullptr;
    cudaStream_t stream;
    CHECK(cudaMallocHost(&host, bytes));
    CHECK(cudaMalloc(&device, bytes));
    CHECK(cudaStreamCreate(&stream));
    for (int i = 0; i < n; ++i)
        host[i] = 1.0f;
    for (int iteration = 0; iteration < 20; ++iteration) {
        CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream));
        doubleEach<<<(n + 255) / 256, 256>>>(device, n);  // the default stream
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream));
        CHECK(cudaStreamSynchronize(stream));
    }
    CHECK(cudaDeviceSynchronize());
    std::printf("default_stream_app: 20 iterations, host[0] = %.0f\n", host[0]);
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(device));
    CHECK(cudaFreeHost(host));
    return 0;
}
