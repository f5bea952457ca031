#include "gui/series/shown_name.hpp"

#include "engine/model/display_text.hpp"
#include "engine/model/record_rules.hpp"

#include <QObject>

#include <algorithm>

namespace asyncscope {

namespace {

constexpr std::string_view kEllipsis = "\u2026";

}  // namespace

QString shownName(std::string_view given)
{
    // Control characters shown escaped ("\x1b"), as a text report shows them: a label draws them as boxes.
    const std::string escaped = displayText(given);
    const std::string_view name = escaped;
    if (name.size() <= kMaxNameBytes)
        return QString::fromUtf8(name.data(), qsizetype(name.size()));
    std::size_t cut = kMaxNameBytes - kEllipsis.size();
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
        --cut;  // not inside a character's bytes
    return QString::fromUtf8(name.data(), qsizetype(cut)) + QString::fromUtf8(kEllipsis.data(), qsizetype(kEllipsis.size()));
}

QString shownName(const QString& name)
{
    const bool plain = std::none_of(name.begin(), name.end(), [](QChar c) {
        return c.unicode() < 0x20 || (c.unicode() >= 0x7F && c.unicode() <= 0x9F);
    });
    if (plain && name.size() * 3 <= qsizetype(kMaxNameBytes))
        return name;  // short enough in any encoding, no control character: no copy to UTF-8
    const QByteArray utf8 = name.toUtf8();
    return shownName(std::string_view(utf8.constData(), std::size_t(utf8.size())));
}

namespace {

// Where `text` may be cut: not between the two halves of a character outside the Basic Multilingual Plane.
int cutAt(const QString& text, int at)
{
    return at > 0 && at < text.size() && text.at(at).isLowSurrogate() ? at - 1 : at;
}

}  // namespace

QString shortName(const QString& name, const QStringList& others, int maxChars)
{
    if (name.size() <= maxChars || maxChars < 3)
        return name;
    const QString ellipsis = QString::fromUtf8(kEllipsis.data(), qsizetype(kEllipsis.size()));
    // Where it first differs from the name most like it; the whole name when it shares no start with another.
    qsizetype shared = 0;
    for (const QString& other : others) {
        if (other == name)
            continue;
        qsizetype same = 0;
        while (same < name.size() && same < other.size() && name.at(same) == other.at(same))
            ++same;
        shared = std::max(shared, same);
    }
    const int room = maxChars - 1;  // beside the ellipsis
    const int head = room / 3;      // a third for the start, the rest for the end
    const qsizetype differs = std::min(shared, name.size() - 1);
    if (name.size() - differs <= room - head || differs == 0) {
        // What tells it apart lies in the end kept (or nothing shares its start): one cut in the middle.
        const int start = cutAt(name, head);
        return name.left(start) + ellipsis + name.right(room - start);
    }
    if (name.size() - differs <= room - 4) {
        // The end kept begins where it differs, after a shorter start.
        const int start = cutAt(name, int(room - (name.size() - differs)));
        return name.left(start) + ellipsis + name.right(room - start);
    }
    // It differs far from its end: the start, the part that differs, and the end, with a cut on either side.
    const int tail = std::max(1, room / 4);
    const int start = cutAt(name, std::max(1, room / 4));
    const int middle = room - 1 - start - tail;
    const qsizetype from = cutAt(name, int(std::max<qsizetype>(start, differs - middle / 3)));
    return name.left(start) + ellipsis + name.mid(from, middle) + ellipsis + name.right(tail);
}

QStringList shortNames(const QStringList& names, int maxChars)
{
    QStringList out;
    for (const QString& name : names)
        out << shortName(name, names, maxChars);
    return out;
}

QString shownSeriesName(const QString& source)
{
    return source.isEmpty() ? QObject::tr("this run") : source;
}

}  // namespace asyncscope
