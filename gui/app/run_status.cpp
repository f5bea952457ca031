#include "gui/app/run_status.hpp"

#include "gui/advice/advice_panel.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/series/shown_name.hpp"
#include "gui/session/plan_verdict.hpp"
#include "gui/session/session_model.hpp"

#include "engine/model/cuda_versions.hpp"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QRegularExpression>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>

namespace asyncscope {

// A flat button whose words are cut with an ellipsis to the room the status bar gives it, rather than widening the
// window; the whole line is its tooltip.
class ElidedButton : public QPushButton {
public:
    ElidedButton()
    {
        setFlat(true);
        setCursor(Qt::PointingHandCursor);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);  // whole where there is room, else cut
    }
    // `forms`: the whole text first, then shorter ones that keep what matters; shown is the longest that fits.
    void setForms(const QStringList& forms)
    {
        m_forms = forms;
        const QString whole = this->whole();
        setToolTip(whole.isEmpty() ? QString() : whole + tr("\nClick to show the Difference tab."));
        setAccessibleName(whole);
        updateGeometry();
        update();
    }
    QString whole() const { return m_forms.value(0); }
    // What the button shows at its width now: the longest form that fits, or the shortest cut at the end.
    QString shown() const
    {
        const int room = width() - 8;
        for (const QString& form : m_forms) {
            if (fontMetrics().horizontalAdvance(form) <= room)
                return form;
        }
        return fontMetrics().elidedText(m_forms.value(m_forms.size() - 1), Qt::ElideRight, room);
    }
    QSize sizeHint() const override
    {
        return { fontMetrics().horizontalAdvance(whole()) + 16, QPushButton::sizeHint().height() };
    }
    // Where there are shorter forms (a verdict), room for the shortest: its figure is never cut away.
    QSize minimumSizeHint() const override
    {
        const int shortest = m_forms.size() > 1 ? fontMetrics().horizontalAdvance(m_forms.back()) + 16 : 0;
        return { shortest, QPushButton::minimumSizeHint().height() };
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        const QRect room = rect().adjusted(4, 0, -4, 0);
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(room, Qt::AlignLeft | Qt::AlignVCenter, shown());
        if (hasFocus()) {
            painter.setPen(QPen(palette().color(QPalette::Highlight), 1.0));
            painter.drawRect(rect().adjusted(0, 0, -1, -1));
        }
    }

private:
    QStringList m_forms;
};

QStringList baselineForms(const SessionModel& session)
{
    const SavedRun* baseline = session.baseline();
    if (!baseline)
        return {};
    const QString name = QFileInfo(baseline->path).fileName();
    const QString blocking = QString::fromStdString(differencesText(session.baselines().differences()));
    using State = BaselineController::State;
    switch (session.baselines().state()) {
    case State::None: break;
    case State::NoSeries: return { QObject::tr("Baseline %1: run a series or open one to compare with it").arg(name) };
    case State::TooFewRuns:
        return { QObject::tr("Baseline %1: not compared, %2")
                     .arg(name, QString::fromStdString(session.baselines().refusal())) };
    case State::Measuring: return { QObject::tr("Baseline %1: compared when the series ends").arg(name) };
    case State::NeedsConsent:
        return { QObject::tr("Baseline %1: the configurations differ (%2); compare anyway?").arg(name, blocking) };
    case State::Declined:
        return { QObject::tr("Baseline %1: not compared, the configurations differ (%2)").arg(name, blocking) };
    case State::Comparing: return { QObject::tr("Baseline %1: comparing…").arg(name) };
    case State::Compared: {
        const BaselineComparison& c = *session.baselines().comparison();
        const QString headline = QString::fromStdString(c.headline());
        QString brief = headline;
        brief.remove(QRegularExpression(QStringLiteral(" \\(interval [^)]*\\)")));
        brief.replace(QRegularExpression(QStringLiteral(" \\(across configurations: .*\\)$")),
            QObject::tr(" (across configurations)"));
        const bool anyway = session.baselines().comparedUnasked() && c.acrossConfigurations;
        return { anyway ? QObject::tr("Baseline %1, compared anyway: %2").arg(name, headline)
                        : QObject::tr("Baseline %1: %2").arg(name, headline),
            QObject::tr("Baseline: %1").arg(headline), headline, QObject::tr("Baseline: %1").arg(brief), brief };
    }
    }
    return {};
}

