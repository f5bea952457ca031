#include "gui/advice/advice_panel.hpp"

#include "gui/files/file_dialogs.hpp"
#include "gui/files/save_file.hpp"

#include "engine/io/text_report.hpp"
#include "engine/run/plan_advice.hpp"
#include "engine/run/plan_summary.hpp"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace asyncscope {

namespace {

// Badge colours dark enough for white words, light enough to tell apart on a dark window.
QString severityColour(Severity s)
{
    switch (s) {
    case Severity::Severe: return QStringLiteral("#c62828");
    case Severity::Warning: return QStringLiteral("#b45309");
    case Severity::Suggestion: return QStringLiteral("#1d63b8");
    case Severity::Info: return QStringLiteral("#5b6770");
    }
    return QStringLiteral("#5b6770");
}

QString html(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

// Where a finding's link goes, in words.
QString jumpText(const Finding& f)
{
    if (!f.runs.empty())
        return AdvicePanel::tr("Show %1 in the Time chart").arg(QString::fromStdString(runRangesText(f.runs)));
    if (f.stages)
        return AdvicePanel::tr("Open the timeline");
    return AdvicePanel::tr("Show the summary");
}

}  // namespace

AdvicePanel::AdvicePanel(QWidget* parent)
    : QWidget(parent)
{
    m_title = new QLabel(tr("No series yet: run one, or open a saved one, to see what limits it."));
    m_title->setWordWrap(true);
    m_copy = new QPushButton(tr("Copy"));
    m_copy->setToolTip(tr("Copy the advice as text"));
    m_save = new QPushButton(tr("Save as text…"));
    connect(m_copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_plain); });
    connect(m_save, &QPushButton::clicked, this, &AdvicePanel::save);
    auto* top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_copy);
    top->addWidget(m_save);

    m_text = new QTextBrowser;
    m_text->setOpenLinks(false);
    m_text->setOpenExternalLinks(false);
    m_text->setFocusPolicy(Qt::StrongFocus);  // Tab reaches its links, Enter follows one
    m_text->setAccessibleName(tr("Advice"));
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        // "finding:<variant>:<index>"
        const QStringList parts = url.toString().split(QLatin1Char(':'));
        if (parts.size() != 3 || parts[0] != QLatin1String("finding"))
            return;
        const int variant = parts[1].toInt(), index = parts[2].toInt();
        if (variant < 0 || std::size_t(variant) >= m_advice.size() || index < 0
            || std::size_t(index) >= m_advice[std::size_t(variant)].findings.size())
            return;
        emit findingActivated(m_advice[std::size_t(variant)].findings[std::size_t(index)],
            m_advice.size() == 1 ? -1 : variant);
    });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_text, 1);
    clear();
}

void AdvicePanel::clear()
{
    m_advice.clear();
    m_plain.clear();
    m_title->setText(tr("No series yet: run one, or open a saved one, to see what limits it."));
    m_text->clear();
    m_copy->setEnabled(false);
    m_save->setEnabled(false);
    emit changed();
}

void AdvicePanel::showSeries(const Report& report, const SeriesSummary& summary, const QString& source)
{
    if (summary.measuredRuns == 0)
        return clear();
    m_advice = { judgeSeries(report, summary) };
    render({ source }, { report.machine ? &*report.machine : nullptr });
}

void AdvicePanel::showComparison(const PlanReport& plan)
{
    const std::vector<SeriesSummary> summaries = summarizePlan(plan);
    m_advice = advisePlan(plan, summaries);
    QStringList labels;
    std::vector<const MachineState*> machines;
    for (const VariantResult& v : plan.variants) {
        labels << QString::fromStdString(v.label);
        machines.push_back(v.report.machine ? &*v.report.machine : nullptr);
    }
    render(labels, machines);
}

std::optional<Severity> AdvicePanel::worst() const
{
    std::optional<Severity> worst;
    for (const Advice& a : m_advice) {
        if (const auto w = a.worst(); w && (!worst || *w > *worst))
            worst = w;
    }
    return worst;
}

int AdvicePanel::alarms() const
{
    int n = 0;
    for (const Advice& a : m_advice) {
        for (const Finding& f : a.findings)
            n += f.severity >= Severity::Warning ? 1 : 0;
    }
    return n;
}

QString AdvicePanel::alarmText() const
{
    int severe = 0, warnings = 0;
    for (const Advice& a : m_advice) {
        for (const Finding& f : a.findings) {
            severe += f.severity == Severity::Severe ? 1 : 0;
            warnings += f.severity == Severity::Warning ? 1 : 0;
        }
    }
    QStringList parts;
    if (severe > 0)
        parts << tr("%1 severe").arg(severe);
    if (warnings > 0)
        parts << (warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings));
    return parts.join(QStringLiteral(", "));
}

