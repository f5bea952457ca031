#include "gui/timeline/timeline_layout.hpp"

#include "gui/timeline/span_namer.hpp"

#include "engine/model/record_rules.hpp"
#include "engine/model/size_parse.hpp"
#include "engine/model/statistics.hpp"
#include "engine/model/trace_labels.hpp"
#include "engine/model/call_names.hpp"
#include "engine/record/iterations.hpp"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace asyncscope {

namespace {

constexpr double kBlockInset = 0.16;    // of a row's height, above and below its blocks
constexpr double kRightMargin = 0.02;   // of the run's range, after its last span
constexpr double kThinHit = 5.0;        // pixels across which a narrower block can be pointed at
constexpr int kMaxTicks = 60;

// Three significant figures, never in exponent notation.
QString threeFigures(double value)
{
    const double magnitude = std::abs(value);
    return QString::number(value, 'f', magnitude >= 100.0 ? 0 : magnitude >= 10.0 ? 1 : 2);
}

double niceStep(double span, double count)
{
    const double raw = span / std::max(1.0, count);
    if (!(raw > 0.0))
        return 1.0;
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : { 1.0, 2.0, 5.0 }) {
        if (raw <= m * decade * (1.0 + 1e-9))
            return m * decade;
    }
    return 10.0 * decade;
}

// A span the timeline can place: times finite, its end not before its begin, and (on the GPU) a stream a run can
// have. A run read from a file may hold anything; a stream of 5e7 would otherwise make as many rows.
bool placeable(const Span& span)
{
    if (!std::isfinite(span.beginMs) || !std::isfinite(span.endMs) || span.endMs < span.beginMs)
        return false;
    return !onGpu(span.kind) || (span.stream >= 0 && span.stream < kMaxStreams);
}

// "H2D", "kernel #3", "D2H (SM copy kernel)"; a page migration by where it went.
QString gpuLabel(const Span& span, bool chunked, const QString& copyMechanism)
{
    if (isMigration(span.kind))
        return span.kind == SpanKind::MigrateH2D ? QObject::tr("to device") : QObject::tr("to host");
    const QString name = span.kind == SpanKind::H2D ? QStringLiteral("H2D")
        : span.kind == SpanKind::Kernel            ? QStringLiteral("kernel")
                                                   : QStringLiteral("D2H");
    const QString numbered = chunked ? QStringLiteral("%1 #%2").arg(name).arg(span.chunk) : name;
    if (span.kind == SpanKind::Kernel || copyMechanism.isEmpty())
        return numbered;
    return QStringLiteral("%1 (%2)").arg(numbered, copyMechanism);
}

TimelineBlock blockOf(const Span& span, int row, QString label, QString kindName = {})
{
    TimelineBlock block;
    block.span = span;
    block.row = row;
    block.label = std::move(label);
    block.kindName = std::move(kindName);
    return block;
}

QString cpuLabel(const Span& span)
{
    switch (span.kind) {
    case SpanKind::Submit: return QStringLiteral("submit");
    case SpanKind::Wait: return QStringLiteral("wait");
    case SpanKind::Check: return QStringLiteral("check");
    case SpanKind::Api: return QString::fromLatin1(nameOf(span.call));
    default: return spanKindName(span.kind);
    }
}

}  // namespace

QString spanKindName(SpanKind kind)
{
    switch (kind) {
    case SpanKind::H2D: return QObject::tr("H2D copy");
    case SpanKind::Kernel: return QObject::tr("kernel");
    case SpanKind::D2H: return QObject::tr("D2H copy");
    case SpanKind::Submit: return QObject::tr("CPU submit");
    case SpanKind::Wait: return QObject::tr("CPU wait");
    case SpanKind::Check: return QObject::tr("host check");
    case SpanKind::Api: return QObject::tr("runtime call");
    case SpanKind::MigrateH2D: return QObject::tr("page migration to the device");
    case SpanKind::MigrateD2H: return QObject::tr("page migration to the host");
    }
    return {};
}

QString formatDuration(double ms)
{
    if (ms < 1.0)
        return QStringLiteral("%1 µs").arg(threeFigures(std::max(0.0, ms) * 1000.0));
    return QStringLiteral("%1 ms").arg(threeFigures(ms));
}

