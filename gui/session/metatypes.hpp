// Engine values that travel between threads in queued signals.
#pragma once

#include "engine/model/device.hpp"
#include "engine/model/error.hpp"
#include "engine/model/run_result.hpp"
#include "engine/run/plan.hpp"

#include <QMetaType>

Q_DECLARE_METATYPE(asyncscope::RunResult)
Q_DECLARE_METATYPE(asyncscope::Platform)
Q_DECLARE_METATYPE(asyncscope::Error)
Q_DECLARE_METATYPE(asyncscope::Plan)
Q_DECLARE_METATYPE(asyncscope::VariantResult)
Q_DECLARE_METATYPE(asyncscope::PlanReport)

namespace asyncscope {
void registerMetaTypes();
}
