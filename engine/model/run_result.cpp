#include "engine/model/run_result.hpp"

#include <algorithm>
#include <tuple>

namespace asyncscope {

void queueCopiesByDirection(std::vector<Span>& spans)
{
    std::vector<Span*> copies;
    for (Span& s : spans) {
        if (s.kind == SpanKind::H2D || s.kind == SpanKind::D2H)
            copies.push_back(&s);
    }
    // By device and direction, in the order the copies ended: each one's engine was free once the one before ended.
    std::sort(copies.begin(), copies.end(), [](const Span* a, const Span* b) {
        return std::tie(a->device, a->kind, a->endMs) < std::tie(b->device, b->kind, b->endMs);
    });
    const Span* before = nullptr;
    for (Span* s : copies) {
        if (before && before->device == s->device && before->kind == s->kind)
            s->beginMs = std::clamp(before->endMs, s->beginMs, s->endMs);
        before = s;
    }
}

bool RunResult::has(SpanKind kind) const
{
    for (const Span& s : spans) {
        if (s.kind == kind)
            return true;
    }
    return false;
}

double RunResult::totalMs(SpanKind kind) const
{
    double ms = 0.0;
    for (const Span& s : spans) {
        if (s.kind == kind)
            ms += s.ms();
    }
    return ms;
}

bool RunResult::copiesOverlapKernels() const
{
    for (const Span& copy : spans) {
        if (copy.kind != SpanKind::H2D && copy.kind != SpanKind::D2H)
            continue;
        for (const Span& kernel : spans)
            if (kernel.kind == SpanKind::Kernel && copy.beginMs < kernel.endMs && kernel.beginMs < copy.endMs)
                return true;
    }
    return false;
}

std::uint64_t RunResult::totalBytes(SpanKind kind) const
{
    std::uint64_t bytes = 0;
    for (const Span& s : spans) {
        if (s.kind == kind)
            bytes += s.bytes;
    }
    return bytes;
}

std::vector<Span> serialSpans(int device, const SerialDurations& d)
{
    std::vector<Span> spans;
    double gpuAt = 0.0;
    const std::pair<SpanKind, double> gpu[] = { { SpanKind::H2D, d.h2dMs }, { SpanKind::Kernel, d.kernelMs },
        { SpanKind::D2H, d.d2hMs } };
    for (const auto& [kind, ms] : gpu) {
        if (ms < 0.0)
            continue;
        const std::uint64_t bytes = kind == SpanKind::Kernel ? 2 * d.bytes : d.bytes;
        spans.push_back({ kind, device, 0, 0, bytes, gpuAt, gpuAt + ms });
        gpuAt += ms;
    }
    double cpuAt = 0.0;
    for (const auto& [kind, ms] : { std::pair { SpanKind::Submit, d.submitMs }, std::pair { SpanKind::Wait, d.waitMs } }) {
        if (ms < 0.0)
            continue;
        spans.push_back({ kind, device, 0, 0, 0, cpuAt, cpuAt + ms });
        cpuAt += ms;
    }
    return spans;
}

}  // namespace asyncscope
