#include "engine/io/text_report.hpp"

#include "engine/model/cuda_versions.hpp"
#include "engine/model/display_text.hpp"
#include "engine/model/number_text.hpp"
#include "engine/model/overlap_model.hpp"
#include "engine/model/size_parse.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <optional>
#include <set>

namespace asyncscope {

namespace {

std::string printf_(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string printf_(const char* format, ...)
{
    char buffer[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    return buffer;
}

constexpr std::size_t kTextWidth = 118;

// Words wrapped to lines of at most `width` characters, every line after the first indented by `hang` spaces.
std::string wrapped(const std::string& text, std::size_t width, std::size_t hang)
{
    std::string out, line;
    std::size_t at = std::min(text.find_first_not_of(' '), text.size());
    line = text.substr(0, at);  // the first line's own indent
    while (at < text.size()) {
        std::size_t end = text.find(' ', at);
        if (end == std::string::npos)
            end = text.size();
        const std::string word = text.substr(at, end - at);
        const bool hasWord = line.find_first_not_of(' ') != std::string::npos;
        if (hasWord && line.size() + 1 + word.size() > width) {
            out += line + "\n";
            line = std::string(hang, ' ');
        } else if (hasWord) {
            line += ' ';
        }
        line += word;
        at = end + 1;
    }
    return out + line;
}

// "pinned host memory", "registered host memory, SM copies", "managed host memory (on-demand migration, advice
// read-mostly)", with "batch prefer-overlap" where it applies: what is left out is the default or does not apply.
std::string memoryText(const PipelineConfig& c)
{
    std::string text = std::string(nameOf(c.hostMemory)) + " host memory";
    if (c.hostMemory == HostMemory::Managed)
        text += std::string(" (") + nameOf(c.managedMigration) + " migration, advice " + nameOf(c.managedAdvice) + ")";
    else if (c.copy == CopyMechanism::Sm && c.hostMemory != HostMemory::Mapped)
        text += ", SM copies";
    if (c.submission == Submission::Batch && c.preferOverlap)
        text += ", batch copies prefer overlap";
    return text;
}

}  // namespace

std::string formatDeviceText(const DeviceInfo& device, int driverVersion, int runtimeVersion)
{
    // The name and the bus id as a file may give them: escaped and cut, and outside printf_'s buffer.
    return printf_("device %d: ", device.index) + cutText(device.name) +
        printf_(", sm %s, %d SMs, %s, %d copy engines, PCI ", device.computeCapability().c_str(),
            device.multiprocessors, formatBytes(device.totalMemoryBytes).c_str(), device.asyncEngineCount) +
        cutText(device.pciBusId) +
        printf_(", driver CUDA %s, runtime %s\n", formatCudaVersion(driverVersion).c_str(),
            formatCudaVersion(runtimeVersion).c_str());
}

std::string formatConfigText(const PipelineConfig& c)
{
    std::string stop = c.stopRule == StopRule::Fixed
        ? std::to_string(c.runs) + " runs"
        : printf_("until noise <= %.2f %% (at least %d runs, %.0f ms GPU time; timeout %.0f s)", c.targetNoisePercent,
              c.minRuns, c.minGpuMs, c.timeoutS);
    const std::string check = std::string(nameOf(c.checkMode)) + " check" +
        (c.checkThreads > 0 ? " on " + std::to_string(c.checkThreads) + " threads" : std::string());
    const std::string shape = shapeText(c).empty() ? std::string() : shapeText(c) + ", ";
    return printf_("n = %zu ints (%s), value %d, %d threads/block, %s%s, %s wait, %s, %d warm-up, %s\n",
        c.elements, formatBytes(c.bytes()).c_str(), c.value, c.threadsPerBlock,
        shape.c_str(), memoryText(c).c_str(), nameOf(c.waitMode), check.c_str(),
        c.warmupRuns, stop.c_str());
}

std::string formatRunText(const RunResult& run)
{
    std::string text = printf_("run %d%s:\n", run.index, run.warmup ? " (warm-up)" : "");
    text += printf_("time spent executing by the GPU: %.2f\n", run.gpuMs);
    text += printf_("time spent by CPU in CUDA calls: %.2f\n", run.cpuSubmitMs());
    text += printf_("CPU executed %lu iterations while waiting for GPU to finish\n",
        static_cast<unsigned long>(run.pollIterations));
    if (run.stagesTimed())
        text += printf_("stages (ms): H2D %.3f, kernel %.3f, D2H %.3f\n", run.totalMs(SpanKind::H2D),
            run.totalMs(SpanKind::Kernel), run.totalMs(SpanKind::D2H));
    if (!run.verified)
        text += printf_("WRONG: element %lld is %d, expected %d\n", static_cast<long long>(run.firstWrongIndex),
            run.firstWrongValue, run.expectedValue);
    return text;
}

std::string formatWrongElement(const RunResult& run)
{
    return printf_("run %d returned a wrong element: index %lld is %d, expected %d", run.index,
        static_cast<long long>(run.firstWrongIndex), run.firstWrongValue, run.expectedValue);
}

std::string formatSummaryText(const Report& report, const Assessment& assessed)
{
    const SeriesSummary& s = assessed.summary;
    std::string text;
    if (report.program) {
        const ProgramInfo& p = *report.program;
        text += wrapped("program: " + cutText(commandText(p.command), kMaxShownMessageChars) +
                (p.workingFolder.empty() ? std::string() : " (in " + cutText(p.workingFolder) + ")"), kTextWidth, 4) +
            "\n";
        text += printf_("  iterations split by %s; %s\n", cutText(p.iterations).c_str(),
            p.stopped ? "stopped by the recorder"
                : p.signal != 0 ? printf_("ended on signal %d", p.signal).c_str()
                                : printf_("exited with %d", p.exitCode).c_str());
        for (const std::string& note : p.notes)
            text += wrapped("  note: " + cutText(note, kMaxShownMessageChars), kTextWidth, 4) + "\n";
        text += printf_("summary: %zu iterations as runs (elements are the program's to check)", s.measuredRuns);
    } else {
        text += printf_("summary: %zu measured runs, %zu warm-up, %zu of %zu verified", s.measuredRuns, s.warmupRuns,
            s.verifiedRuns, report.runs.size());
    }
    if (report.outcome)
        text += printf_(", stopped on %s", nameOf(report.outcome->reason));
    text += "\n";
    for (const Distribution& d : s.distributions) {
        const int places = decimalsOf(d.kind);
        const Summary& v = d.stats;
        text += printf_("  %-24s median %11.*f  min %11.*f  max %11.*f  mean %11.*f  noise %6.2f %%  p95 %11.*f %s\n",
            d.name.c_str(), places, v.median, places, v.min, places, v.max, places, v.mean, v.noisePercent, places,
            v.p95, unitOf(d.kind));
    }
    for (const Figure& f : s.figures)
        text += printf_("  %-32s %s %s\n", f.name.c_str(), fixedText(f.value, decimalsOf(f.kind)).c_str(), unitOf(f.kind));
    if (report.peak)
        text += printf_("  (host peak from %s of %s, %s; %s bound and modelled time for %s)\n",
            copyPathMoves(report.peak->path), formatBytes(report.peak->bytes).c_str(),
            report.peak->fromCache ? "cached" : "measured now",
            report.config.hostMemory == HostMemory::Mapped ? "zero-copy" : "serial",
            formatBytes(report.config.bytes()).c_str());
    if (report.outcome && report.outcome->hostRegisterMs)
        text += printf_("  (host registration: cudaHostRegister of %s of host buffers before the first run, "
                        "cudaHostUnregister after the last; not in any run's times)\n",
            formatBytes(report.outcome->hostRegisteredBytes).c_str());
    if (report.outcome && !report.outcome->traceNote.empty())
        text += "  CUPTI not used: " + cutText(report.outcome->traceNote, kMaxShownMessageChars) + "\n";
    else if (report.config.traceSource == TraceSource::Cupti)
        text += "  traced by CUPTI: copies, kernels and runtime calls on one clock (JSON: traced_spans)\n";
    if (report.machine)
        text += wrapped("  " + formatMachineText(*report.machine), kTextWidth, 4) + "\n";
    text += formatAdviceText(assessed.advice);
    return text;
}

namespace {

// "1980 MHz" where every reading agrees, "1410-1980 MHz" where they moved; empty when none had it.
template <class Read>
std::string rangeText(const std::vector<MachineSample>& samples, Read read, const char* unit, int decimals = 0)
{
    std::optional<double> low, high;
    for (const MachineSample& s : samples) {
        if (const auto v = read(s)) {
            low = std::min(low.value_or(*v), double(*v));
            high = std::max(high.value_or(*v), double(*v));
        }
    }
    if (!low)
        return {};
    if (printf_("%.*f", decimals, *low) == printf_("%.*f", decimals, *high))
        return printf_("%.*f %s", decimals, *low, unit);
    return printf_("%.*f-%.*f %s", decimals, *low, decimals, *high, unit);
}


}  // namespace

std::string formatMachineText(const MachineState& m)
{
    if (!m.read())
        return "machine: not read (" + cutText(m.unavailable, kMaxShownMessageChars) + ")";
    std::string text = "machine: " + cutText(m.source) + ", " + std::to_string(m.samples.size()) + " readings";
    auto add = [&text](const std::string& label, const std::string& value) {
        if (!value.empty())
            text += "; " + label + " " + value;
    };
    const auto& v = m.samples;
    add("SM clock", rangeText(v, [](const MachineSample& s) { return s.smClockMHz; }, "MHz"));
    if (!v.empty() && v.back().smClockMaxMHz)
        text += printf_(" (max %d)", *v.back().smClockMaxMHz);
    add("memory clock", rangeText(v, [](const MachineSample& s) { return s.memoryClockMHz; }, "MHz"));
    add("temperature", rangeText(v, [](const MachineSample& s) { return s.temperatureC; }, "C"));
    add("power", rangeText(v, [](const MachineSample& s) { return s.powerW; }, "W"));
    std::uint64_t reasons = 0;
    bool anyReasons = false;
    std::optional<bool> persistence;
    std::string link;
    for (const MachineSample& s : v) {
        if (s.clockReasons) {
            reasons |= *s.clockReasons & ~clock_reasons::kGpuIdle;
            anyReasons = true;
        }
        if (s.persistenceMode)
            persistence = *s.persistenceMode;
        if (s.linkGeneration && s.linkWidth) {
            link = printf_("Gen%d x%d", *s.linkGeneration, *s.linkWidth);
            if (s.linkGenerationMax && s.linkWidthMax)
                link += printf_(" (max Gen%d x%d)", *s.linkGenerationMax, *s.linkWidthMax);
        }
    }
    if (anyReasons)
        add("clock reasons", clockReasonsText(reasons));
    if (persistence)
        add("persistence mode", *persistence ? "on" : "off");
    add("PCIe", link);
    std::set<std::uint32_t> others;
    bool listed = false;
    for (const MachineSample& s : v) {
        listed = listed || s.processes.has_value();
        const OtherProcesses o = otherProcesses(s, m.selfPid);
        if (o.selfAmong && o.processes.size() <= 1)
            continue;
        for (const GpuProcess& p : o.processes)
            others.insert(p.pid);
    }
    if (listed) {  // a file may list a thousand: the first few, and the count of the rest
        std::vector<std::string> pids;
        for (const std::uint32_t pid : others)
            pids.push_back(std::to_string(pid));
        add("other processes on the GPU", others.empty() ? "none" : "PID " + cutList(pids));
    }
    return text;
}

std::string formatAdviceText(const Advice& advice, int indent)
{
    if (advice.findings.empty() && advice.notChecked.empty())
        return {};
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    std::string text = pad + "advice:\n";
    // The evidence may name what a file gives (a process on the GPU): control characters are shown escaped.
    for (const Finding& f : advice.findings) {
        const std::string head = pad + "  [" + nameOf(f.severity) + "] " + displayText(f.title) + ": ";
        text += wrapped(head + displayText(f.evidence) + ".", kTextWidth, pad.size() + 4) + "\n";
        text += wrapped(pad + "    -> " + displayText(f.action), kTextWidth, pad.size() + 7) + "\n";
    }
    if (advice.findings.empty())
        text += pad + "  no findings\n";
    for (const NotChecked& n : advice.notChecked)
        text += wrapped(pad + "  not checked: " + displayText(n.rule) + " (" + displayText(n.why) + ")", kTextWidth,
                    pad.size() + 4) +
            "\n";
    return text;
}

std::string formatComparisonText(const PlanReport& plan, const std::vector<Assessment>& assessed)
{
    const std::vector<SeriesSummary> summaries = summariesOf(assessed);
    const std::vector<Column> columns = comparisonColumns(summaries);

    std::string text = "comparison: " + std::string(plan.comparison ? nameOf(*plan.comparison) : "series") +
        " (medians of the measured runs)\n";
    std::vector<int> widths;
    // The labels as a record may give them: escaped and cut, and padded outside printf_'s buffer.
    std::vector<std::string> labels;
    std::size_t labelWidth = 14;  // the memory comparison's labels are longer: "registered, SM copies"
    for (const VariantResult& v : plan.variants) {
        labels.push_back(cutText(v.label));
        labelWidth = std::max(labelWidth, labels.back().size());
    }
    const auto padded = [labelWidth](const std::string& label) {
        return label + std::string(labelWidth - std::min(labelWidth, label.size()), ' ');
    };
    text += padded("variant") + printf_(" %12s %8s", "size", "samples");
    for (const Column& c : columns) {
        const std::string header = headerOf(c.name, c.kind);
        widths.push_back(std::max(int(header.size()), 10));
        text += printf_(" %*s", widths.back(), header.c_str());
    }
    text += "\n";
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        const VariantResult& v = plan.variants[i];
        text += padded(labels[i]) +
            printf_(" %12s %8zu", formatBytes(v.report.config.bytes()).c_str(), summaries[i].measuredRuns);
        if (v.notRun) {
            text += "  not run: " + cutText(v.notRun->message(), kMaxShownMessageChars) + "\n";
            continue;
        }
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const auto value = headlineValue(summaries[i], columns[c].key);
            text += printf_(" %*s", widths[c], value ? fixedText(*value, decimalsOf(columns[c].kind)).c_str() : "");
        }
        if (v.failure)
            text += std::string(v.failure->kind == ErrorKind::Cancelled ? "  cancelled: " : "  failed: ") +
                cutText(v.failure->message(), kMaxShownMessageChars);
        text += "\n";
    }
    // Each variant's findings under its label; the rules not checked, the same for every variant as a rule, once.
    Advice unchecked;
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        const Advice& advice = assessed.at(i).advice;
        for (const NotChecked& n : advice.notChecked) {
            if (std::none_of(unchecked.notChecked.begin(), unchecked.notChecked.end(),
                    [&n](const NotChecked& u) { return u.rule == n.rule && u.why == n.why; }))
                unchecked.notChecked.push_back(n);
        }
        if (advice.findings.empty())
            continue;
        text += labels[i] + ":\n";
        if (plan.variants[i].report.machine)
            text += wrapped("  " + formatMachineText(*plan.variants[i].report.machine), kTextWidth, 4) + "\n";
        text += formatAdviceText(Advice { advice.findings, {}, {} });
    }
    return text + formatAdviceText(unchecked, 0);
}

}  // namespace asyncscope
