#include "engine/model/batch_order.hpp"

#include <algorithm>

namespace asyncscope {

namespace {

std::vector<int> chunksOf(int stream, int chunks, int streams)
{
    std::vector<int> own;
    for (int chunk = stream; chunk < chunks; chunk += streams)
        own.push_back(chunk);
    return own;
}

}  // namespace

std::vector<BatchStep> batchOrder(int chunks, int streams, IssueOrder order)
{
    std::vector<BatchStep> steps;
    if (chunks < 1 || streams < 1)
        return steps;
    const int used = std::min(chunks, streams);
    auto batch = [&](int stage, int stream) { steps.push_back({ stage, stream, chunksOf(stream, chunks, streams) }); };
    auto kernel = [&](int chunk) { steps.push_back({ 1, chunk % streams, { chunk } }); };
    if (order == IssueOrder::ByChunk) {
        for (int stream = 0; stream < used; ++stream) {
            batch(0, stream);
            for (int chunk = stream; chunk < chunks; chunk += streams)
                kernel(chunk);
            batch(2, stream);
        }
    } else {
        for (int stream = 0; stream < used; ++stream)
            batch(0, stream);
        for (int chunk = 0; chunk < chunks; ++chunk)
            kernel(chunk);
        for (int stream = 0; stream < used; ++stream)
            batch(2, stream);
    }
    return steps;
}

}  // namespace asyncscope
