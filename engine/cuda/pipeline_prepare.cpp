#include "engine/cuda/pipeline.hpp"

#include "engine/cuda/pipeline_resources.hpp"

#include <utility>

namespace asyncscope {

// Batch submission's setup (open() has checked the combination): the steps, every copy's pointers and size for both host buffers, and one real batch, so
// that a runtime or driver without cudaMemcpyBatchAsync answers now, before the first run, as Unsupported. The
// stage events a batched run needs (2 per stream and 1 per chunk) are fewer than the 3 per chunk open() makes.
Status PipelineSession::Resources::prepareBatches()
{
    if (auto unbuilt = memcpyBatchBuilt())
        return unbuilt;
    batchSteps = batchOrder(config.chunks, static_cast<int>(streams.size()), config.order);
    batches.clear();
    for (std::size_t buffer = 0; buffer < 2; ++buffer) {
        PreparedBatches prepared { host(buffer), {} };
        prepared.steps.reserve(batchSteps.size());
        for (const BatchStep& step : batchSteps) {
            MemcpyBatch batch(config.preferOverlap);
            for (std::size_t i = 0; step.isCopy() && i < step.chunks.size(); ++i) {
                const ChunkRange range = chunks[static_cast<std::size_t>(step.chunks[i])];
                int* const onDevice = device.get() + range.first;
                int* const onHost = host(buffer) + range.first;
                const std::size_t bytes = range.count * sizeof(int);
                if (step.stage == 0)
                    batch.add(onDevice, onHost, bytes);
                else
                    batch.add(onHost, onDevice, bytes);
            }
            prepared.steps.push_back(std::move(batch));
        }
        batches.push_back(std::move(prepared));
    }
    // The first H2D batch from the first buffer (zeros): the device buffer is overwritten before every run anyway.
    const cudaStream_t probe = streams[static_cast<std::size_t>(batchSteps.front().stream)].get();
    if (auto failed = batches.front().steps.front().submit(probe))
        return failed;
    ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(probe));
    return std::nullopt;
}

// Captures one run from host buffer `buffer` into `graph`. The capture is always ended, so a failure leaves the
// stream usable.
Status PipelineSession::Resources::capture(std::size_t buffer, Graph& graph)
{
    ASYNCSCOPE_CUDA_TRY(cudaStreamBeginCapture(mainStream(), cudaStreamCaptureModeThreadLocal));
    capturing = true;
    Status failed = enqueue(host(buffer));
    capturing = false;
    cudaGraph_t captured = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(mainStream(), &captured);
    graph.reset(captured);
    if (ended != cudaSuccess && !failed)
        failed = cudaFailure("cudaStreamEndCapture", ended);
    else if (ended != cudaSuccess)  // the echo of the failure reported: not for this thread's next launch check
        static_cast<void>(cudaGetLastError());
    if (failed) {
        failed->detail = "could not capture the run into a CUDA Graph: " + failed->detail;
        failed = graphRefused(std::move(*failed));
    }
    return failed;
}

Status PipelineSession::Resources::buildGraphs()
{
    graphs.clear();
    for (std::size_t buffer = 0; buffer < 2; ++buffer) {
        Graph graph;
        if (auto failed = capture(buffer, graph))
            return failed;
        cudaGraphExec_t exec = nullptr;
        if (const cudaError_t status = cudaGraphInstantiate(&exec, graph.get(), 0); status != cudaSuccess) {
            Error failure = cudaFailure("cudaGraphInstantiate", status);
            failure.detail = "could not instantiate the run's CUDA Graph: " + failure.detail;
            return graphRefused(std::move(failure));
        }
        graphs.emplace_back(exec);
        ASYNCSCOPE_CUDA_TRY(cudaGraphUpload(exec, mainStream()));  // the first launch's setup, paid here
    }
    ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(mainStream()));
    return std::nullopt;
}

Result<PipelineSession::ValueChange> PipelineSession::setValue(int value)
{
    if (m->pending)
        return makeError(ErrorKind::Usage, "the value cannot change while a run is being checked");
    ASYNCSCOPE_CUDA_TRY(cudaSetDevice(m->config.device));
    m->config.value = value;
    if (m->config.submission != Submission::Graph)
        return ValueChange::NoGraph;
    ValueChange change = ValueChange::Updated;
    for (std::size_t buffer = 0; buffer < m->graphs.size(); ++buffer) {
        Graph graph;
        if (auto failed = m->capture(buffer, graph))
            return *failed;
        cudaGraphExecUpdateResultInfo info {};
        if (cudaGraphExecUpdate(m->graphs[buffer].get(), graph.get(), &info) == cudaSuccess)
            continue;
        static_cast<void>(cudaGetLastError());  // the update was refused: instantiate the new graph instead
        change = ValueChange::Reinstantiated;
        cudaGraphExec_t exec = nullptr;
        ASYNCSCOPE_CUDA_TRY(cudaGraphInstantiate(&exec, graph.get(), 0));
        m->graphs[buffer].reset(exec);
        ASYNCSCOPE_CUDA_TRY(cudaGraphUpload(exec, m->mainStream()));
    }
    ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(m->mainStream()));
    return change;
}

}  // namespace asyncscope
