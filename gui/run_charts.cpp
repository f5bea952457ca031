#include "gui/run_charts.hpp"

#include <QGraphicsScene>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace asyncscope {

namespace {

// Colours picked for contrast on the light theme and for colour-blind readers (Okabe-Ito).
const QColor kGpuColor(0, 114, 178);
const QColor kCpuColor(230, 159, 0);
const QColor kPollColor(0, 158, 115);
const QColor kH2dColor(86, 180, 233);
const QColor kKernelColor(204, 121, 167);
const QColor kD2hColor(213, 94, 0);
const QColor kWarmupColor(120, 120, 120);

}  // namespace

QString RunCharts::title(Kind kind)
{
    switch (kind) {
    case Time: return QStringLiteral("GPU time (CUDA events) vs CPU submit time (host clock)");
    case Polls: return QStringLiteral("CPU poll iterations while waiting");
    case Stages: return QStringLiteral("Stage times");
    }
    return {};
}

RunCharts::RunCharts()
{
    makeChart(Time, QStringLiteral("ms"));
    m_gpu = addLine(Time, QStringLiteral("GPU time"), kGpuColor);
    m_cpu = addLine(Time, QStringLiteral("CPU submit time"), kCpuColor);
    m_warmup = new QScatterSeries;
    m_warmup->setName(QStringLiteral("warm-up run"));
    m_warmup->setColor(kWarmupColor);
    m_warmup->setBorderColor(kWarmupColor);
    m_warmup->setMarkerSize(9.0);
    m_charts[Time]->addSeries(m_warmup);
    m_warmup->attachAxis(m_x[Time]);
    m_warmup->attachAxis(m_y[Time]);

    makeChart(Polls, QStringLiteral("iterations"));
    m_polls = addLine(Polls, QStringLiteral("cudaEventQuery polls"), kPollColor);

    makeChart(Stages, QStringLiteral("ms"));
    m_h2d = addLine(Stages, QStringLiteral("H2D copy"), kH2dColor);
    m_kernel = addLine(Stages, QStringLiteral("kernel"), kKernelColor);
    m_d2h = addLine(Stages, QStringLiteral("D2H copy"), kD2hColor);
    setRuns({});  // empty charts get sensible axes too
}

RunCharts::~RunCharts()
{
    for (const auto& chart : m_charts) {
        if (chart && !chart->scene())
            delete chart.data();
    }
}

QChart* RunCharts::makeChart(Kind kind, const QString& yTitle)
{
    auto* chart = new QChart;
    chart->setTitle(title(kind));
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setShowToolTips(true);  // a name cut short in a narrow window shows whole on hover
    m_x[kind] = new QValueAxis;
    m_x[kind]->setTitleText(QStringLiteral("run"));
    m_x[kind]->setLabelFormat(QStringLiteral("%d"));
    m_y[kind] = new QValueAxis;
    m_y[kind]->setTitleText(yTitle);
    chart->addAxis(m_x[kind], Qt::AlignBottom);
    chart->addAxis(m_y[kind], Qt::AlignLeft);
    m_charts[kind] = chart;
    return chart;
}

QLineSeries* RunCharts::addLine(Kind kind, const QString& name, const QColor& color)
{
    auto* series = new QLineSeries;
    series->setName(name);
    series->setPen(QPen(color, 2.0));
    m_charts[kind]->addSeries(series);
    series->attachAxis(m_x[kind]);
    series->attachAxis(m_y[kind]);
    return series;
}

void RunCharts::rescale(Kind kind, double maxX, double maxY)
{
    if (m_charts[kind]->isZoomed())
        return;
    // Run numbers: ticks every 1, 2 or 5 times a power of ten, about five of them.
    const double span = std::max(4.0, maxX);
    const double raw = span / 5.0;
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw <= decade ? decade : raw <= 2 * decade ? 2 * decade : raw <= 5 * decade ? 5 * decade : 10 * decade;
    m_x[kind]->setTickType(QValueAxis::TicksDynamic);
    m_x[kind]->setTickAnchor(0.0);
    m_x[kind]->setTickInterval(step);
    m_x[kind]->setRange(0.0, std::ceil(span / step) * step);
    m_y[kind]->setRange(0.0, maxY > 0.0 ? maxY * 1.1 : 1.0);
    m_y[kind]->applyNiceNumbers();
}

