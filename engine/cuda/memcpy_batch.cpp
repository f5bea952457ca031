#include "engine/cuda/memcpy_batch.hpp"

#include "engine/cuda/cuda_error.hpp"

#include <numeric>

namespace asyncscope {

Error batchUnavailable(int runtimeVersion, const std::string& driverReason)
{
    std::string detail = "batch submission is not available with CUDA runtime " + formatCudaVersion(runtimeVersion);
    if (driverReason.empty())
        detail += " (cudaMemcpyBatchAsync needs " + formatCudaVersion(kMemcpyBatchRuntime) + ")";
    else
        detail += ": " + driverReason;
    return makeError(ErrorKind::Unsupported, std::move(detail),
        driverReason.empty() ? "Choose stream or graph submission, or use a build of CUDA " +
                formatCudaVersion(kMemcpyBatchRuntime) + " or newer."
                             : "Choose stream or graph submission, or update the NVIDIA driver.");
}

Error memcpyBatchFailure(cudaError_t status)
{
    if (status != cudaErrorNotSupported && status != cudaErrorCallRequiresNewerDriver)
        return cudaFailure("cudaMemcpyBatchAsync", status);
    static_cast<void>(cudaGetLastError());  // reported now: not for the next launch check to find
    const CudaVersions versions = queryCudaVersions();
    Error error = batchUnavailable(versions.runtime,
        "the driver (CUDA " + formatCudaVersion(versions.driver) + ") answered cudaMemcpyBatchAsync with \"" +
            cudaGetErrorString(status) + "\"");
    error.code = static_cast<int>(status);
    error.codeName = cudaGetErrorName(status);
    return error;
}

Status memcpyBatchBuilt()
{
#if CUDART_VERSION >= 12080
    return std::nullopt;
#else
    return batchUnavailable(CUDART_VERSION);
#endif
}

MemcpyBatch::MemcpyBatch(bool preferOverlap)
{
#if CUDART_VERSION >= 12080
    m_attrs.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    m_attrs.flags = preferOverlap ? cudaMemcpyFlagPreferOverlapWithCompute : cudaMemcpyFlagDefault;
#else
    static_cast<void>(preferOverlap);
#endif
}

void MemcpyBatch::add(void* dst, const void* src, std::size_t bytes)
{
    m_dsts.push_back(dst);
    m_srcs.push_back(const_cast<void*>(src));  // CUDA 12.8's signature takes sources as void**; nothing writes them
    m_sizes.push_back(bytes);
}

std::uint64_t MemcpyBatch::bytes() const
{
    return std::accumulate(m_sizes.begin(), m_sizes.end(), std::uint64_t(0));
}

Status MemcpyBatch::submit(cudaStream_t stream) const
{
    if (m_sizes.empty())
        return std::nullopt;
    if (stream == nullptr || stream == cudaStreamLegacy)
        return makeError(ErrorKind::Usage, "a batch of copies cannot go on the legacy default stream",
            "Submit batches on a stream of their own.");
#if CUDART_VERSION >= 13000
    const cudaError_t status = cudaMemcpyBatchAsync(m_dsts.data(), m_srcs.data(), m_sizes.data(), m_sizes.size(),
        &m_attrs, &m_attrsIndex, 1, stream);
#elif CUDART_VERSION >= 12080
    std::size_t failIndex = 0;
    const cudaError_t status = cudaMemcpyBatchAsync(const_cast<void**>(m_dsts.data()),
        const_cast<void**>(m_srcs.data()), const_cast<std::size_t*>(m_sizes.data()), m_sizes.size(), &m_attrs,
        &m_attrsIndex, 1, &failIndex, stream);
#endif
#if CUDART_VERSION >= 12080
    if (status != cudaSuccess)
        return memcpyBatchFailure(status);
    return std::nullopt;
#else
    static_cast<void>(stream);
    return batchUnavailable(CUDART_VERSION);
#endif
}

}  // namespace asyncscope
