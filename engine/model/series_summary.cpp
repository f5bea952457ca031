#include "engine/model/series_summary.hpp"

#include "engine/model/overlap_model.hpp"

namespace asyncscope {

const char* unitOf(ValueKind kind)
{
    switch (kind) {
    case ValueKind::Duration: return "ms";
    case ValueKind::Rate: return "GB/s";
    case ValueKind::Count: return "";
    case ValueKind::Percentage: return "%";
    case ValueKind::Ratio: return "x";
    }
    return "";
}

int decimalsOf(ValueKind kind)
{
    switch (kind) {
    case ValueKind::Duration: return 4;
    case ValueKind::Rate: return 1;
    case ValueKind::Count: return 0;
    case ValueKind::Percentage: return 2;
    case ValueKind::Ratio: return 3;
    }
    return 4;
}

std::string headerOf(const std::string& name, ValueKind kind)
{
    const std::string unit = unitOf(kind);
    return unit.empty() ? name : name + " (" + unit + ")";
}

const Distribution* SeriesSummary::distribution(std::string_view key) const
{
    for (const Distribution& d : distributions) {
        if (d.key == key)
            return &d;
    }
    return nullptr;
}

const Figure* SeriesSummary::figure(std::string_view key) const
{
    for (const Figure& f : figures) {
        if (f.key == key)
            return &f;
    }
    return nullptr;
}

double SeriesSummary::median(std::string_view key) const
{
    const Distribution* d = distribution(key);
    return d ? d->stats.median : 0.0;
}

double SeriesSummary::value(std::string_view key) const
{
    const Figure* f = figure(key);
    return f ? f->value : 0.0;
}

std::vector<Column> comparisonColumns(const std::vector<SeriesSummary>& summaries)
{
    std::vector<Column> columns;
    auto add = [&columns](const std::string& key, const std::string& name, ValueKind kind) {
        for (const Column& c : columns) {
            if (c.key == key)
                return;
        }
        columns.push_back({ key, name, kind });
    };
    for (const SeriesSummary& s : summaries) {
        for (const Distribution& d : s.distributions)
            add(d.key, d.name, d.kind);
        for (const Figure& f : s.figures)
            add(f.key, f.name, f.kind);
    }
    return columns;
}

std::optional<double> headlineValue(const SeriesSummary& summary, std::string_view key)
{
    if (const Distribution* d = summary.distribution(key))
        return d->stats.median;
    if (const Figure* f = summary.figure(key))
        return f->value;
    return std::nullopt;
}

namespace {

bool always(const RunStore&, std::size_t)
{
    return true;
}

template <SpanKind Kind>
double spanMs(const RunStore& runs, std::size_t i)
{
    return runs.totalMs(i, Kind);
}

template <SpanKind Kind>
bool hasSpan(const RunStore& runs, std::size_t i)
{
    return runs.has(i, Kind);
}

const RunMeasure kMeasures[] = {
    { keys::kGpuTime, "GPU time", ValueKind::Duration, [](const RunStore& r, std::size_t i) { return r.gpuMs(i); },
        always },
    { keys::kCpuSubmit, "CPU submit time", ValueKind::Duration, spanMs<SpanKind::Submit>, hasSpan<SpanKind::Submit> },
    { keys::kPolls, "Poll iterations", ValueKind::Count,
        [](const RunStore& r, std::size_t i) { return static_cast<double>(r.pollIterations(i)); }, always },
    { keys::kWaitCpu, "CPU time while waiting", ValueKind::Duration,
        [](const RunStore& r, std::size_t i) { return r.waitCpuMs(i); }, always },
    { "h2d_ms", "H2D", ValueKind::Duration, spanMs<SpanKind::H2D>, hasSpan<SpanKind::H2D> },
    { "kernel_ms", "Kernel", ValueKind::Duration, spanMs<SpanKind::Kernel>, hasSpan<SpanKind::Kernel> },
    { "d2h_ms", "D2H", ValueKind::Duration, spanMs<SpanKind::D2H>, hasSpan<SpanKind::D2H> },
    { "check_ms", "Host check", ValueKind::Duration, spanMs<SpanKind::Check>, hasSpan<SpanKind::Check> },
};

// Bytes a span kind moves per run over its median time, in decimal GB/s.
struct RateOf {
    std::string_view key;
    const char* name;
    SpanKind kind;
    std::string_view timeKey;
};

const RateOf kRates[] = {
    { keys::kH2dRate, "H2D bandwidth", SpanKind::H2D, "h2d_ms" },
    { keys::kD2hRate, "D2H bandwidth", SpanKind::D2H, "d2h_ms" },
    { "kernel_effective_gbps", "Kernel effective bandwidth", SpanKind::Kernel, "kernel_ms" },
};

}  // namespace

const std::vector<RunMeasure>& runMeasures()
{
    static const std::vector<RunMeasure> measures(std::begin(kMeasures), std::end(kMeasures));
    return measures;
}

namespace {

// Registered host memory: cudaHostRegister and cudaHostUnregister, once per series, shown on their own.
void addRegistrationFigures(SeriesSummary& s, const SeriesOutcome& outcome)
{
    if (!outcome.hostRegisterMs)
        return;
    const double ms = *outcome.hostRegisterMs;
    s.figures.push_back({ "host_register_ms", "Host registration", ValueKind::Duration, ms });
    if (ms > 0.0 && outcome.hostRegisteredBytes > 0)
        s.figures.push_back({ "host_register_gbps", "Host registration rate", ValueKind::Rate,
            gigabytesPerSecond(static_cast<double>(outcome.hostRegisteredBytes), ms) });
    if (outcome.hostUnregisterMs)
        s.figures.push_back({ "host_unregister_ms", "Host unregistration", ValueKind::Duration,
            *outcome.hostUnregisterMs });
}

}  // namespace

SeriesSummary summarizeSeries(const Report& report)
{
    SeriesSummary s;
    const RunStore& runs = report.runs;
    std::vector<std::size_t> measured;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        s.verifiedRuns += runs.verified(i) ? 1 : 0;
        if (runs.warmup(i))
            ++s.warmupRuns;
        else
            measured.push_back(i);
    }
    s.measuredRuns = measured.size();
    if (measured.empty())
        return s;

