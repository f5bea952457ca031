#include "engine/model/trace_labels.hpp"

namespace asyncscope {

std::string copyMechanismText(const PipelineConfig& config)
{
    if (!hasCopies(config))
        return {};
    if (copiesArePrefetches(config))
        return "prefetch";
    return config.copy == CopyMechanism::Sm ? "SM copy kernel" : "";
}

std::string spanTitle(const Span& span, const PipelineConfig& config)
{
    const auto copy = [&](const char* direction) {
        const std::string mechanism = copyMechanismText(config);
        return mechanism.empty() ? std::string(direction) : std::string(direction) + " (" + mechanism + ")";
    };
    switch (span.kind) {
    case SpanKind::H2D: return copy("H2D");
    case SpanKind::D2H: return copy("D2H");
    case SpanKind::Kernel: return "kernel";
    case SpanKind::Submit: return "submit";
    case SpanKind::Wait: return "wait";
    case SpanKind::Check: return "check";
    case SpanKind::Api: return nameOf(span.call);
    case SpanKind::MigrateH2D: return "page migration to the device";
    case SpanKind::MigrateD2H: return "page migration to the host";
    }
    return "span";
}

std::string hiddenTransferNote(const PipelineConfig& config, bool migrationsTraced)
{
    if (config.hostMemory == HostMemory::Mapped)
        return "Mapped memory is not copied: the kernel reads and writes host memory over the bus, inside its "
               "span.";
    if (config.hostMemory == HostMemory::Managed && config.managedMigration == ManagedMigration::OnDemand &&
        !migrationsTraced)
        return "Managed memory migrates on demand: the page migrations to the device are inside the kernel's span, "
               "those back to the host inside the host check's (with CUPTI as the trace source they have a row of "
               "their own, where CUPTI records them).";
    return {};
}

}  // namespace asyncscope
