#include "gui/timeline/timeline_panel.hpp"

#include "gui/timeline/run_walk.hpp"

#include "gui/files/file_dialogs.hpp"
#include "gui/series/shown_name.hpp"
#include "gui/session/session_model.hpp"
#include "gui/timeline/timeline_view.hpp"

#include "engine/model/size_parse.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QEvent>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace asyncscope {

namespace {

bool sameSpans(const std::vector<Span>& a, const std::vector<Span>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Span& x, const Span& y) {
        return x.kind == y.kind && x.stream == y.stream && x.chunk == y.chunk && x.bytes == y.bytes &&
            x.beginMs == y.beginMs && x.endMs == y.endMs && x.call == y.call && x.name == y.name;
    });
}

// What the view draws of a configuration: the rows of its streams, the names of its copies, its notes.
bool sameMemory(const PipelineConfig& a, const PipelineConfig& b)
{
    return a.streams == b.streams && a.hostMemory == b.hostMemory && a.copy == b.copy &&
        a.managedMigration == b.managedMigration;
}

bool sameRun(const RunResult& a, const RunResult& b)
{
    return a.index == b.index && a.warmup == b.warmup && a.gpuMs == b.gpuMs && sameSpans(a.spans, b.spans) &&
        sameSpans(a.traced, b.traced);
}

// "Run 12 of 0–49 · 64.0 MiB · K = 16, S = 4, by chunk, stream · GPU 2.49 ms": the run's index, as the charts' run
// axis, the reports and the traces number runs, and the series' range of indices where it is known.
QString titleOf(const Report& report, const RunResult& run, const QString& source)
{
    const PipelineConfig& c = report.config;
    // In 64 bits: a file may say anything of its runs, and an int sum of two would overflow.
    const long long planned = c.stopRule == StopRule::Fixed ? static_cast<long long>(c.warmupRuns) + c.runs
        : report.outcome                                    ? static_cast<long long>(report.runs.size())
                                                            : 0;
    QString which = planned > 0 ? QObject::tr("Run %1 of 0–%2").arg(run.index).arg(planned - 1)
                                : QObject::tr("Run %1").arg(run.index);
    if (run.warmup)
        which += QObject::tr(" (warm-up)");
    QStringList parts { which };
    if (!source.isEmpty())
        parts << source;
    if (report.program) {  // a recorded program's: its size and shape are its own, not a configuration's
        parts << QString::fromStdString(programLabel(*report.program));
    } else {
        parts << QString::fromStdString(formatBytes(c.bytes()));
        if (const std::string shape = shapeText(c); !shape.empty())
            parts << QString::fromStdString(shape);
    }
    parts << QObject::tr("GPU %1").arg(formatDuration(run.gpuMs));
    return parts.join(QStringLiteral(" · "));
}

}  // namespace

TimelinePanel::TimelinePanel(const SessionModel* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("timeline"));
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("timelineTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);  // a long title takes another line rather than being cut or widening the window
    m_latest = new QPushButton(tr("&Latest run"));
    m_latest->setObjectName(QStringLiteral("latestRun"));
    m_latest->setToolTip(tr("Show the latest run, and each new one as it arrives. A click on a point of the Time "
                            "chart shows that run instead."));
    m_reset = new QPushButton(tr("Reset &zoom"));
    m_reset->setObjectName(QStringLiteral("resetTimelineZoom"));
    m_reset->setToolTip(tr("Show the whole run (also a double click or Home on the timeline)."));
    m_view = new TimelineView;

    // The title, wrapped, with the walk through the runs at its right; the other buttons under them, at the right.
    // The walk's buttons take no keyboard focus: their keys ([, ], S, F, M) do what they do from anywhere in the tab.
    auto* heading = new QHBoxLayout;
    heading->addWidget(m_title, 1);
    m_thread = new QComboBox;
    m_thread->setObjectName(QStringLiteral("walkThread"));
    m_thread->setToolTip(tr("Walk the iterations of one thread of the program, or of all of them"));
    m_thread->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_thread->setVisible(false);
    heading->addWidget(m_thread, 0, Qt::AlignTop);
    const struct {
        RunStep step;
        const char* name;
        QString text;
        QKeySequence key;
        QString tip;
    } walks[] = {
        { RunStep::Previous, "walkPrevious", QStringLiteral("◀"), QKeySequence(Qt::Key_BracketLeft),
            tr("Show the run before this one ([)") },
        { RunStep::Next, "walkNext", QStringLiteral("▶"), QKeySequence(Qt::Key_BracketRight),
            tr("Show the run after this one (])") },
        { RunStep::Slowest, "walkSlowest", tr("Slowest"), QKeySequence(Qt::Key_S),
            tr("Show the measured run of the longest GPU time (S)") },
        { RunStep::Fastest, "walkFastest", tr("Fastest"), QKeySequence(Qt::Key_F),
            tr("Show the measured run of the shortest GPU time (F)") },
        { RunStep::Median, "walkMedian", tr("Median"), QKeySequence(Qt::Key_M),
            tr("Show the measured run of the median GPU time (M)") },
    };
    for (const auto& walk : walks) {
        auto* button = new QToolButton;
        button->setText(walk.text);
        button->setObjectName(QString::fromLatin1(walk.name));
        button->setToolTip(walk.tip);
        button->setFocusPolicy(Qt::NoFocus);
        const auto go = [this, step = walk.step] { walkTo(step); };
        connect(button, &QToolButton::clicked, this, go);
        auto* key = new QShortcut(walk.key, this);
        key->setContext(Qt::WidgetWithChildrenShortcut);
        connect(key, &QShortcut::activated, this, go);
        heading->addWidget(button, 0, Qt::AlignTop);
    }
    auto* bar = new QHBoxLayout;
    bar->addStretch(1);
    for (QPushButton* button : { m_latest, m_reset }) {
        button->setAutoDefault(false);
        bar->addWidget(button);
    }
    for (QPushButton* button : makePictureButtons(QStringLiteral("exportTimeline"),
             tr("the timeline as shown, zoom and all,"),
             [this](const QString& format) { emit exportRequested(format); }))
        bar->addWidget(button);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(heading);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connect(m_latest, &QPushButton::clicked, this, &TimelinePanel::followLatest);
    connect(m_thread, QOverload<int>::of(&QComboBox::activated), this, [this] {
        // A thread chosen: its latest run, unless the run shown is already its.
        const QVariant lane = m_thread->currentData();
        const RunStore& runs = m_session->report().runs;
        for (std::size_t i = 0; i < runs.size() && lane.isValid(); ++i)
            if (m_shownIndex && runs.index(i) == *m_shownIndex && laneOfRun(runs, i) == lane.toInt())
                return;
        if (lane.isValid())
            if (const auto index = runAfterStep(runs, std::nullopt, RunStep::Next, lane.toInt()))
                showRun(*index);
    });
    connect(m_reset, &QPushButton::clicked, m_view, &TimelineView::resetZoom);
    connect(m_view, &TimelineView::zoomChanged, m_reset, &QWidget::setEnabled);
    const auto changed = [this] {
        if (isVisible())
            refresh();  // a hidden timeline catches up when it shows
    };
    connect(session, &SessionModel::reportChanged, this, changed);
    connect(session, &SessionModel::overlayChanged, this, changed);  // the series shown may be named anew
    m_reset->setEnabled(false);
    refresh();
}

