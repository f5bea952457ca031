#include "gui/session/metatypes.hpp"

namespace asyncscope {

void registerMetaTypes()
{
    qRegisterMetaType<RunResult>();
    qRegisterMetaType<Platform>();
    qRegisterMetaType<Error>();
    qRegisterMetaType<Plan>();
    qRegisterMetaType<VariantResult>();
    qRegisterMetaType<PlanReport>();
    qRegisterMetaType<RunBatch>();
    qRegisterMetaType<DeviceInfo>();
    qRegisterMetaType<CpuBinding>();
    qRegisterMetaType<DeviceResult>();
    qRegisterMetaType<HostReport>();
}

}  // namespace asyncscope
