#include "gui/series/shown_name.hpp"

#include "engine/model/record_rules.hpp"

#include <QObject>

namespace asyncscope {

namespace {

constexpr std::string_view kEllipsis = "\u2026";

}  // namespace

QString shownName(std::string_view name)
{
    if (name.size() <= kMaxNameBytes)
        return QString::fromUtf8(name.data(), qsizetype(name.size()));
    std::size_t cut = kMaxNameBytes - kEllipsis.size();
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
        --cut;  // not inside a character's bytes
    return QString::fromUtf8(name.data(), qsizetype(cut)) + QString::fromUtf8(kEllipsis.data(), qsizetype(kEllipsis.size()));
}

QString shownName(const QString& name)
{
    if (name.size() * 3 <= qsizetype(kMaxNameBytes))
        return name;  // short enough in any encoding: no copy to UTF-8
    const QByteArray utf8 = name.toUtf8();
    return shownName(std::string_view(utf8.constData(), std::size_t(utf8.size())));
}

QString shownSeriesName(const QString& source)
{
    return source.isEmpty() ? QObject::tr("this run") : source;
}

}  // namespace asyncscope