QString blockToolTip(const TimelineBlock& block)
{
    const Span& s = block.span;
    const QString kind = block.kindName.isEmpty() ? spanKindName(s.kind) : block.kindName;
    QStringList lines;
    if (block.gpuTime) {
        lines << QObject::tr("GPU time, start event to stop event (stage events off)");
    } else if (s.kind == SpanKind::Api && !block.name.isEmpty()) {
        lines << (block.role.isEmpty() ? block.name : QObject::tr("%1 · %2").arg(block.name, block.role));
    } else if (s.kind == SpanKind::Api) {
        lines << QObject::tr("%1 · runtime call").arg(QString::fromLatin1(nameOf(s.call)));
    } else if (s.kind == SpanKind::Kernel && !block.name.isEmpty()) {
        lines << QObject::tr("kernel · stream %1").arg(s.stream) << block.name;
    } else if (isMigration(s.kind)) {
        lines << QObject::tr("%1 · unified memory (CUPTI)").arg(kind);
    } else if (onGpu(s.kind)) {
        lines << QObject::tr("%1 · chunk %2 · stream %3").arg(kind).arg(s.chunk).arg(s.stream);
    } else {
        lines << kind;
    }
    if (s.bytes > 0)
        lines << QObject::tr("bytes: %1").arg(QString::fromStdString(formatBytes(s.bytes)));
    QString duration = QObject::tr("duration: %1").arg(formatDuration(s.ms()));
    if (onGpu(s.kind) && !block.gpuTime && s.bytes > 0 && s.ms() > 0.0)
        duration += QObject::tr(" · %1 GB/s").arg(threeFigures(gigabytesPerSecond(double(s.bytes), s.ms())));
    lines << duration;
    lines << QObject::tr("from %1 ms to %2 ms")
                 .arg(QString::number(s.beginMs, 'f', 4), QString::number(s.endMs, 'f', 4));
    return lines.join('\n');
}

QString TimelineLayout::kindName(SpanKind kind) const
{
    if ((kind == SpanKind::H2D || kind == SpanKind::D2H) && !m_copyMechanism.isEmpty())
        return QStringLiteral("%1 (%2)").arg(spanKindName(kind), m_copyMechanism);
    return spanKindName(kind);
}

void TimelineLayout::clear()
{
    m_rows.clear();
    m_blocks.clear();
    m_bands.clear();
    m_order.clear();
    m_gpuTraced = m_cpuTraced = m_stagesOff = m_migrations = false;
    m_copyMechanism.clear();
    m_fullBegin = m_begin = 0.0;
    m_fullEnd = m_end = 1.0;
    m_zoomed = false;
}

void TimelineLayout::setRun(const RunResult& run, int streams)
{
    PipelineConfig config;  // copies by the copy engines
    config.streams = streams;
    setRun(run, config);
}

