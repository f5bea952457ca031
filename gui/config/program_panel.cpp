#include "gui/config/program_panel.hpp"

#include "gui/config/panel_fields.hpp"
#include "gui/config/record_again.hpp"
#include "gui/session/shown_source.hpp"

#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <cstring>

namespace asyncscope {

namespace {

const char* const kRows[] = { QT_TRANSLATE_NOOP("ProgramPanel", "Command"),
    QT_TRANSLATE_NOOP("ProgramPanel", "Arguments"), QT_TRANSLATE_NOOP("ProgramPanel", "Folder"),
    QT_TRANSLATE_NOOP("ProgramPanel", "Iterations"), QT_TRANSLATE_NOOP("ProgramPanel", "Ended"),
    QT_TRANSLATE_NOOP("ProgramPanel", "GPU"), QT_TRANSLATE_NOOP("ProgramPanel", "Processes"),
    QT_TRANSLATE_NOOP("ProgramPanel", "Threads"), QT_TRANSLATE_NOOP("ProgramPanel", "Notes") };
constexpr int kMostListed = 12;  // processes, threads and notes listed; the rest counted

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

QString signalText(int signal)
{
    const char* name = ::strsignal(signal);
    return name ? ProgramPanel::tr("signal %1 (%2)").arg(signal).arg(QString::fromLocal8Bit(name))
                : ProgramPanel::tr("signal %1").arg(signal);
}

QString endText(const ProgramInfo& p)
{
    if (p.stopped)
        return ProgramPanel::tr("stopped by the recorder (its time ran out, or Stop): what it ran until then is kept");
    if (p.signal != 0)
        return ProgramPanel::tr("ended by %1").arg(signalText(p.signal));
    if (p.exitCode == 0)
        return ProgramPanel::tr("exited normally (status 0)");
    if (p.exitCode < 0)
        return ProgramPanel::tr("not known: the recording does not say how it ended");
    return ProgramPanel::tr("exited with status %1: it failed").arg(p.exitCode);
}

// Up to kMostListed lines, then how many more there are.
QString listed(const QStringList& lines)
{
    QStringList shown = lines.mid(0, kMostListed);
    if (lines.size() > kMostListed)
        shown << ProgramPanel::tr("… and %n more", nullptr, int(lines.size() - kMostListed));
    return shown.join(QLatin1Char('\n'));
}

QString processesText(const ProgramInfo& p)
{
    QStringList lines;
    for (const ProgramProcess& process : p.processes) {
        const QString name = QFileInfo(text(process.executable)).fileName();
        QString line = ProgramPanel::tr("PID %1 %2").arg(process.pid).arg(name);
        if (process.parent != 0)
            line += ProgramPanel::tr(", from PID %1").arg(process.parent);
        if (process.signal != 0)
            line += ProgramPanel::tr(", ended by %1").arg(signalText(process.signal));
        else if (!process.exited)
            line += ProgramPanel::tr(", did not exit normally");
        lines << line;
    }
    return listed(lines);
}

QString threadsText(const ProgramInfo& p)
{
    QStringList lines;
    for (const ProgramThread& thread : p.threads)
        lines << ProgramPanel::tr("PID %1, thread %2: %n run(s)", nullptr, int(thread.runs))
                     .arg(thread.pid)
                     .arg(thread.thread);
    return listed(lines);
}

}  // namespace

ProgramPanel::ProgramPanel(QWidget* parent)
    : QGroupBox(tr("Recorded program"), parent)
{
    setObjectName(QStringLiteral("programPanel"));
    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("programNote"));
    m_note->setWordWrap(true);
    auto* fields = new QWidget;
    m_rows = new QFormLayout(fields);
    m_rows->setRowWrapPolicy(QFormLayout::WrapLongRows);
    for (const char* row : kRows) {
        auto* value = new QLabel;
        value->setObjectName(QString::fromLatin1(row).toLower());
        value->setWordWrap(true);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        value->setTextFormat(Qt::PlainText);
        m_rows->addRow(tr(row) + QLatin1Char(':'), value);
    }
    auto* scroll = new QScrollArea;
    scroll->setWidget(fields);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_recordAgain = new QPushButton(tr("Record &again…"));
    m_recordAgain->setObjectName(QStringLiteral("recordAgain"));
    m_recordAgain->setToolTip(tip(tr("Opens File › Record a program… with this program, its arguments, its folder "
                                     "and the way its iterations were found. The report keeps no environment.")));
    connect(m_recordAgain, &QPushButton::clicked, this, [this] { emit recordAgainRequested(m_again); });
    auto* pipeline = new QPushButton(tr("&Pipeline settings"));
    pipeline->setObjectName(QStringLiteral("pipelineSettings"));
    pipeline->setToolTip(tip(tr("The built-in pipeline's own settings, to run it; the program's report stays shown.")));
    connect(pipeline, &QPushButton::clicked, this, &ProgramPanel::pipelineRequested);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_recordAgain);
    buttons->addWidget(pipeline);
    auto* column = new QVBoxLayout(this);
    column->addWidget(m_note);
    column->addWidget(scroll, 1);
    column->addLayout(buttons);
}

void ProgramPanel::showProgram(const ShownSource& source)
{
    const ProgramInfo* p = source.program();
    if (!p)
        return;
    m_note->setText(tr("Showing the program recorded in %1: its settings are its own, not the pipeline's.")
                        .arg(QFileInfo(source.path()).fileName()));
    setRow(tr("Command"), p->command.empty() ? tr("not recorded") : text(p->command.front()));
    setRow(tr("Arguments"),
        p->command.size() > 1 ? text(commandText(std::vector<std::string>(p->command.begin() + 1, p->command.end())))
                              : tr("none"));
    setRow(tr("Folder"), p->workingFolder.empty() ? tr("the folder it was recorded from") : text(p->workingFolder));
    setRow(tr("Iterations"), p->iterations.empty() ? tr("not recorded") : tr("split at %1").arg(text(p->iterations)));
    setRow(tr("Ended"), endText(*p));
    const DeviceInfo& d = source.device();
    setRow(tr("GPU"), d.name.empty() ? tr("not recorded")
                                     : tr("%1: %2, sm %3").arg(d.index).arg(text(d.name), text(d.computeCapability())));
    setRow(tr("Processes"), processesText(*p));
    setRow(tr("Threads"), threadsText(*p));
    QStringList notes;
    for (const std::string& note : p->notes)
        notes << text(note);
    setRow(tr("Notes"), listed(notes));
    m_again = recordSettingsOf(*p, loadRecordSettings());
    m_recordAgain->setEnabled(!p->command.empty());
}

void ProgramPanel::setRow(const QString& row, const QString& value)
{
    for (int r = 0; r < m_rows->rowCount(); ++r) {
        auto* label = qobject_cast<QLabel*>(m_rows->itemAt(r, QFormLayout::LabelRole)->widget());
        if (label->text() != row + QLatin1Char(':'))
            continue;
        qobject_cast<QLabel*>(m_rows->itemAt(r, QFormLayout::FieldRole)->widget())->setText(value);
        m_rows->setRowVisible(r, !value.isEmpty());
    }
}

QString ProgramPanel::rowText(const QString& row) const
{
    for (int r = 0; r < m_rows->rowCount(); ++r) {
        auto* label = qobject_cast<QLabel*>(m_rows->itemAt(r, QFormLayout::LabelRole)->widget());
        if (label->text() == row + QLatin1Char(':') && m_rows->isRowVisible(r))
            return qobject_cast<QLabel*>(m_rows->itemAt(r, QFormLayout::FieldRole)->widget())->text();
    }
    return {};
}

}  // namespace asyncscope