void addSettingsNote(QStatusBar& bar, const QString& problem)
{
    if (problem.isEmpty())
        return;
    auto* note = new QLabel(QObject::tr("Settings not remembered: %1").arg(problem));
    note->setObjectName(QStringLiteral("settingsNote"));
    note->setToolTip(QObject::tr("The window starts from the defaults and saves nothing until the settings file is a "
                                 "regular file again."));
    bar.addPermanentWidget(note);
}

RunStatus::RunStatus(const SessionModel* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    m_text = new QLabel;
    m_text->setObjectName("status");
    m_progress = new QProgressBar;
    m_progress->setObjectName("progress");
    m_progress->setMaximumWidth(320);
    m_progress->setFormat(tr("%v of %m runs"));
    m_progress->hide();  // shown while a plan runs, not as an empty box
    m_binding = new QLabel;
    m_binding->setObjectName("binding");
    m_binding->setToolTip(tr("The CPUs the series' run thread was bound to: its host buffers come from their NUMA "
                             "node (the Local CPUs box of the All GPUs tab, or --no-numa-binding, turns it off)"));
    m_advice = new QPushButton;
    m_advice->setObjectName("adviceBadge");
    m_advice->setFlat(true);
    m_advice->setCursor(Qt::PointingHandCursor);
    m_advice->hide();  // shown while the advice has warnings or worse
    connect(m_advice, &QPushButton::clicked, this, &RunStatus::adviceRequested);
    m_baseline = new ElidedButton;
    m_baseline->setObjectName("baselineStatus");
    m_baseline->hide();  // shown while there is a baseline
    connect(m_baseline, &QPushButton::clicked, this, &RunStatus::baselineRequested);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_baseline);
    layout->addWidget(m_advice);
    layout->addWidget(m_progress);
    layout->addWidget(m_binding);

    connect(session, &SessionModel::variantStarted, this, [this](int index, int count, const QString& label) {
        if (count > 1)
            showMessage(tr("Comparison %1 of %2: %3…").arg(index + 1).arg(count).arg(label));
    });
    connect(session, &SessionModel::reportChanged, this, &RunStatus::showProgress);
    connect(session, &SessionModel::calibrationFailed, this, [this](const Error& error) {
        showMessage(tr("No copy calibration: %1").arg(QString::fromStdString(error.message())));
    });
    connect(session, &SessionModel::planFinished, this,
        [this](const PlanReport&) { showMessage(m_session->verdict().summary); });
    connect(session, &SessionModel::adviceChanged, this, &RunStatus::showAdvice);
    connect(&session->baselines(), &BaselineController::changed, this, &RunStatus::showBaseline);
}

void RunStatus::showMessage(const QString& text)
{
    m_lasting = text;
    m_text->setText(text);
}

void RunStatus::followFiles(const FileActions& files)
{
    connect(&files, &FileActions::problem, this, &RunStatus::showLasting);
    connect(&files, &FileActions::progress, this, &RunStatus::showUnderWay);
    connect(&files, &FileActions::shown, this, &RunStatus::showMessage);
}

void RunStatus::showStart(const Plan& plan, const QString& device)
{
    if (plan.variants.empty())
        return;
    const Variant& first = plan.variants.front();
    const std::string shape = shapeText(first.config);
    const QString what = QString::fromStdString(first.label) +
        (shape.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(shape)));
    showMessage(tr("Running %1 on %2…").arg(what, device));
}

void RunStatus::showDevices(const Platform& platform)
{
    showDeviceLine(tr("%n CUDA device(s), driver CUDA %1", nullptr, int(platform.devices.size()))
                       .arg(QString::fromStdString(formatCudaVersion(platform.driverVersion))));
}

void RunStatus::showNoDevice(bool noDriver)
{
    showDeviceLine(
        noDriver ? tr("No GPU can run here; saved runs still open (File menu).") : tr("No CUDA device answers."));
}