void TimelineLayout::setRun(const RunResult& run, const PipelineConfig& config, const ProgramInfo* program)
{
    const int streams = config.streams;
    m_copyMechanism = QString::fromStdString(copyMechanismText(config));
    m_rows.clear();
    m_blocks.clear();
    const auto traced = [&run](auto pick) { return std::any_of(run.traced.begin(), run.traced.end(), pick); };
    m_gpuTraced = traced([](const Span& s) { return onGpu(s.kind); });
    m_cpuTraced = traced([](const Span& s) { return s.kind == SpanKind::Api; });
    const std::vector<Span>& gpu = m_gpuTraced ? run.traced : run.spans;
    int streamCount = std::clamp(streams, 1, kMaxStreams);  // a row per stream: never more than a run can have
    bool chunked = false;
    m_stagesOff = true;
    m_migrations = false;
    for (const Span& s : gpu) {
        if (!onGpu(s.kind) || !placeable(s))
            continue;
        if (isMigration(s.kind)) {
            m_migrations = true;
            continue;
        }
        m_stagesOff = false;
        streamCount = std::max(streamCount, s.stream + 1);
        chunked = chunked || s.chunk > 0;
    }

    // A program's run is its thread's: its CPU spans on the thread's lane; it has no host check.
    const int lane = program ? threadPlaceOf(run) : 0;
    if (program && std::size_t(lane) < program->threads.size() && program->threads.size() > 1)
        m_rows.push_back({ TimelineRow::Cpu, 0,
            QObject::tr("CPU · thread %1 · pid %2").arg(lane + 1).arg(program->threads[std::size_t(lane)].pid) });
    else
        m_rows.push_back({ TimelineRow::Cpu, 0, QObject::tr("CPU · submit & wait") });
    if (!program)
        m_rows.push_back({ TimelineRow::Check, 0, QObject::tr("CPU · check threads") });
    const int kFirstGpuRow = int(m_rows.size());
    if (m_stagesOff) {
        m_rows.push_back({ TimelineRow::GpuTime, 0, QObject::tr("GPU (start → stop event)") });
    } else {
        for (int s = 0; s < streamCount; ++s)
            m_rows.push_back({ TimelineRow::Stream, s, QObject::tr("Stream %1").arg(s) });
    }
    const int migrationRow = int(m_rows.size());
    if (m_migrations)
        m_rows.push_back({ TimelineRow::Migrations, 0, QObject::tr("Unified memory · page migrations") });

    m_blocks.reserve(gpu.size() + run.traced.size() + 4);
    SpanNamer named(program);
    if (m_cpuTraced) {
        for (const Span& s : run.traced) {
            if (s.kind == SpanKind::Api && placeable(s)) {
                TimelineBlock block = blockOf(s, 0, cpuLabel(s));
                named.call(block);
                m_blocks.push_back(std::move(block));
            }
        }
    }
    for (const Span& s : run.spans) {
        if (!placeable(s))
            continue;
        const bool cpuRow =
            s.stream == lane && (s.kind == SpanKind::Wait || (s.kind == SpanKind::Submit && !m_cpuTraced));
        if (cpuRow)
            m_blocks.push_back(blockOf(s, 0, cpuLabel(s)));
        else if (s.kind == SpanKind::Check && !program)
            m_blocks.push_back(blockOf(s, 1, cpuLabel(s)));
    }
    if (m_stagesOff) {
        if (run.gpuMs > 0.0 && std::isfinite(run.gpuMs)) {
            Span total;
            total.kind = SpanKind::Kernel;  // stands for the whole pipeline; TimelineBlock::gpuTime says so
            total.endMs = run.gpuMs;
            TimelineBlock whole = blockOf(total, kFirstGpuRow, QObject::tr("GPU %1").arg(formatDuration(run.gpuMs)));
            whole.gpuTime = true;
            m_blocks.push_back(std::move(whole));
        }
    } else {
        for (const Span& s : gpu) {
            if (onGpu(s.kind) && !isMigration(s.kind) && placeable(s)) {
                TimelineBlock block =
                    blockOf(s, kFirstGpuRow + s.stream, gpuLabel(s, chunked, m_copyMechanism), kindName(s.kind));
                named.kernel(block);
                m_blocks.push_back(std::move(block));
            }
        }
    }
    if (m_migrations) {
        for (const Span& s : gpu) {
            if (isMigration(s.kind) && placeable(s))
                m_blocks.push_back(blockOf(s, migrationRow, gpuLabel(s, chunked, m_copyMechanism), kindName(s.kind)));
        }
    }

    double begin = 0.0, end = std::isfinite(run.gpuMs) ? std::max(0.0, run.gpuMs) : 0.0;
    for (const TimelineBlock& b : m_blocks) {
        begin = std::min(begin, b.span.beginMs);
        end = std::max(end, b.span.endMs);
    }
    if (!(end > begin))
        end = begin + 1.0;
    m_fullBegin = begin;
    m_fullEnd = end + kRightMargin * (end - begin);
    m_order.resize(m_blocks.size());
    std::iota(m_order.begin(), m_order.end(), std::size_t(0));
    std::stable_sort(m_order.begin(), m_order.end(), [this](std::size_t a, std::size_t b) {
        const Span& x = m_blocks[a].span;
        const Span& y = m_blocks[b].span;
        return m_blocks[a].row != m_blocks[b].row ? m_blocks[a].row < m_blocks[b].row : x.beginMs < y.beginMs;
    });
    // A zoom the user chose stays while it shows part of the run; otherwise the run fits.
    if (!m_zoomed || m_end <= m_fullBegin || m_begin >= m_fullEnd)
        resetZoom();
    else
        place();
}

