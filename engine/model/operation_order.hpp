// The order a run issues its operations in: every chunk's H2D copy, kernel and D2H copy, chunk after chunk or stage
// after stage. The pipeline issues them in this order and reads their events back in it.
#pragma once

#include "engine/model/config.hpp"

namespace asyncscope {

// Stage 0 is a chunk's H2D copy, 1 its kernel, 2 its D2H copy; operation 3 * chunk + stage in a run's lists.
inline constexpr int kStages = 3;

// Calls op(chunk, stage) for every operation of a run of `chunks` chunks, in the order `order` issues them.
template <class Op>
void forEachOperation(int chunks, IssueOrder order, Op op)
{
    if (order == IssueOrder::ByChunk) {
        for (int chunk = 0; chunk < chunks; ++chunk) {
            for (int stage = 0; stage < kStages; ++stage)
                op(chunk, stage);
        }
    } else {
        for (int stage = 0; stage < kStages; ++stage) {
            for (int chunk = 0; chunk < chunks; ++chunk)
                op(chunk, stage);
        }
    }
}

}  // namespace asyncscope
