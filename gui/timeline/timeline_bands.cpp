// The bands of blocks too narrow to draw one by one: made each time the blocks are placed, found under a point, and
// told of in a tooltip.
#include "gui/timeline/timeline_layout.hpp"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <limits>
#include <map>

namespace asyncscope {

void TimelineLayout::band()
{
    m_bands.clear();
    for (TimelineBlock& b : m_blocks)
        b.banded = false;
    const auto thin = [this](std::size_t i) { return m_blocks[i].rect.width() < kBandBlockPixels; };
    std::size_t k = 0;
    while (k < m_order.size()) {
        // The longest stretch of thin blocks from here on one row, each close to the one before it.
        std::size_t end = k + 1;
        double right = m_blocks[m_order[k]].rect.right();
        while (end < m_order.size() && thin(m_order[k]) && thin(m_order[end]) &&
            m_blocks[m_order[end]].row == m_blocks[m_order[k]].row &&
            m_blocks[m_order[end]].rect.left() - right < kBandGapPixels) {
            right = std::max(right, m_blocks[m_order[end]].rect.right());
            ++end;
        }
        if (end - k >= kLeastBanded) {
            TimelineBand band;
            band.row = m_blocks[m_order[k]].row;
            band.rect = m_blocks[m_order[k]].rect;
            bool kernels = true, sameKind = true;
            for (std::size_t j = k; j < end; ++j) {
                TimelineBlock& b = m_blocks[m_order[j]];
                b.banded = true;
                band.blocks.push_back(m_order[j]);
                band.rect = band.rect.united(b.rect);
                band.busyMs += b.span.ms();
                kernels = kernels && b.span.kind == SpanKind::Kernel;
                sameKind = sameKind && b.span.kind == m_blocks[m_order[k]].span.kind;
            }
            const int n = int(end - k);
            band.label = kernels ? QObject::tr("%1 kernels").arg(n)
                : sameKind && m_blocks[m_order[k]].span.kind == SpanKind::Api ? QObject::tr("%1 calls").arg(n)
                                                                                : QObject::tr("%1 operations").arg(n);
            m_bands.push_back(std::move(band));
        }
        k = end;
    }
}

int TimelineLayout::bandAt(const QPointF& point) const
{
    for (std::size_t i = 0; i < m_bands.size(); ++i) {
        const QRectF& r = m_bands[i].rect;
        if (point.y() >= r.top() && point.y() <= r.bottom() && point.x() >= r.left() - 1.0 &&
            point.x() <= r.right() + 1.0)
            return int(i);
    }
    return -1;
}

QString bandToolTip(const TimelineBand& band, const std::vector<TimelineBlock>& blocks)
{
    std::map<QString, int> byName;  // a kernel's or a call's name, else its kind
    double from = std::numeric_limits<double>::infinity(), to = -from;
    for (const std::size_t i : band.blocks) {
        const TimelineBlock& b = blocks[i];
        ++byName[b.name.isEmpty() ? (b.kindName.isEmpty() ? spanKindName(b.span.kind) : b.kindName) : b.label];
        from = std::min(from, b.span.beginMs);
        to = std::max(to, b.span.endMs);
    }
    std::vector<std::pair<int, QString>> commonest;
    for (const auto& [name, count] : byName)
        commonest.emplace_back(count, name);
    std::stable_sort(commonest.begin(), commonest.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList lines { QObject::tr("%1, each too short to draw at this zoom (zoom in to see them one by one)")
                            .arg(band.label) };
    for (std::size_t k = 0; k < commonest.size() && k < 5; ++k)
        lines << QObject::tr("%1 × %2").arg(commonest[k].first).arg(commonest[k].second);
    if (commonest.size() > 5)
        lines << QObject::tr("and %1 more names").arg(commonest.size() - 5);
    lines << QObject::tr("busy: %1 of %2").arg(formatDuration(band.busyMs), formatDuration(to - from));
    lines << QObject::tr("from %1 ms to %2 ms").arg(QString::number(from, 'f', 4), QString::number(to, 'f', 4));
    return lines.join('\n');
}

}  // namespace asyncscope
