// What a timeline or a trace calls a configuration's copies, and what it says where the data moves inside other
// spans. The Chrome trace and the window's timeline say the same.
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/run_result.hpp"

#include <string>

namespace asyncscope {

// What makes the copies of `config`: "" for the copy engines (cudaMemcpyAsync or a batch of them), "SM copy kernel"
// where a kernel copies through mapped memory, "prefetch" where managed memory's cudaMemPrefetchAsync stands for
// them. Empty too where the run has no copies.
std::string copyMechanismText(const PipelineConfig& config);

// A span's name for its kind in `config`: "H2D", "H2D (SM copy kernel)", "D2H (prefetch)", "page migration to the
// device"; "kernel", "submit", ... for the others (a runtime call's name for Api spans).
std::string spanTitle(const Span& span, const PipelineConfig& config);

// Where the run moves data with no span of its own, one sentence saying where it is; empty otherwise. Mapped memory:
// the kernel reads and writes host memory over the bus, inside its span. Managed memory migrating on demand: the
// page migrations are inside the kernel's span (and the host check's), unless `migrationsTraced` (CUPTI's
// unified-memory counters saw them: they have spans of their own).
std::string hiddenTransferNote(const PipelineConfig& config, bool migrationsTraced);

}  // namespace asyncscope