void TimelinePanel::showEvent(QShowEvent* event)
{
    refresh();
    QWidget::showEvent(event);
}

QString TimelinePanel::title() const
{
    return m_titleText;
}

void TimelinePanel::setTitleText(const QString& text)
{
    m_titleText = text;
    m_title->setText(text);
}

void TimelinePanel::showRun(int index)
{
    m_chosen = index;
    refresh();
}

void TimelinePanel::walkTo(RunStep step)
{
    const QVariant lane = m_thread->isVisible() ? m_thread->currentData() : QVariant();
    const std::optional<int> only = lane.isValid() ? std::optional(lane.toInt()) : std::nullopt;
    if (const auto index = runAfterStep(m_session->report().runs, m_shownIndex, step, only))
        showRun(*index);
}

void TimelinePanel::listThreads()
{
    const Report& report = m_session->report();
    std::vector<std::pair<std::uint32_t, std::uint32_t>> threads;
    if (report.program)
        for (const ProgramThread& t : report.program->threads)
            threads.emplace_back(t.pid, t.thread);
    if (threads == m_threadsListed)
        return;
    m_threadsListed = threads;
    m_thread->clear();
    m_thread->addItem(tr("All threads"));
    for (std::size_t k = 0; k < threads.size(); ++k) {
        const ProgramThread& t = report.program->threads[k];
        m_thread->addItem(tr("Thread %1 · pid %2 (%n runs)", nullptr, int(std::min<std::uint64_t>(t.runs, INT32_MAX)))
                              .arg(k + 1)
                              .arg(t.pid),
            int(k));
    }
    m_thread->setVisible(threads.size() > 1);
}

void TimelinePanel::followLatest()
{
    m_chosen.reset();
    refresh();
}

void TimelinePanel::refresh()
{
    listThreads();
    const Report& report = m_session->report();
    std::optional<RunResult> run;
    if (m_chosen) {
        for (std::size_t i = 0; i < report.runs.size() && !run; ++i) {
            if (report.runs.index(i) == *m_chosen)
                run = report.runs[i];
        }
    }
    if (!run && !report.runs.empty())
        run = report.runs.back();  // the chosen run is not in this series (yet): its latest
    m_latest->setEnabled(m_chosen.has_value());
    if (!run) {
        setTitleText(m_session->isRunning() ? tr("Waiting for the first run…")
                                            : tr("No run yet: run a series, or open a saved run (File menu)."));
        if (m_shownIndex || !m_blank) {
            m_shownIndex.reset();
            m_shown = {};
            m_blank = true;
            m_view->clear(tr("Each run's copies, kernels and CPU work will show here on one time axis."));
        }
        return;
    }
    setTitleText(titleOf(report, *run, m_session->source().label()));
    const PipelineConfig& config = report.config;
    const QString note = report.outcome ? shownName(report.outcome->traceNote) : QString();  // a file's, cut
    // A file of an older format (JSON 1 and 2, CSV) holds no host check: its empty row says so.
    const QString& format = m_session->source().format();
    const QString unrecorded = format.isEmpty() ? QString() : tr("not recorded (%1)").arg(format);
    const ProgramInfo* program = report.program ? &*report.program : nullptr;
    if (m_shownIndex && sameMemory(config, m_shownConfig) && note == m_shownNote && unrecorded == m_shownUnrecorded &&
        sameRun(m_shown, *run) && (program ? program->names : std::vector<std::string>()) == m_shownNames &&
        (program != nullptr) == m_shownProgram)
        return;  // the same run as drawn: nothing to lay out or paint
    m_shown = *run;
    m_blank = false;
    m_shownIndex = run->index;
    m_shownConfig = config;
    m_shownNote = note;
    m_shownUnrecorded = unrecorded;
    m_shownNames = program ? program->names : std::vector<std::string>();
    m_shownProgram = program != nullptr;
    m_view->setTitle(m_titleText);
    m_view->setRun(*run, config, note, unrecorded, program);
}

QString TimelinePanel::exportPicture(const QString& path, QSize pixels)
{
    m_view->setTitle(m_titleText);
    return m_view->exportPicture(path, pixels);
}

}  // namespace asyncscope
