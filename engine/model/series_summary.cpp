#include "engine/model/series_summary.hpp"

#include "engine/model/overlap_model.hpp"

#include <algorithm>

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

namespace {

// A name's words, a comma after a word being a word of its own.
std::vector<std::string> wordsOf(const std::string& text)
{
    std::vector<std::string> words;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find(' ', at), text.size());
        if (end > at) {
            const bool comma = text[end - 1] == ',';
            words.push_back(text.substr(at, end - at - (comma ? 1 : 0)));
            if (comma)
                words.emplace_back(",");
        }
        at = end + 1;
    }
    return words;
}

// The words two names of one value share at their start and at their end ("Host peak H2D, pinned" and "Host peak
// H2D, SM copies": "Host peak H2D"; "Serial PCIe bound" and "Zero-copy PCIe bound": "PCIe bound"); `a` when they
// share none.
std::string sharedName(const std::string& a, const std::string& b)
{
    if (a == b)
        return a;
    const std::vector<std::string> x = wordsOf(a), y = wordsOf(b);
    std::size_t front = 0, back = 0;
    while (front < x.size() && front < y.size() && x[front] == y[front])
        ++front;
    while (back + front < x.size() && back + front < y.size() && x[x.size() - 1 - back] == y[y.size() - 1 - back])
        ++back;
    std::vector<std::string> kept(x.begin(), x.begin() + std::ptrdiff_t(front));
    while (!kept.empty() && kept.back() == ",")
        kept.pop_back();
    kept.insert(kept.end(), x.end() - std::ptrdiff_t(back), x.end());
    std::string shared;
    for (const std::string& word : kept)
        shared += (shared.empty() || word == "," ? "" : " ") + word;
    return shared.empty() ? a : shared;
}

}  // namespace

