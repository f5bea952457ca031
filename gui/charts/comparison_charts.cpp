#include "gui/charts/comparison_charts.hpp"

#include "gui/charts/kind_colours.hpp"
#include "gui/charts/memory_charts.hpp"

#include "engine/run/plan_summary.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace asyncscope {

namespace {

// Quantities take the colours of their kinds (gui/kind_colours.hpp), as in the run charts and the timeline.
const QColor kGpu = gpuTimeColour(), kCpu = kindColour(SpanKind::Submit), kWait = kindColour(SpanKind::Wait),
             kH2d = kindColour(SpanKind::H2D), kD2h = kindColour(SpanKind::D2H);
// An overlap chart's lines, one per stream count, and the model drawn dashed beside them.
const QColor kStreamColours[] = { QColor(0, 114, 178), QColor(213, 94, 0), QColor(0, 158, 115), QColor(204, 121, 167) };
const QColor kModel(90, 90, 90);

// "4K", "64K", "1M", "1G": short labels for a sweep's size axis.
QString shortSize(std::size_t bytes)
{
    const char* units[] = { "", "K", "M", "G", "T" };
    int unit = 0;
    while (bytes >= 1024 && bytes % 1024 == 0 && unit < 4) {
        bytes /= 1024;
        ++unit;
    }
    return QString::number(qulonglong(bytes)) + units[unit];
}

QString title(Comparison c)
{
    switch (c) {
    case Comparison::HostMemory: return QObject::tr("Pinned vs pageable host memory (medians)");
    case Comparison::Wait: return QObject::tr("Spin-poll vs blocking-sync wait (medians)");
    case Comparison::Size: return QObject::tr("Size sweep");
    case Comparison::Overlap: return QObject::tr("Speed-up over K = 1 (medians)");
    case Comparison::Submission:
        return QObject::tr("CPU submit time: stream calls, CUDA Graph and batched copies (medians)");
    case Comparison::Memory: return QObject::tr("Host memory kinds and copy mechanisms (medians)");
    case Comparison::Processes: return QObject::tr("The program's processes (medians)");
    }
    return {};
}

QString submissionText(Submission submission)
{
    switch (submission) {
    case Submission::Stream: return QObject::tr("stream calls");
    case Submission::Graph: return QObject::tr("CUDA Graph");
    case Submission::Batch: return QObject::tr("batched copies");
    }
    return {};
}

QColor submissionColour(Submission submission)
{
    switch (submission) {
    case Submission::Stream: return kCpu;
    case Submission::Graph: return kGpu;
    case Submission::Batch: return kWait;
    }
    return kCpu;
}

// Adds `series` to `chart`, its values labelled above the bars, with its categories along the bottom and a
// millisecond axis from 0 to above `top`.
void addBarAxes(QChart& chart, QBarSeries* series, const QStringList& categories, const QString& xTitle, double top)
{
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);  // readable on bars of any height
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(4);
    chart.addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(categories);
    if (!xTitle.isEmpty())
        x->setTitleText(xTitle);
    auto* y = new QValueAxis;
    y->setTitleText(QStringLiteral("ms"));
    y->setRange(0.0, top > 0.0 ? top * 1.15 : 1.0);
    y->applyNiceNumbers();
    chart.addAxis(x, Qt::AlignBottom);
    chart.addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    chart.legend()->setAlignment(Qt::AlignBottom);
}

std::unique_ptr<QChart> barChart(const PlanReport& c, const std::vector<SeriesSummary>& summaries)
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(title(c.comparison.value_or(Comparison::HostMemory)));
    chart->setAnimationOptions(QChart::NoAnimation);
    auto* series = new QBarSeries;
    auto* gpu = new QBarSet(QObject::tr("GPU time"));
    auto* cpu = new QBarSet(QObject::tr("CPU submit time"));
    auto* wait = new QBarSet(QObject::tr("CPU time used while waiting"));
    gpu->setColor(kGpu);
    cpu->setColor(kCpu);
    wait->setColor(kWait);
    double top = 0.0;
    for (std::size_t i = 0; i < c.variants.size(); ++i) {
        if (!c.variants[i].ran())
            continue;
        const SeriesSummary& s = summaries[i];
        const double values[] = { s.median(keys::kGpuTime), s.median(keys::kCpuSubmit), s.median(keys::kWaitCpu) };
        *gpu << values[0];
        *cpu << values[1];
        *wait << values[2];
        top = std::max({ top, values[0], values[1], values[2] });
    }
    series->append({ gpu, cpu, wait });
    for (QBarSet* set : { gpu, cpu, wait })
        set->setLabelColor(QColor(40, 40, 40));
    QStringList labels;
    for (const VariantResult& v : c.variants) {
        if (v.ran())
            labels << QString::fromStdString(v.label);
    }
    addBarAxes(*chart, series, labels, QString(), top);
    return chart;
}