void AdvicePanel::render(const QStringList& labels, const std::vector<const MachineState*>& machines)
{
    int counts[4] = {};
    for (const Advice& a : m_advice) {
        for (const Finding& f : a.findings)
            ++counts[int(f.severity)];
    }
    QStringList summary;
    for (const Severity s : { Severity::Severe, Severity::Warning, Severity::Suggestion, Severity::Info }) {
        if (counts[int(s)] > 0)
            summary << QStringLiteral("%1 %2").arg(counts[int(s)]).arg(QString::fromUtf8(nameOf(s)));
    }
    const QString what
        = m_advice.size() == 1 ? labels.value(0) : tr("the comparison's %1 variants").arg(m_advice.size());
    m_title->setText(summary.isEmpty() ? tr("Advice on %1: nothing to say.").arg(what)
                                       : tr("Advice on %1: %2.").arg(what, summary.join(QStringLiteral(", "))));

    // Rules not checked, said once where every variant shares the reason.
    std::vector<NotChecked> unchecked;
    for (const Advice& a : m_advice) {
        for (const NotChecked& n : a.notChecked) {
            if (std::none_of(unchecked.begin(), unchecked.end(),
                    [&n](const NotChecked& u) { return u.rule == n.rule && u.why == n.why; }))
                unchecked.push_back(n);
        }
    }

    QString page;
    m_plain = m_title->text() + QLatin1Char('\n');
    for (std::size_t v = 0; v < m_advice.size(); ++v) {
        const Advice& a = m_advice[v];
        if (m_advice.size() > 1) {
            if (a.findings.empty())
                continue;
            page += QStringLiteral("<h3>%1</h3>").arg(labels.value(int(v)).toHtmlEscaped());
            m_plain += QLatin1Char('\n') + labels.value(int(v)) + QLatin1Char(':') + QLatin1Char('\n');
        }
        for (std::size_t i = 0; i < a.findings.size(); ++i) {
            const Finding& f = a.findings[i];
            const QString link = QStringLiteral("finding:%1:%2").arg(v).arg(i);
            page += QStringLiteral("<p style=\"margin-top:10px; margin-bottom:2px\">"
                                   "<span style=\"background-color:%1; color:#ffffff; font-weight:bold\">"
                                   "&nbsp;%2&nbsp;</span>&nbsp; <a href=\"%3\"><b>%4</b></a></p>")
                        .arg(severityColour(f.severity), QString::fromUtf8(nameOf(f.severity)).toUpper(), link,
                            html(f.title));
            page += QStringLiteral("<p style=\"margin-left:16px; margin-top:2px; margin-bottom:2px\">%1.</p>")
                        .arg(html(f.evidence));
            page += QStringLiteral("<p style=\"margin-left:16px; margin-top:2px; margin-bottom:2px\">"
                                   "<b>%1</b> %2</p>")
                        .arg(tr("Do:"), html(f.action));
            page += QStringLiteral("<p style=\"margin-left:16px; margin-top:2px\"><a href=\"%1\">%2 ›</a></p>")
                        .arg(link, jumpText(f).toHtmlEscaped());
        }
        Advice findingsOnly = a;
        findingsOnly.notChecked.clear();
        m_plain += QString::fromStdString(formatAdviceText(findingsOnly, 0));
        if (v < machines.size() && machines[v]) {
            const QString machine = QString::fromStdString(formatMachineText(*machines[v]));
            if (m_advice.size() == 1 || machines[v] != machines.front())
                page += QStringLiteral("<p style=\"margin-top:12px\"><i>%1</i></p>").arg(machine.toHtmlEscaped());
            m_plain += machine + QLatin1Char('\n');
        }
    }
    if (!unchecked.empty()) {
        page += QStringLiteral("<h4>%1</h4><ul>").arg(tr("Not checked"));
        Advice notChecked;
        notChecked.notChecked = unchecked;
        m_plain += QString::fromStdString(formatAdviceText(notChecked, 0));
        for (const NotChecked& n : unchecked)
            page += QStringLiteral("<li><b>%1</b>: %2</li>").arg(html(n.rule), html(n.why));
        page += QStringLiteral("</ul>");
    }
    m_text->setHtml(page);
    m_copy->setEnabled(true);
    m_save->setEnabled(true);
    emit changed();
}

void AdvicePanel::save()
{
    const QString path = askSavePath(this, m_folder, tr("Save the advice"), QStringLiteral("advice.txt"),
        tr("Text (*.txt *.md)"));
    if (path.isEmpty())
        return;
    m_folder = QFileInfo(path).absolutePath();
    const std::string text = m_plain.toStdString();
    const QString problem = saveStream(path, [&text](std::ostream& out) { out << text; });
    if (!problem.isEmpty())
        m_title->setText(problem);
}

}  // namespace asyncscope
