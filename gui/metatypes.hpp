// Engine values that travel between threads in queued signals.
#pragma once

#include "engine/config.hpp"
#include "engine/copy_calibration.hpp"
#include "engine/device_discovery.hpp"
#include "engine/error.hpp"
#include "engine/run_result.hpp"
#include "engine/series_runner.hpp"

#include <QMetaType>

Q_DECLARE_METATYPE(asyncscope::PipelineConfig)
Q_DECLARE_METATYPE(asyncscope::RunResult)
Q_DECLARE_METATYPE(asyncscope::Platform)
Q_DECLARE_METATYPE(asyncscope::Error)
Q_DECLARE_METATYPE(asyncscope::SeriesOutcome)
Q_DECLARE_METATYPE(asyncscope::DeviceInfo)
Q_DECLARE_METATYPE(asyncscope::CopyPeak)

namespace asyncscope {
void registerMetaTypes();
}