void RunStatus::showDeviceLine(const QString& text)
{
    m_text->setToolTip(text);
    // A saved series shown stays named; the pipeline panel says what the GPUs answered.
    if (!m_session->source().format().isEmpty() && !m_lasting.isEmpty())
        return;
    showMessage(text);
}

void RunStatus::showTransient(const QString& text, int ms)
{
    m_text->setText(text);
    const int mine = ++m_transients;
    QTimer::singleShot(ms, this, [this, mine] {
        if (mine == m_transients)
            m_text->setText(m_lasting);
    });
}

void RunStatus::showUnderWay(const QString& text)
{
    ++m_transients;  // a transient shown before gives way to no one now
    m_text->setText(text);
}

void RunStatus::showLasting()
{
    ++m_transients;
    m_text->setText(m_lasting);
}

QString RunStatus::text() const
{
    return m_text->text();
}

QString RunStatus::adviceBadge() const
{
    return m_advice->isVisible() ? m_advice->text() : QString();
}

QString RunStatus::baselineText() const
{
    return m_baseline->whole();
}

QString RunStatus::baselineShown() const
{
    return m_baseline->isVisible() ? m_baseline->shown() : QString();
}

void RunStatus::showBaseline()
{
    m_baseline->setVisible(m_session->baseline() != nullptr);
    m_baseline->setForms(baselineForms(*m_session));
}

void RunStatus::showAdvice()
{
    // Only what may make the figures say something else than they seem to: warnings and severe findings. Info and
    // suggestions wait in the Advice tab.
    const ShownAdvice& advice = m_session->advice();
    const int severe = advice.count(Severity::Severe), warnings = advice.count(Severity::Warning);
    m_advice->setVisible(severe + warnings > 0);
    if (severe + warnings == 0)
        return;
    QStringList titles;
    for (const ShownAdvice::Part& part : advice.parts) {
        for (const Finding& f : part.advice.findings) {
            if (f.severity >= Severity::Warning)
                titles << QString::fromStdString(f.title);
        }
    }
    // A severe finding by its name, in red; warnings by their number, in amber. White on either reads in light and
    // dark themes alike.
    QString text = severe > 0 ? titles.front() : warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings);
    if (severe > 0 && titles.size() > 1)
        text += tr(" (+%1 more)").arg(titles.size() - 1);
    m_advice->setText(QStringLiteral("⚠ ") + text);
    m_advice->setToolTip(tr("The advice on %1:\n%2\nClick to open the Advice tab.")
                             .arg(advice.subject, QStringLiteral("• ") + titles.join(QStringLiteral("\n• "))));
    m_advice->setAccessibleName(tr("Advice: %1").arg(text));
    m_advice->setStyleSheet(QStringLiteral("QPushButton { color: #ffffff; background-color: %1; font-weight: bold;"
                                           " border: none; border-radius: 3px; padding: 1px 8px; }"
                                           " QPushButton:focus { border: 2px solid palette(highlight); }")
                                .arg(severityColour(severe > 0 ? Severity::Severe : Severity::Warning).name()));
}

void RunStatus::showProgress()
{
    const Report& report = m_session->report();
    const auto& binding = report.binding;
    m_binding->setText(!binding ? QString()
            : binding->bound    ? tr("CPUs %1").arg(shownName(binding->cpus)) +
                (binding->numaNode ? tr(", NUMA node %1").arg(*binding->numaNode) : QString())
                                : tr("CPUs: not bound (%1)").arg(shownName(binding->why)));
    m_progress->setRange(0, m_session->expectedRuns());  // 0..0: busy, the noise rule decides when to stop
    m_progress->setValue(static_cast<int>(report.runs.size()));
    m_progress->setVisible(m_session->isRunning());
    if (!m_session->isRunning() || report.runs.empty())
        return;  // the plan's end, not progress, has the last word
    const int expected = m_session->expectedRuns();
    showMessage(tr("Run %1 of %2, %3 runs/s")
                    .arg(report.runs.size())
                    .arg(expected > 0 ? QString::number(expected) : tr("until the noise target"))
                    .arg(m_session->runsPerSecond(), 0, 'f', 1));
}

}  // namespace asyncscope