std::unique_ptr<QChart> sweepChart(const PlanReport& c, const std::vector<SeriesSummary>& summaries, bool bandwidth)
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(bandwidth ? QObject::tr("Bandwidth over size (decimal GB/s)")
                              : QObject::tr("Time over size (medians)"));
    chart->setAnimationOptions(QChart::NoAnimation);
    auto line = [&](const QString& name, const QColor& color) {
        auto* s = new QLineSeries;
        s->setName(name);
        s->setPen(QPen(color, 2.0));
        s->setPointsVisible(true);
        chart->addSeries(s);
        return s;
    };
    QList<QLineSeries*> series;
    if (bandwidth)
        series = { line(QObject::tr("H2D"), kH2d), line(QObject::tr("D2H"), kD2h),
            line(QObject::tr("whole pipeline (2 x size / GPU time)"), kGpu) };
    else
        series = { line(QObject::tr("GPU time"), kGpu), line(QObject::tr("CPU submit time"), kCpu) };
    double low = 0.0, high = 0.0;
    std::vector<std::size_t> sizes;
    for (std::size_t i = 0; i < c.variants.size(); ++i) {
        const VariantResult& v = c.variants[i];
        if (!v.ran())
            continue;
        const SeriesSummary& s = summaries[i];
        const double bytes = static_cast<double>(v.report.config.bytes());
        sizes.push_back(v.report.config.bytes());
        const double position = std::log2(bytes);  // sizes are powers of two: evenly spaced
        const QList<double> values = bandwidth
            ? QList<double> { s.value(keys::kH2dRate), s.value(keys::kD2hRate),
                  gigabytesPerSecond(2.0 * bytes, s.median(keys::kGpuTime)) }
            : QList<double> { s.median(keys::kGpuTime), s.median(keys::kCpuSubmit) };
        for (int i = 0; i < values.size(); ++i) {
            if (values[i] <= 0.0)
                continue;  // a log axis cannot show zero (stage times off)
            series[i]->append(position, values[i]);
            low = low == 0.0 ? values[i] : std::min(low, values[i]);
            high = std::max(high, values[i]);
        }
    }
    auto* x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setTitleText(QObject::tr("size (bytes, log scale)"));
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (i % 4 == 0 || i + 1 == sizes.size())  // every 16x: room for each label in a narrow chart
            x->append(shortSize(sizes[i]), std::log2(double(sizes[i])));
    }
    if (!sizes.empty())
        x->setRange(std::log2(double(sizes.front())), std::log2(double(sizes.back())));
    chart->addAxis(x, Qt::AlignBottom);
    QAbstractAxis* y = nullptr;
    if (bandwidth) {
        auto* v = new QValueAxis;
        v->setRange(0.0, high > 0.0 ? high * 1.1 : 1.0);
        v->applyNiceNumbers();
        v->setTitleText(QStringLiteral("GB/s"));
        y = v;
    } else {
        auto* v = new QLogValueAxis;
        v->setBase(10.0);
        v->setLabelFormat(QStringLiteral("%g"));
        v->setTitleText(QObject::tr("ms (log scale)"));
        if (low > 0.0)
            v->setRange(low / 2.0, high * 2.0);
        y = v;
    }
    chart->addAxis(y, Qt::AlignLeft);
    for (QLineSeries* s : series) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

// What the overlap charts draw of one variant that ran.
struct ShapeResult {
    int chunks = 1;
    int streams = 1;
    std::size_t bytes = 0;
    double speedup = 0.0;   // over K = 1; 0 when that baseline did not run
    double copyRate = 0.0;  // both copies' bytes over the median GPU time, GB/s
    double modelled = 0.0;  // the overlap model's time, ms; 0 without a calibrated peak
};