void RunCharts::setRuns(const std::vector<RunResult>& runs)
{
    QList<QPointF> gpu, cpu, warmup, polls, h2d, kernel, d2h;
    gpu.reserve(static_cast<qsizetype>(runs.size()));
    cpu.reserve(gpu.capacity());
    polls.reserve(gpu.capacity());
    double maxTime = m_overlayMaxY, maxPolls = 0.0, maxStage = 0.0;
    for (const RunResult& r : runs) {
        const double x = r.index;
        gpu.append({ x, r.gpuMs });
        const double submit = r.cpuSubmitMs();
        cpu.append({ x, submit });
        if (r.warmup) {
            warmup.append({ x, r.gpuMs });
            warmup.append({ x, submit });
        }
        polls.append({ x, static_cast<double>(r.pollIterations) });
        maxTime = std::max({ maxTime, r.gpuMs, submit });
        maxPolls = std::max(maxPolls, static_cast<double>(r.pollIterations));
        if (r.stagesTimed()) {
            const double stages[] = { r.totalMs(SpanKind::H2D), r.totalMs(SpanKind::Kernel), r.totalMs(SpanKind::D2H) };
            h2d.append({ x, stages[0] });
            kernel.append({ x, stages[1] });
            d2h.append({ x, stages[2] });
            maxStage = std::max({ maxStage, stages[0], stages[1], stages[2] });
        }
    }
    m_gpu->replace(gpu);
    m_cpu->replace(cpu);
    m_warmup->replace(warmup);
    m_polls->replace(polls);
    m_h2d->replace(h2d);
    m_kernel->replace(kernel);
    m_d2h->replace(d2h);

    const double maxX = runs.empty() ? 0.0 : runs.back().index + 1.0;
    rescale(Time, std::max(maxX, m_overlayMaxX), maxTime);
    rescale(Polls, maxX, maxPolls);
    rescale(Stages, maxX, maxStage);
}

void RunCharts::setOverlay(const std::vector<RunResult>& runs, const QString& label)
{
    for (QLineSeries* series : { m_overlayGpu, m_overlayCpu }) {
        if (series) {
            m_charts[Time]->removeSeries(series);
            delete series;
        }
    }
    m_overlayGpu = m_overlayCpu = nullptr;
    m_overlayMaxX = m_overlayMaxY = 0.0;
    if (runs.empty())
        return;

    auto dashed = [&](const QString& name, const QColor& color) {
        auto* series = addLine(Time, name, color);
        QPen pen(color.darker(130), 1.5, Qt::DashLine);
        series->setPen(pen);
        return series;
    };
    m_overlayGpu = dashed(QStringLiteral("GPU time, %1").arg(label), kGpuColor);
    m_overlayCpu = dashed(QStringLiteral("CPU submit time, %1").arg(label), kCpuColor);
    QList<QPointF> gpu, cpu;
    for (const RunResult& r : runs) {
        gpu.append({ double(r.index), r.gpuMs });
        cpu.append({ double(r.index), r.cpuSubmitMs() });
        m_overlayMaxY = std::max({ m_overlayMaxY, r.gpuMs, r.cpuSubmitMs() });
    }
    m_overlayMaxX = runs.back().index + 1.0;
    m_overlayGpu->replace(gpu);
    m_overlayCpu->replace(cpu);
}

int RunCharts::pointCount(Kind kind) const
{
    switch (kind) {
    case Time: return static_cast<int>(m_gpu->count());
    case Polls: return static_cast<int>(m_polls->count());
    case Stages: return static_cast<int>(m_h2d->count());
    }
    return 0;
}

}  // namespace asyncscope