    for (const RunMeasure& m : kMeasures) {
        std::vector<double> values;
        values.reserve(measured.size());
        for (const std::size_t i : measured) {
            if (!m.present(runs, i))
                break;
            values.push_back(m.read(runs, i));
        }
        if (values.size() == measured.size())
            s.distributions.push_back({ std::string(m.key), m.name, m.kind, summarize(std::move(values)) });
    }

    addSeriesFigures(s, report.config, report.peak, runs[measured.front()]);
    if (report.outcome)
        addRegistrationFigures(s, *report.outcome);
    return s;
}

void addSeriesFigures(SeriesSummary& s, const PipelineConfig& c, const std::optional<CopyPeak>& peak,
    const RunResult& measured)
{
    const Distribution* gpu = s.distribution(keys::kGpuTime);
    if (!gpu)
        return;
    s.figures.push_back({ "noise_percent", "Noise", ValueKind::Percentage, gpu->stats.noisePercent });
    s.figures.push_back({ std::string(keys::kCopyRate), "Copy throughput, both directions", ValueKind::Rate,
        gigabytesPerSecond(2.0 * static_cast<double>(c.bytes()), gpu->stats.median) });
    // A stage's spans only time its own work when nothing else runs beside it: with several streams they also hold
    // the wait for an engine another stream is using, so their sum says nothing about the stage's bandwidth.
    if (c.streams == 1) {
        for (const RateOf& rate : kRates) {
            if (const Distribution* time = s.distribution(rate.timeKey)) {
                const auto bytes = static_cast<double>(measured.totalBytes(rate.kind));
                s.figures.push_back({ std::string(rate.key), rate.name, ValueKind::Rate,
                    gigabytesPerSecond(bytes, time->stats.median) });
            }
        }
    }
    if (peak) {
        const CopyPeak& p = *peak;
        const double bound = serialBoundMs(c.bytes(), p);
        s.figures.push_back({ "peak_h2d_gbps", "Host peak H2D, pinned", ValueKind::Rate, p.h2dGBps });
        s.figures.push_back({ "peak_d2h_gbps", "Host peak D2H, pinned", ValueKind::Rate, p.d2hGBps });
        if (p.bidirectionalGBps > 0.0)
            s.figures.push_back({ "peak_bidirectional_gbps", "Host peak both directions, pinned", ValueKind::Rate,
                p.bidirectionalGBps });
        if (bound > 0.0) {
            s.figures.push_back({ "serial_bound_ms", "Serial PCIe bound", ValueKind::Duration, bound });
            s.figures.push_back({ "gpu_time_over_serial_bound", "GPU time / serial bound", ValueKind::Ratio,
                gpu->stats.median / bound });
        }
        const double modelled = overlapBoundMs(c.bytes(), c.chunks, c.streams, p, s.median("kernel_ms"));
        if (modelled > 0.0) {
            s.figures.push_back({ std::string(keys::kModelled), "Modelled time", ValueKind::Duration, modelled });
            s.figures.push_back({ "gpu_time_over_modelled", "GPU time / modelled", ValueKind::Ratio,
                gpu->stats.median / modelled });
        }
    }
}

}  // namespace asyncscope