std::vector<ShapeResult> shapeResults(const PlanReport& c, const std::vector<SeriesSummary>& summaries)
{
    std::vector<ShapeResult> results;
    for (std::size_t i = 0; i < c.variants.size(); ++i) {
        const VariantResult& v = c.variants[i];
        if (!v.ran() || summaries[i].measuredRuns == 0)
            continue;
        const PipelineConfig& config = v.report.config;
        results.push_back({ config.chunks, config.streams, config.bytes(), summaries[i].value(keys::kSpeedup),
            summaries[i].value(keys::kCopyRate), summaries[i].value(keys::kModelled) });
    }
    return results;
}

// Chunk counts are powers of two: evenly spaced on a log2 axis labelled 1, 2, 4 … 64. Its title says how the chunks
// were issued and submitted ("by chunk, stream calls").
QCategoryAxis* chunkAxis(const std::set<int>& chunkCounts, const QString& workload)
{
    auto* x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setTitleText(workload.isEmpty() ? QObject::tr("chunks K (log scale)")
                                       : QObject::tr("chunks K (log scale), %1").arg(workload));
    for (int k : chunkCounts)
        x->append(QString::number(k), std::log2(double(k)));
    const double low = chunkCounts.empty() ? 0.0 : std::log2(double(*chunkCounts.begin()));
    const double high = chunkCounts.empty() ? 0.0 : std::log2(double(*chunkCounts.rbegin()));
    x->setRange(low < high ? low : low - 0.5, low < high ? high : high + 0.5);
    return x;
}

// Speed-up over K = 1 (or copy throughput) against K: one line per stream count from the medians, and dashed, what the
// overlap model gives at each K for the stream count it models fastest, over its own time at K = 1. The throughput chart adds the calibrated peak of both directions at once.
std::unique_ptr<QChart> overlapChart(const PlanReport& c, const std::vector<SeriesSummary>& summaries, bool throughput)
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(throughput ? QObject::tr("Copy throughput, both directions (decimal GB/s)")
                               : title(Comparison::Overlap));
    QString workload;
    if (!c.variants.empty()) {
        const PipelineConfig& base = c.variants.front().report.config;
        workload = QStringLiteral("%1, %2").arg(
            base.order == IssueOrder::ByChunk ? QObject::tr("by chunk") : QObject::tr("by stage"),
            submissionText(base.submission));
    }
    chart->setAnimationOptions(QChart::NoAnimation);
    const std::vector<ShapeResult> results = shapeResults(c, summaries);
    std::set<int> chunkCounts, streamCounts;
    std::map<int, std::pair<double, std::size_t>> model;  // K: the least modelled ms of its variants, and their bytes
    for (const ShapeResult& r : results) {
        chunkCounts.insert(r.chunks);
        streamCounts.insert(r.streams);
        if (r.modelled <= 0.0)
            continue;
        auto [at, added] = model.try_emplace(r.chunks, r.modelled, r.bytes);
        if (!added && r.modelled < at->second.first)
            at->second = { r.modelled, r.bytes };
    }
    QCategoryAxis* x = chunkAxis(chunkCounts, workload);
    auto* y = new QValueAxis;
    y->setTitleText(throughput ? QStringLiteral("GB/s") : QObject::tr("× over K = 1"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto line = [&](const QString& name, const QPen& pen, bool points) {
        auto* s = new QLineSeries;
        s->setName(name);
        s->setPen(pen);
        s->setPointsVisible(points);
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        return s;
    };
    double top = throughput ? 0.0 : 1.0;
    std::size_t colour = 0;
    for (int streams : streamCounts) {
        QLineSeries* measured = line(QObject::tr("S = %1").arg(streams),
            QPen(kStreamColours[colour++ % std::size(kStreamColours)], 2.0), true);
        for (const ShapeResult& r : results) {
            const double value = throughput ? r.copyRate : r.speedup;
            if (r.streams != streams || value <= 0.0)
                continue;
            measured->append(std::log2(double(r.chunks)), value);
            top = std::max(top, value);
        }
    }
    const auto one = model.find(1);
    if (!model.empty() && (throughput || one != model.end())) {
        QLineSeries* modelled = line(QObject::tr("model"), QPen(kModel, 2.0, Qt::DashLine), false);
        for (const auto& [chunks, bound] : model) {
            const auto& [ms, bytes] = bound;
            const double value = throughput ? gigabytesPerSecond(2.0 * double(bytes), ms) : one->second.first / ms;
            modelled->append(std::log2(double(chunks)), value);
            top = std::max(top, value);
        }
    }
    if (throughput) {
        double peak = 0.0;
        for (const VariantResult& v : c.variants) {
            if (v.ran() && v.report.peak && peak <= 0.0)
                peak = v.report.peak->bidirectionalGBps;
        }
        if (peak > 0.0) {
            QLineSeries* ceiling = line(QObject::tr("bidirectional peak"), QPen(kModel, 1.5, Qt::DotLine), false);
            ceiling->append(x->min(), peak);
            ceiling->append(x->max(), peak);
            top = std::max(top, peak);
        }
    }
    y->setRange(0.0, top > 0.0 ? top * 1.15 : 1.0);
    y->applyNiceNumbers();
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);  // the model's dashes, the peak's dots
    chart->legend()->setShowToolTips(true);                            // a name cut short shows whole on hover
    return chart;
}

