// Benchmark (not a test): CUDA events against CUPTI as the timeline's source, on one GPU. For the classic pipeline
// and for K = 16 chunks over S = 4 streams it prints:
//   1. per operation kind, the median of |CUPTI duration - event duration| over every operation of every run that
//      CUPTI traced (the same runs carry both: events time every run, CUPTI records it as well). An event span
//      begins where the operation before it on its stream ended (or the copy before it the same way), so it also
//      holds the GPU's gap between the two; CUPTI's begins when the operation does. So it prints that gap as CUPTI
//      saw it, and what is left of the difference once the gap is counted in: |events - (CUPTI + gap)|. The median
//      is the typical operation; p95 and the maximum are printed too;
//   2. the median GPU time with CUPTI recording against events alone, from interleaved blocks of runs;
//   3. CPU submit time both ways (CUPTI records every runtime call) and the runtime calls CUPTI saw per run;
//   4. with ASYNCSCOPE_CUPTI_OVERHEAD=1, CUPTI's overhead records by kind;
// and every element of every run checked. Without CUPTI (not found, or held by another profiler) it says why.
// The ASYNCSCOPE_CUPTI_* settings (engine/cuda/cupti_trace.cpp) are printed as the environment has them.
// Usage: asyncscope_bench_trace_source [runs per block] [blocks]
#include "engine/cuda/cupti_trace.hpp"
#include "engine/cuda/pipeline.hpp"
#include "engine/model/statistics.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace asyncscope;

namespace {

struct Samples {
    std::vector<double> gpuMs, submitMs;
    std::map<SpanKind, std::vector<double>> differenceUs;  // |CUPTI - events| per operation, µs
    std::map<SpanKind, std::vector<double>> gapUs;         // CUPTI: from the end of what the operation followed
    std::map<SpanKind, std::vector<double>> residualUs;    // |events - (CUPTI + gap)|
    std::vector<double> apiCalls;
    int runs = 0, wrong = 0;
    std::string note;
};

// One block of `runs` measured runs (after two warm-up runs) in a session of its own, added to `into`.
Status block(PipelineConfig config, TraceSource source, int runs, Samples& into)
{
    config.traceSource = source;
    auto session = PipelineSession::open(config);
    if (!session)
        return session.error();
    into.note = (*session)->traceNote();
    for (int i = 0; i < runs + 2; ++i) {
        auto run = (*session)->run(i, i < 2);
        if (!run)
            return run.error();
        ++into.runs;
        into.wrong += run->verified ? 0 : 1;
        if (run->warmup)
            continue;
        into.gpuMs.push_back(run->gpuMs);
        into.submitMs.push_back(run->cpuSubmitMs());
        if (run->traced.empty())
            continue;
        int calls = 0;
        for (const Span& traced : run->traced) {
            if (traced.kind == SpanKind::Api) {
                ++calls;
                continue;
            }
            // What the operation followed, as the event spans count it: the one before it on its stream, and for a
            // copy the copy before it the same way. The run's first operation follows the start event, which CUPTI
            // does not see: it has no gap.
            std::optional<double> after;
            for (const Span& other : run->traced) {
                const bool before = onGpu(other.kind) && other.endMs <= traced.beginMs + 1e-6 && &other != &traced;
                const bool sameStream = other.stream == traced.stream;
                const bool sameWay = traced.kind != SpanKind::Kernel && other.kind == traced.kind;
                if (before && (sameStream || sameWay))
                    after = std::max(after.value_or(other.endMs), other.endMs);
            }
            for (const Span& timed : run->spans) {
                if (timed.kind != traced.kind || timed.chunk != traced.chunk)
                    continue;
                into.differenceUs[traced.kind].push_back(std::abs(traced.ms() - timed.ms()) * 1000.0);
                if (after) {
                    const double gap = traced.beginMs - *after;
                    into.gapUs[traced.kind].push_back(gap * 1000.0);
                    into.residualUs[traced.kind].push_back(std::abs(timed.ms() - (traced.ms() + gap)) * 1000.0);
                }
            }
        }
        into.apiCalls.push_back(calls);
    }
    return std::nullopt;
}

double median(const std::vector<double>& v)
{
    return v.empty() ? 0.0 : summarize(v).median;
}

}  // namespace

int main(int argc, char** argv)
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 100;
    const int blocks = argc > 2 ? std::atoi(argv[2]) : 4;
    if (runs < 1 || blocks < 1) {
        std::fprintf(stderr, "usage: asyncscope_bench_trace_source [runs per block >= 1] [blocks >= 1]\n");
        return 2;
    }
    std::printf("CUPTI settings:");
    for (const char* name : { "ASYNCSCOPE_CUPTI_FLUSH", "ASYNCSCOPE_CUPTI_OVERHEAD" }) {
        const char* value = std::getenv(name);
        std::printf(" %s=%s", name, value ? value : "(unset)");
    }
    std::printf("\n");
    int wrong = 0, total = 0;
    for (const auto& [chunks, streams] : { std::pair { 1, 1 }, std::pair { 16, 4 } }) {
        PipelineConfig config;
        config.chunks = chunks;
        config.streams = streams;
        Samples events, cupti;
        for (int b = 0; b < blocks; ++b) {  // interleaved, so drift in clocks or temperature hits both alike
            for (auto [source, into] : { std::pair { TraceSource::Events, &events }, std::pair { TraceSource::Cupti, &cupti } }) {
                if (auto failed = block(config, source, runs, *into)) {
                    std::fprintf(stderr, "K = %d, S = %d: %s\n", chunks, streams, failed->message().c_str());
                    return 1;
                }
            }
        }
        wrong += events.wrong + cupti.wrong;
        total += events.runs + cupti.runs;
        std::printf("K = %d, S = %d, 64 MiB, %d blocks of %d runs each way\n", chunks, streams, blocks, runs);
        if (!cupti.note.empty()) {
            std::printf("  CUPTI not used: %s\n", cupti.note.c_str());
            continue;
        }
        auto line = [](const char* what, SpanKind kind, const std::vector<double>& us) {
            if (us.empty())
                return;
            const Summary s = summarize(us);
            std::printf("  %-6s %-28s median %8.3f us, p95 %8.3f us, max %8.3f us (%zu operations)\n",
                std::string(nameOf(kind)).c_str(), what, s.median, s.p95, s.max, us.size());
        };
        for (const auto& [kind, differences] : cupti.differenceUs) {
            line("|CUPTI - events|", kind, differences);
            line("gap before it (CUPTI)", kind, cupti.gapUs[kind]);
            line("|events - (CUPTI + gap)|", kind, cupti.residualUs[kind]);
        }
        const double gpuEvents = median(events.gpuMs), gpuCupti = median(cupti.gpuMs);
        std::printf("  median GPU time: events alone %.4f ms, CUPTI recording %.4f ms, ratio %.4f\n", gpuEvents,
            gpuCupti, gpuCupti / gpuEvents);
        std::printf("  median CPU submit time: events alone %.4f ms, CUPTI recording %.4f ms\n",
            median(events.submitMs), median(cupti.submitMs));
        std::printf("  runtime calls CUPTI recorded per run (polls left out): median %.0f\n", median(cupti.apiCalls));
        std::printf("  CUPTI overhead records: %s\n", CuptiTrace::overheads().c_str());
    }
    std::printf("%d runs, every element checked: %d wrong\n", total, wrong);
    return wrong == 0 ? 0 : 1;
}
