#include "gui/session/overlay_list.hpp"

#include <QCoreApplication>
#include <QFileInfo>

namespace asyncscope {

void OverlayList::add(SavedRun overlay)
{
    m_items.push_back(std::move(overlay));
}

void OverlayList::setBaseline(SavedRun baseline)
{
    clearBaseline();
    m_items.push_back(std::move(baseline));
    m_baseline = m_items.size() - 1;
}

bool OverlayList::clearBaseline()
{
    if (!m_baseline)
        return false;
    m_items.erase(m_items.begin() + std::ptrdiff_t(*m_baseline));
    m_baseline.reset();
    return true;
}

bool OverlayList::clear()
{
    m_items.clear();
    const bool hadBaseline = m_baseline.has_value();
    m_baseline.reset();
    return hadBaseline;
}

QStringList OverlayList::dropFile(const QString& path)
{
    QStringList dropped;
    const QString canonical = QFileInfo(path).canonicalFilePath();
    for (std::size_t o = m_items.size(); o-- > 0;) {
        if (QFileInfo(m_items[o].path).canonicalFilePath() != canonical || m_baseline == o)
            continue;
        dropped.prepend(m_items[o].label);
        m_items.erase(m_items.begin() + std::ptrdiff_t(o));
        if (m_baseline && *m_baseline > o)
            --*m_baseline;
    }
    return dropped;
}

bool OverlayList::name(const ShownLabel* shown, QString* shownName)
{
    std::vector<ShownLabel> named;
    if (shown)
        named.push_back(*shown);
    for (SavedRun& overlay : m_items) {
        if (overlay.fileLabel.isEmpty())
            overlay.fileLabel = overlay.label;
        named.push_back({ overlay.fileLabel, overlay.path, &overlay.report });
    }
    const std::vector<QString> names = distinctLabels(named);
    std::size_t n = 0;
    if (shown)
        *shownName = names[n++];
    bool renamed = false;
    for (std::size_t o = 0; o < m_items.size(); ++o, ++n) {
        const QString label =
            m_baseline == o ? QCoreApplication::translate("OverlayList", "baseline · %1").arg(names[n])
                            : names[n];
        renamed = renamed || label != m_items[o].label;
        m_items[o].label = label;
    }
    return renamed;
}

}  // namespace asyncscope
