// Engine values that travel between threads in queued signals.
#pragma once

#include "engine/model/device.hpp"
#include "engine/model/error.hpp"
#include "engine/model/run_result.hpp"
#include "engine/model/series_summary.hpp"
#include "engine/run/device_plan.hpp"
#include "engine/run/plan.hpp"

#include <QMetaType>

#include <memory>
#include <vector>

namespace asyncscope {
// Runs handed from the run thread to the GUI thread in one queued signal, with the summary of their variant's runs
// so far (this batch's included), grown on the run thread; the receiver moves them out.
struct Batch {
    RunStore runs;
    SeriesSummary summary;
};
using RunBatch = std::shared_ptr<Batch>;
}  // namespace asyncscope

Q_DECLARE_METATYPE(asyncscope::RunResult)
Q_DECLARE_METATYPE(asyncscope::Platform)
Q_DECLARE_METATYPE(asyncscope::Error)
Q_DECLARE_METATYPE(asyncscope::Plan)
Q_DECLARE_METATYPE(asyncscope::VariantResult)
Q_DECLARE_METATYPE(asyncscope::PlanReport)
Q_DECLARE_METATYPE(asyncscope::RunBatch)
Q_DECLARE_METATYPE(asyncscope::DeviceInfo)
Q_DECLARE_METATYPE(asyncscope::CpuBinding)
Q_DECLARE_METATYPE(asyncscope::DeviceResult)
Q_DECLARE_METATYPE(asyncscope::HostReport)

namespace asyncscope {
void registerMetaTypes();
}
