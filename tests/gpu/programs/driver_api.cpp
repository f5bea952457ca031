// record-driver-api: a program that uses the CUDA driver API only, as a framework with its own runtime does; it links
// no CUDA runtime. It retains the device's primary context and makes it current, loads its kernel from a fatbin
// embedded at build time (driver_kernel.cu), and runs 20 iterations of cuMemcpyHtoDAsync from pinned memory,
// cuLaunchKernel and cuMemcpyDtoHAsync on a stream of its own, then cuStreamSynchronize. Each iteration is timed by a
// pair of cuEventRecord calls around it and printed (cuEventElapsedTime) as "iteration I: X.XXX ms".
#include "record_driver_kernel.h"

#include <cuda.h>

#include <cstddef>
#include <cstdio>

// Returns 1 from main when `call` does not return CUDA_SUCCESS, after printing the call and the error.
#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        const CUresult status_ = (call);                                                                               \
        if (status_ != CUDA_SUCCESS) {                                                                                 \
            const char* name_ = nullptr;                                                                               \
            const char* text_ = nullptr;                                                                               \
            cuGetErrorName(status_, &name_);                                                                           \
            cuGetErrorString(status_, &text_);                                                                         \
            std::fprintf(stderr, "%s failed: %s (%s)\n", #call, name_ ? name_ : "unknown error",                       \
                text_ ? text_ : "no description");                                                                     \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

int main()
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    int n = 1 << 22;
    const std::size_t bytes = std::size_t(n) * sizeof(float);
    float factor = 2.0f;
    CUdevice device;
    CUcontext context;
    CUmodule module;
    CUfunction function;
    CUstream stream;
    CUevent start;
    CUevent stop;
    CUdeviceptr buffer;
    void* in = nullptr;
    void* out = nullptr;
    char name[256] = {};
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&device, 0));
    CHECK(cuDeviceGetName(name, int(sizeof name), device));
    CHECK(cuDevicePrimaryCtxRetain(&context, device));
    CHECK(cuCtxSetCurrent(context));
    CHECK(cuModuleLoadData(&module, kRecordDriverKernel));
    CHECK(cuModuleGetFunction(&function, module, "scaleEach"));
    CHECK(cuMemAlloc(&buffer, bytes));
    CHECK(cuMemAllocHost(&in, bytes));
    CHECK(cuMemAllocHost(&out, bytes));
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    float* input = static_cast<float*>(in);
    float* output = static_cast<float*>(out);
    for (int i = 0; i < n; ++i)
        input[i] = 1.0f;
    std::printf("record-driver-api: %s, 20 iterations of %zu KiB through the driver API\n", name, bytes >> 10);
    void* arguments[] = { &buffer, &n, &factor };
    const unsigned blocks = unsigned((n + 255) / 256);
    for (int iteration = 1; iteration <= 20; ++iteration) {
        output[0] = output[n - 1] = 0.0f;
        CHECK(cuEventRecord(start, stream));
        CHECK(cuMemcpyHtoDAsync(buffer, in, bytes, stream));
        CHECK(cuLaunchKernel(function, blocks, 1, 1, 256, 1, 1, 0, stream, arguments, nullptr));
        CHECK(cuMemcpyDtoHAsync(out, buffer, bytes, stream));
        CHECK(cuEventRecord(stop, stream));
        CHECK(cuStreamSynchronize(stream));
        float ms = 0.0f;
        CHECK(cuEventElapsedTime(&ms, start, stop));
        if (output[0] != factor || output[n - 1] != factor) {
            std::fprintf(stderr, "record-driver-api: iteration %d copied back %g and %g, not %g\n", iteration,
                double(output[0]), double(output[n - 1]), double(factor));
            return 1;
        }
        std::printf("iteration %d: %.3f ms\n", iteration, double(ms));
    }
    CHECK(cuEventDestroy(stop));
    CHECK(cuEventDestroy(start));
    CHECK(cuStreamDestroy(stream));
    CHECK(cuMemFreeHost(out));
    CHECK(cuMemFreeHost(in));
    CHECK(cuMemFree(buffer));
    CHECK(cuModuleUnload(module));
    CHECK(cuDevicePrimaryCtxRelease(device));
    return 0;
}