// Stream calls against a CUDA Graph and batched copies at each shape the plan ran: the median CPU submit time, or the
// median GPU time.
std::unique_ptr<QChart> submissionChart(const PlanReport& c, const std::vector<SeriesSummary>& summaries, bool gpuTime)
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(gpuTime ? QObject::tr("GPU time: stream calls, CUDA Graph and batched copies (medians)")
                            : title(Comparison::Submission));
    chart->setAnimationOptions(QChart::NoAnimation);
    QStringList shapes;  // the categories, in plan order
    std::map<std::pair<QString, Submission>, double> medians;
    for (std::size_t i = 0; i < c.variants.size(); ++i) {
        const VariantResult& v = c.variants[i];
        const SeriesSummary& s = summaries[i];
        if (!v.ran() || s.measuredRuns == 0)
            continue;
        const PipelineConfig& config = v.report.config;
        const QString shape = QString::fromStdString(shapeLabel(config.chunks, config.streams));
        if (!shapes.contains(shape))
            shapes << shape;
        medians[{ shape, config.submission }] = s.median(gpuTime ? keys::kGpuTime : keys::kCpuSubmit);
    }
    auto* series = new QBarSeries;
    double top = 0.0;
    for (const auto& [submission, name] : EnumNames<Submission>::entries) {
        auto* set = new QBarSet(submissionText(submission));
        set->setColor(submissionColour(submission));
        set->setLabelColor(QColor(40, 40, 40));
        for (const QString& shape : shapes) {
            const auto found = medians.find({ shape, submission });
            const double value = found == medians.end() ? 0.0 : found->second;  // 0: that variant did not run
            *set << value;
            top = std::max(top, value);
        }
        series->append(set);
    }
    addBarAxes(*chart, series, shapes, QObject::tr("shape"), top);
    return chart;
}

}  // namespace

ComparisonCharts::ComparisonCharts(const PlanReport& comparison)
    : m_comparison(comparison)
    , m_summaries(summarizePlan(comparison))
{
}

int ComparisonCharts::count() const
{
    switch (m_comparison.comparison.value_or(Comparison::HostMemory)) {
    case Comparison::Size:
    case Comparison::Overlap:
    case Comparison::Submission: return 2;
    case Comparison::Memory: return memoryChartCount(m_comparison, m_summaries);
    case Comparison::HostMemory:
    case Comparison::Wait:
    case Comparison::Processes: return 1;
    }
    return 1;
}

std::unique_ptr<QChart> ComparisonCharts::build(int index) const
{
    switch (m_comparison.comparison.value_or(Comparison::HostMemory)) {
    case Comparison::Size: return sweepChart(m_comparison, m_summaries, index == 1);
    case Comparison::Overlap: return overlapChart(m_comparison, m_summaries, index == 1);
    case Comparison::Submission: return submissionChart(m_comparison, m_summaries, index == 1);
    case Comparison::Memory: return memoryChart(m_comparison, m_summaries, index);
    case Comparison::HostMemory:
    case Comparison::Wait:
    case Comparison::Processes: break;
    }
    return barChart(m_comparison, m_summaries);
}

}  // namespace asyncscope
