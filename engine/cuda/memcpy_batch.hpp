// Copies handed to the copy engines in one cudaMemcpyBatchAsync call (CUDA 12.8 and later), their arrays prepared
// once and submitted as often as asked: the cheapest way to give a stream many copies.
#pragma once

#include "engine/model/error.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace asyncscope {

// The CUDA runtime that brought cudaMemcpyBatchAsync (12.8).
inline constexpr int kMemcpyBatchRuntime = 12080;

// ErrorKind::Unsupported: "batch submission is not available with CUDA runtime 12.6 (cudaMemcpyBatchAsync needs
// 12.8)", or, where the driver gave its own answer (`driverReason`), that answer.
Error batchUnavailable(int runtimeVersion, const std::string& driverReason = {});

// A cudaMemcpyBatchAsync that failed, as an Error. Where the runtime or the driver answers that it lacks the call
// (cudaErrorNotSupported, cudaErrorCallRequiresNewerDriver) the batch cannot run here at all: ErrorKind::Unsupported,
// with the driver's reason. Any other answer is the usual CUDA error.
Error memcpyBatchFailure(cudaError_t status);

// Whether this build can submit batches at all: Unsupported when its CUDA runtime predates the call.
Status memcpyBatchBuilt();

class MemcpyBatch {
public:
    // Every copy is read in stream order (cudaMemcpySrcAccessOrderStream: the copies may follow other work on the
    // stream that writes their sources); `preferOverlap` asks for cudaMemcpyFlagPreferOverlapWithCompute, a hint.
    explicit MemcpyBatch(bool preferOverlap = false);

    void add(void* dst, const void* src, std::size_t bytes);
    std::size_t size() const { return m_sizes.size(); }
    std::uint64_t bytes() const;

    // Enqueues every copy on `stream` with one call. The legacy default stream is refused (ErrorKind::Usage) without
    // a call: cudaMemcpyBatchAsync does not take it. An empty batch enqueues nothing.
    Status submit(cudaStream_t stream) const;

private:
    std::vector<void*> m_dsts;
    std::vector<void*> m_srcs;
    std::vector<std::size_t> m_sizes;
#if CUDART_VERSION >= 12080
    // One set of attributes for every copy. The call takes them through non-const pointers without writing them.
    mutable cudaMemcpyAttributes m_attrs {};
    mutable std::size_t m_attrsIndex = 0;
#endif
};

}  // namespace asyncscope