std::vector<Column> comparisonColumns(const std::vector<SeriesSummary>& summaries)
{
    std::vector<Column> columns;
    // A value whose name differs between the series (a peak measured on each variant's own path) takes the words
    // the names share.
    auto add = [&columns](const std::string& key, const std::string& name, ValueKind kind) {
        for (Column& c : columns) {
            if (c.key == key) {
                c.name = sharedName(c.name, name);
                return;
            }
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
    s.figures.push_back({ std::string(keys::kHostRegisterMs), "Host registration", ValueKind::Duration, ms });
    if (ms > 0.0 && outcome.hostRegisteredBytes > 0)
        s.figures.push_back({ std::string(keys::kHostRegisterRate), "Host registration rate", ValueKind::Rate,
            gigabytesPerSecond(static_cast<double>(outcome.hostRegisteredBytes), ms) });
    if (outcome.hostUnregisterMs)
        s.figures.push_back({ std::string(keys::kHostUnregisterMs), "Host unregistration", ValueKind::Duration,
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

    std::vector<double> values;  // one buffer for every measure: a million runs' column is 8 MB to fault in
    values.reserve(measured.size());
    for (const RunMeasure& m : kMeasures) {
        values.clear();
        for (const std::size_t i : measured) {
            if (!m.present(runs, i))
                break;
            values.push_back(m.read(runs, i));
        }
        if (values.size() == measured.size())
            s.distributions.push_back({ std::string(m.key), m.name, m.kind, summarizeInPlace(values) });
    }

    addSeriesFigures(s, report.config, report.peak, runs[measured.front()]);
    if (report.outcome)
        addRegistrationFigures(s, *report.outcome);
    return s;
}

namespace {

// The least time the link allows an overlapping shape (both directions at once, one chunk's fill and drain): the
// series' own shape where it overlaps, else the shape the model has fastest (where the calibration has the
// operations' costs). None for zero-copy and on-demand managed memory (no copies) or without a bidirectional peak.
void addOverlappedBound(SeriesSummary& s, const PipelineConfig& c, const CopyPeak& p, double kernelMs, double gpuMs)
{
    if (!hasCopies(c) || p.bidirectionalGBps <= 0.0)
        return;
    int chunks = c.chunks, streams = c.streams;
    if (chunks == 1 || streams == 1) {
        // Without the operations' costs the model's fastest shape is the most chunks, for free: no shape to name.
        if (!p.costs.measured())
            return;
        const auto best = bestModelledShape(c.bytes(), c.elements, c.submission, p, kernelMs,
            kModelMaxChunks, kModelMaxStreams);
        if (!best || best->chunks == 1 || best->streams == 1)
            return;
        chunks = best->chunks;
        streams = best->streams;
    }
    const double bound = overlapBoundMs(c.bytes(), chunks, streams, p, kernelMs);
    if (bound <= 0.0)
        return;
    const std::string shape = "K=" + std::to_string(chunks) + " S=" + std::to_string(streams);
    s.figures.push_back({ std::string(keys::kOverlappedBound), "Overlapped bound, " + shape, ValueKind::Duration,
        bound });
    s.figures.push_back({ std::string(keys::kOverOverlappedBound), "GPU time / overlapped bound", ValueKind::Ratio,
        gpuMs / bound });
}

}  // namespace

void addSeriesFigures(SeriesSummary& s, const PipelineConfig& c, const std::optional<CopyPeak>& peak,
    const RunResult& measured)
{
    const Distribution* gpu = s.distribution(keys::kGpuTime);
    if (!gpu)
        return;
    s.figures.push_back({ "noise_percent", "Noise", ValueKind::Percentage, gpu->stats.noisePercent });
    // The bytes the run's copies moved (a recorded program's own); the configuration's both ways where its spans
    // carry none (files from before spans, zero-copy memory).
    const std::uint64_t copied = measured.totalBytes(SpanKind::H2D) + measured.totalBytes(SpanKind::D2H);
    s.figures.push_back({ std::string(keys::kCopyRate), "Copy throughput, both directions", ValueKind::Rate,
        gigabytesPerSecond(copied > 0 ? double(copied) : 2.0 * static_cast<double>(c.bytes()), gpu->stats.median) });
    // A stage's spans only time its own work when nothing else runs beside it: with several streams they also hold
    // the wait for an engine another stream is using, so their sum says nothing about the stage's bandwidth.
    if (c.streams == 1) {
        for (const RateOf& rate : kRates) {
            if (const Distribution* time = s.distribution(rate.timeKey); time && measured.totalBytes(rate.kind) > 0) {
                const auto bytes = static_cast<double>(measured.totalBytes(rate.kind));
                s.figures.push_back({ std::string(rate.key), rate.name, ValueKind::Rate,
                    gigabytesPerSecond(bytes, time->stats.median) });
            }
        }
    }
    if (peak) {
        // Each peak figure names the path it was measured on; the keys stay the same whatever the path.
        const CopyPeak& p = *peak;
        const std::string path = copyPathLabel(p.path);
        s.figures.push_back({ "peak_h2d_gbps", "Host peak H2D, " + path, ValueKind::Rate, p.h2dGBps });
        s.figures.push_back({ "peak_d2h_gbps", "Host peak D2H, " + path, ValueKind::Rate, p.d2hGBps });
        if (p.bidirectionalGBps > 0.0)
            s.figures.push_back({ "peak_bidirectional_gbps", "Host peak both directions, " + path, ValueKind::Rate,
                p.bidirectionalGBps });
        const double bound = linkBoundMs(c, p);
        if (bound > 0.0) {
            const bool zeroCopy = c.hostMemory == HostMemory::Mapped;
            s.figures.push_back({ "serial_bound_ms", zeroCopy ? "Zero-copy PCIe bound" : "Serial PCIe bound",
                ValueKind::Duration, bound });
            s.figures.push_back({ std::string(keys::kOverSerialBound),
                zeroCopy ? "GPU time / zero-copy bound" : "GPU time / serial bound", ValueKind::Ratio,
                gpu->stats.median / bound });
        }
        const double kernelMs = wholeKernelMs(s.median("kernel_ms"), c.chunks, p.costs);
        addOverlappedBound(s, c, p, kernelMs, gpu->stats.median);
        const double modelled = modelledBoundMs(c, p, kernelMs);
        if (modelled > 0.0) {
            s.figures.push_back({ std::string(keys::kModelled), "Modelled time", ValueKind::Duration, modelled });
            s.figures.push_back({ "gpu_time_over_modelled", "GPU time / modelled", ValueKind::Ratio,
                gpu->stats.median / modelled });
        }
    }
}

}  // namespace asyncscope
