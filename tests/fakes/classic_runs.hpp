// Invented series of the classic pipeline (one stream, one chunk, stage events, overlapped check) as the pipeline
// records them: full-precision times, the six spans every run carries, a warm-up run first. For the big-file tests
// and the load benchmark. Test code only.
#pragma once

#include "engine/model/report.hpp"

#include <cstddef>
#include <cstdint>

namespace asyncscope::testing {

// A small deterministic generator: the same series every time, with times whose digits look measured.
class Jitter {
public:
    explicit Jitter(std::uint64_t seed) : m_state(seed * 0x9E3779B97F4A7C15ull + 1) {}
    double next()  // in [0, 1)
    {
        m_state ^= m_state << 13;
        m_state ^= m_state >> 7;
        m_state ^= m_state << 17;
        return double(m_state >> 11) * (1.0 / 9007199254740992.0);
    }

private:
    std::uint64_t m_state;
};

// A host clock reading in ms, as the pipeline takes it: whole nanoseconds.
inline double hostMs(double ms)
{
    return double(std::int64_t(ms * 1e6)) / 1e6;
}

// Run i of classicReport(n): what a reader must give back.
inline RunResult classicRun(int i, const PipelineConfig& config)
{
    Jitter j(std::uint64_t(i) + 1);
    RunResult run;
    run.index = i;
    run.warmup = i == 0;
    run.startMs = i == 0 ? 0.0 : hostMs(2.6 * i + 0.01 * j.next());
    const double h2d = 1.19 + 0.05 * j.next(), kernel = 0.061 + 0.01 * j.next(), d2h = 1.2 + 0.05 * j.next();
    const double submit = hostMs(0.015 + 0.01 * j.next());
    run.gpuMs = float(h2d + kernel + d2h + 0.001 * j.next());  // event times are floats, widened
    const double wait = hostMs(run.gpuMs + 0.02 * j.next());
    run.pollIterations = std::uint64_t(30000 + 20000 * j.next());
    run.waitCpuMs = hostMs(wait * (0.95 + 0.05 * j.next()));
    run.expectedValue = config.value * (i + 1);
    run.verified = true;
    const std::uint64_t bytes = config.bytes();
    run.spans = { { SpanKind::H2D, config.device, 0, 0, bytes, 0.0, double(float(h2d)) },
        { SpanKind::Kernel, config.device, 0, 0, 2 * bytes, double(float(h2d)), double(float(h2d + kernel)) },
        { SpanKind::D2H, config.device, 0, 0, bytes, double(float(h2d + kernel)), run.gpuMs },
        { SpanKind::Submit, config.device, 0, 0, 0, 0.0, submit },
        { SpanKind::Wait, config.device, 0, 0, 0, submit, hostMs(submit + wait) },
        { SpanKind::Check, config.device, 0, 0, bytes, hostMs(submit + wait + 0.004 * j.next()),
            hostMs(submit + wait + 2.0 + 0.3 * j.next()) } };
    return run;
}

inline Report classicReport(std::size_t runs)
{
    Report r;
    r.device.index = 0;
    r.device.name = "NVIDIA H200";
    r.device.computeMajor = 9;
    r.device.multiprocessors = 132;
    r.device.totalMemoryBytes = std::size_t(140) << 30;
    r.device.uuid = "GPU-01234567-89ab-cdef-0123-456789abcdef";
    r.device.pciBusId = "0000:19:00.0";
    r.device.asyncEngineCount = 3;
    r.device.clockKHz = 1980000;
    r.driverVersion = 13000;
    r.runtimeVersion = 13000;
    r.config.runs = int(runs) - 1;
    r.config.warmupRuns = 1;
    r.runs.reserve(runs);
    for (std::size_t i = 0; i < runs; ++i)
        r.runs.push_back(classicRun(int(i), r.config));
    r.outcome.emplace();
    r.outcome->measuredRuns = r.config.runs;
    r.outcome->noisePercent = 0.28;
    return r;
}

}  // namespace asyncscope::testing
