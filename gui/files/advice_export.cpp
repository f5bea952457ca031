#include "gui/files/advice_export.hpp"

#include "gui/files/save_file.hpp"

#include "engine/io/text_report.hpp"

#include <QFileInfo>
#include <QObject>

namespace asyncscope {

namespace {

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

// "AsyncScope advice on this series (200 runs, judged while it is measured)".
QString heading(const ShownAdvice& a)
{
    QString about = a.runs == 1 ? QObject::tr("1 run") : QObject::tr("%1 runs").arg(a.runs);
    if (a.comparison)
        about = QObject::tr("%1 variants judged, ").arg(a.parts.size()) + about;
    if (a.measuring)
        about += QObject::tr(", judged while it is measured: the machine's state comes when it ends");
    return QObject::tr("AsyncScope advice on %1 (%2)").arg(a.subject, about);
}

// The CLI's words: a series' machine line and advice as its summary ends; a comparison's by variant, the variants with
// findings only, then the rules not checked, each once.
QString plainText(const ShownAdvice& a)
{
    QString out = heading(a) + QLatin1Char('\n');
    if (!a.comparison) {
        const ShownAdvice::Part& p = a.parts.front();
        if (!p.machine.isEmpty())
            out += p.machine + QLatin1Char('\n');
        return out + text(formatAdviceText(p.advice, 0));
    }
    for (const ShownAdvice::Part& p : a.parts) {
        if (p.advice.findings.empty())
            continue;
        out += p.label + QLatin1String(":\n");
        if (!p.machine.isEmpty())
            out += QLatin1String("  ") + p.machine + QLatin1Char('\n');
        out += text(formatAdviceText(Advice { p.advice.findings, {}, {} }, 2));
    }
    if (!a.worst())
        out += QObject::tr("no findings on any variant") + QLatin1Char('\n');
    // formatAdviceText heads the rules not checked with "advice:" and a series' "no findings": said above.
    Advice unchecked;
    unchecked.notChecked = a.notChecked();
    QString lines = text(formatAdviceText(unchecked, 0));
    lines.remove(QStringLiteral("advice:\n"));
    lines.remove(QStringLiteral("  no findings\n"));
    return out + lines;
}

// Markdown's punctuation, taken literally: the findings name flags (--chunks), symbols (EXCLUSIVE_PROCESS) and ratios.
QString md(const QString& plain)
{
    QString out;
    out.reserve(plain.size() + 8);
    for (const QChar c : plain) {
        if (QStringLiteral("\\`*_[]<>#|").contains(c))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

QString markdown(const ShownAdvice& a)
{
    QString out = QStringLiteral("# %1\n\n").arg(md(heading(a)));
    for (const ShownAdvice::Part& p : a.parts) {
        if (a.comparison)
            out += QStringLiteral("## %1\n\n").arg(md(p.label));
        if (p.advice.findings.empty())
            out += QObject::tr("No findings.") + QStringLiteral("\n\n");
        for (const Finding& f : p.advice.findings) {
            const QString severity = text(nameOf(f.severity));
            out += QStringLiteral("- **%1: %2.** %3.\n  *%4* %5")
                       .arg(md(severity.left(1).toUpper() + severity.mid(1)), md(text(f.title)), md(text(f.evidence)),
                           QObject::tr("Do:"), md(text(f.action)));
            if (!f.runs.empty())
                out += QStringLiteral(" (%1)").arg(md(text(runRangesText(f.runs))));
            out += QStringLiteral("\n");
        }
        if (!p.advice.findings.empty())
            out += QStringLiteral("\n");
        if (!p.machine.isEmpty())
            out += md(p.machine) + QStringLiteral("\n\n");
    }
    const std::vector<NotChecked> unchecked = a.notChecked();
    if (!unchecked.empty()) {
        out += QStringLiteral("## %1\n\n").arg(QObject::tr("Not checked"));
        for (const NotChecked& n : unchecked)
            out += QStringLiteral("- `%1`: %2\n").arg(text(n.rule), md(text(n.why)));
    }
    return out;
}

}  // namespace

QString adviceText(const ShownAdvice& advice, AdviceFormat format)
{
    if (advice.empty())
        return QObject::tr("No advice yet: run a series, or open a saved one, to have it judged.") +
            QLatin1Char('\n');
    return format == AdviceFormat::Markdown ? markdown(advice) : plainText(advice);
}

QString exportAdvice(const ShownAdvice& advice, const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool markdownFile = suffix == QLatin1String("md") || suffix == QLatin1String("markdown");
    const QByteArray bytes = adviceText(advice, markdownFile ? AdviceFormat::Markdown : AdviceFormat::Text).toUtf8();
    return saveStream(path, [&bytes](std::ostream& out) { out.write(bytes.constData(), bytes.size()); });
}

}  // namespace asyncscope