void TimelineLayout::zoomAround(double ms, double factor)
{
    if (!(factor > 0.0))
        return;
    const double width = m_end - m_begin;
    const double wanted = std::clamp(width / factor, kLeastVisibleMs, m_fullEnd - m_fullBegin);
    const double begin = ms - (ms - m_begin) * (wanted / width);
    setVisible(begin, begin + wanted);
}

void TimelineLayout::zoomTo(double begin, double end)
{
    if (end < begin)
        std::swap(begin, end);
    setVisible(begin, end);
}

void TimelineLayout::pan(double ms)
{
    if (m_zoomed)
        setVisible(m_begin + ms, m_end + ms);
}

void TimelineLayout::resetZoom()
{
    m_begin = m_fullBegin;
    m_end = m_fullEnd;
    m_zoomed = false;
    place();
}

void TimelineLayout::setVisible(double begin, double end)
{
    const double full = m_fullEnd - m_fullBegin;
    const double width = std::clamp(end - begin, std::min(kLeastVisibleMs, full), full);
    if (width >= full * (1.0 - 1e-9))
        return resetZoom();
    m_begin = std::clamp(begin, m_fullBegin, m_fullEnd - width);
    m_end = m_begin + width;
    m_zoomed = true;
    place();
}

void TimelineLayout::setPlot(const QRectF& plot)
{
    m_plot = plot;
    place();
}

void TimelineLayout::setMaxRowHeight(double pixels)
{
    m_maxRowHeight = pixels;
    place();
}

QRectF TimelineLayout::rowRect(int row) const
{
    if (m_rows.empty())
        return {};
    const double height = std::min(m_maxRowHeight, m_plot.height() / double(m_rows.size()));
    return QRectF(m_plot.left(), m_plot.top() + row * height, m_plot.width(), height);
}

double TimelineLayout::xOf(double ms) const
{
    return m_plot.left() + (ms - m_begin) / (m_end - m_begin) * m_plot.width();
}

double TimelineLayout::msAt(double x) const
{
    if (!(m_plot.width() > 0.0))
        return m_begin;
    return m_begin + (x - m_plot.left()) / m_plot.width() * (m_end - m_begin);
}

void TimelineLayout::place()
{
    if (m_rows.empty() || m_plot.isEmpty())
        return;
    const double height = rowRect(0).height();
    const double inset = height * kBlockInset;
    for (TimelineBlock& b : m_blocks) {
        const double left = xOf(b.span.beginMs);
        const double right = xOf(b.span.endMs);
        b.rect = QRectF(left, m_plot.top() + b.row * height + inset, std::max(1.0, right - left), height - 2.0 * inset);
    }
    band();
}

int TimelineLayout::blockAt(const QPointF& point) const
{
    int best = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < m_blocks.size(); ++i) {
        const QRectF& r = m_blocks[i].rect;
        if (m_blocks[i].banded || point.y() < r.top() || point.y() > r.bottom())
            continue;
        const double slack = std::max(0.0, (kThinHit - r.width()) / 2.0);
        const double distance = point.x() < r.left() ? r.left() - point.x()
            : point.x() > r.right()                  ? point.x() - r.right()
                                                     : 0.0;
        if (distance <= slack && distance < bestDistance) {
            best = int(i);
            bestDistance = distance;
        }
    }
    return best;
}

TimelineTicks TimelineLayout::ticks(double pixelsPerTick) const
{
    TimelineTicks ticks;
    const double width = m_end - m_begin;
    const double count = std::clamp(m_plot.width() / pixelsPerTick, 2.0, 12.0);
    ticks.step = niceStep(width, count);
    ticks.decimals = std::max(0, int(-std::floor(std::log10(ticks.step) + 1e-9)));
    const double first = std::ceil(m_begin / ticks.step - 1e-9) * ticks.step;
    ticks.at.reserve(16);
    for (int i = 0; i < kMaxTicks; ++i) {
        const double at = first + i * ticks.step;
        if (at > m_end + 1e-9 * width)
            break;
        ticks.at.push_back(std::abs(at) < 1e-12 * ticks.step ? 0.0 : at);
    }
    return ticks;
}

}  // namespace asyncscope
