#include "gui/app/window_actions.hpp"

#include "gui/app/about_dialog.hpp"
#include "gui/app/chart_look.hpp"
#include "gui/app/help_pages.hpp"
#include "gui/app/text_page_dialog.hpp"
#include "gui/config/sweep_range_dialog.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QKeyEvent>
#include <QMenuBar>
#include <QTabWidget>

namespace asyncscope {

namespace {

QAction* add(QMenu* menu, QList<QAction*>& all, const QString& text, const QString& tip,
    const QKeySequence& shortcut = {})
{
    QAction* action = menu->addAction(text);
    action->setStatusTip(tip);
    action->setToolTip(tip);
    if (!shortcut.isEmpty()) {
        action->setShortcut(shortcut);
        action->setShortcutContext(Qt::WindowShortcut);
    }
    all << action;
    return action;
}

}  // namespace

WindowActions::WindowActions(QMenuBar* bar, QObject* parent)
    : QObject(parent)
{
    QMenu* file = bar->addMenu(tr("&File"));
    // What opens a file first: the first thing to do without a GPU.
    openSaved = add(file, m_all, tr("&Open saved run…"),
        tr("Show a saved run (JSON or CSV) in every tab, in place of the current one"), QKeySequence::Open);
    addOverlay = add(file, m_all, tr("&Add overlay…"),
        tr("Draw a saved run (JSON or CSV) beside the current one; add several to compare machines"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    removeOverlays = add(file, m_all, tr("&Remove overlays"),
        tr("Take every overlaid saved run off the charts, the baseline with them"));
    compareBaseline = add(file, m_all, tr("Compare with &baseline…"),
        tr("Compare the series shown with a saved series (JSON or CSV), quantity by quantity: the difference of the "
           "medians, its interval, p and a verdict in the Summary and Difference tabs"),
        QKeySequence(Qt::CTRL | Qt::Key_B));
    clearBaseline = add(file, m_all, tr("C&lear baseline"),
        tr("Take the baseline off the charts and its comparison off the Summary, Difference and status line"));
    openResults = add(file, m_all, tr("Open res&ults…"),
        tr("Show result files of asyncscope-cli (hosts, GPUs, series) merged in one table, a row per host and GPU"));
    recordProgram = add(file, m_all, tr("Record a &program…"),
        tr("Run a CUDA program of your own under the recorder (no rebuild) and show its iterations as runs: "
           "timeline of its streams, advice, baseline"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    file->addSeparator();
    exportPng = add(file, m_all, tr("&Export picture as PNG…"),
        tr("Save what the current tab shows (a chart, the timeline, the distributions) as a picture"),
        QKeySequence(Qt::CTRL | Qt::Key_E));
    exportSvg = add(file, m_all, tr("Export picture as S&VG…"), tr("Save what the current tab shows as SVG"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    exportCsv = add(file, m_all, tr("Export data as &CSV…"), tr("Save every run, one row each, as CSV"),
        QKeySequence(Qt::CTRL | Qt::Key_S));
    exportJson = add(file, m_all, tr("Export data as &JSON…"), tr("Save the device, configuration, summary and runs"));
    exportTrace = add(file, m_all, tr("Export &trace…"),
        tr("Save every run as a Chrome trace, one track per stream and CPU thread: open it in Perfetto UI or "
           "chrome://tracing"));
    exportAdvice = add(file, m_all, tr("Export ad&vice…"),
        tr("Save the Advice tab's findings, the machine's state and the rules not checked as Markdown (.md) or text"));
    file->addSeparator();
    quit = add(file, m_all, tr("&Quit"), tr("Close AsyncScope"), QKeySequence::Quit);

    QMenu* compare = bar->addMenu(tr("&Compare"));
    compareHostMemory = add(compare, m_all, tr("&Pinned vs pageable host memory"),
        tr("Run the configuration with pinned and with pageable host buffers"));
    compareWait = add(compare, m_all, tr("&Spin-poll vs blocking-sync wait"),
        tr("Run the configuration spinning on cudaEventQuery and waiting on a blocking-sync event"));
    sweep = add(compare, m_all, tr("Size s&weep…"), tr("Run the configuration at each power of two in a range"));
    compareOverlap = add(compare, m_all, tr("&Overlap: chunks × streams"),
        tr("Run the configuration in K = 1, 2, 4 … 64 chunks on 1, 2 and 4 streams: speed-up and copy throughput "
           "against the overlap model"));
    compareSubmission = add(compare, m_all, tr("S&ubmission: stream calls, CUDA Graph, batched copies"),
        tr("Run the configuration submitted as stream calls, as a CUDA Graph and with batched copies "
           "(cudaMemcpyBatchAsync), at one chunk and at its own shape: CPU submit time and GPU time"));
    compareMemory = add(compare, m_all, tr("&Memory: every host memory kind"),
        tr("Run the configuration with pageable, pinned, write-combined, registered, mapped and managed host memory, "
           "and with the other copy mechanism: copy rates, GPU and CPU time, registration cost and the serial bound"));
    runAllGpus = add(compare, m_all, tr("All &GPUs side by side"),
        tr("Run the configuration on every GPU of this host, one at a time or all at once (All GPUs tab)"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    compare->addSeparator();
    exportComparisonCsv = add(compare, m_all, tr("Export comparison as &CSV…"), tr("One row per variant"));
    exportComparisonJson = add(compare, m_all, tr("Export comparison as &JSON…"), tr("Every variant's report"));

    QMenu* view = bar->addMenu(tr("&View"));
    zoomIn = add(view, m_all, tr("Zoom &in"), tr("Zoom into the chart on the current tab"), QKeySequence::ZoomIn);
    zoomOut = add(view, m_all, tr("Zoom &out"), tr("Zoom out of the chart on the current tab"), QKeySequence::ZoomOut);
    resetZoom = add(view, m_all, tr("&Reset zoom"), tr("Show every run again"), QKeySequence(Qt::CTRL | Qt::Key_0));
    view->addSeparator();
    QMenu* runChart = view->addMenu(tr("Run &chart"));
    chartAutomatic = add(runChart, m_all, tr("&Automatic"),
        tr("Each run while the runs in view fit the chart's width, how they are spread where they do not"));
    chartLines = add(runChart, m_all, tr("&Lines"), tr("Each run: the lowest and highest run of each pixel column"));
    chartDensity = add(runChart, m_all, tr("&Density"),
        tr("How the runs of each pixel column are spread: their median, p25–p75 and p5–p95"));
    auto* styles = new QActionGroup(this);
    for (QAction* a : { chartAutomatic, chartLines, chartDensity }) {
        a->setCheckable(true);
        styles->addAction(a);
    }
    chartAutomatic->setChecked(true);
    runChart->addSeparator();
    cpuOwnAxis = add(runChart, m_all, tr("CPU submit on its own &axis"),
        tr("CPU submit time in microseconds on an axis of its own at the right of the time chart"));
    cpuOwnAxis->setCheckable(true);
    cpuOwnAxis->setChecked(true);
    view->addSeparator();
    nextTab = add(view, m_all, tr("&Next tab"), tr("Show the next tab"), QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    previousTab = add(view, m_all, tr("&Previous tab"), tr("Show the previous tab"),
        QKeySequence(Qt::CTRL | Qt::Key_PageUp));

    QMenu* settings = bar->addMenu(tr("&Settings"));
    QMenu* theme = settings->addMenu(tr("&Theme"));
    auto* themeGroup = new QActionGroup(this);
    const std::pair<Theme, QString> looks[] = {
        { Theme::System, tr("&System") }, { Theme::Light, tr("&Light") }, { Theme::Dark, tr("&Dark") } };
    for (const auto& [look, text] : looks) {
        QAction* a = add(theme, m_all, text,
            look == Theme::System ? tr("The desktop's own style and colours")
                                  : tr("Qt's Fusion style with AsyncScope's %1 colours: charts, timeline and tables "
                                       "follow").arg(look == Theme::Dark ? tr("dark") : tr("light")));
        a->setCheckable(true);
        themeGroup->addAction(a);
        themes[std::size_t(look)] = a;
    }
    settings->addSeparator();
    resetSettings = add(settings, m_all, tr("&Reset to defaults"), tr("Forget every remembered choice"));

    QMenu* help = bar->addMenu(tr("&Help"));
    guide = add(help, m_all, tr("&Guide"), tr("What AsyncScope measures and how to read it"), QKeySequence::HelpContents);
    memoryLab = add(help, m_all, tr("&Memory lab"),
        tr("What Compare › Memory shows: host memory kinds, copy mechanisms, batch submission, the bound ratio"));
    shortcuts = add(help, m_all, tr("&Keyboard shortcuts"), tr("Every shortcut of the window and the charts"),
        QKeySequence(Qt::CTRL | Qt::Key_Slash));
    licence = add(help, m_all, tr("&Licence"), tr("The licence AsyncScope is distributed under"));
    about = add(help, m_all, tr("&About AsyncScope"), tr("Version, CUDA runtime and driver"));

    qApp->installEventFilter(this);
}

void WindowActions::update(const State& s)
{
    const bool idle = !s.running;
    exportPng->setEnabled(s.chartShown);
    exportSvg->setEnabled(s.chartShown);
    exportCsv->setEnabled(s.runs);
    exportJson->setEnabled(s.runs);
    exportTrace->setEnabled(s.runs || s.comparison);
    exportAdvice->setEnabled(s.advice);
    openSaved->setEnabled(idle);
    removeOverlays->setEnabled(s.overlays);
    clearBaseline->setEnabled(s.baseline);
    for (QAction* a : { compareHostMemory, compareWait, sweep, compareOverlap, compareSubmission, compareMemory,
             runAllGpus })
        a->setEnabled(idle && s.devices);
    exportComparisonCsv->setEnabled(s.comparison);
    exportComparisonJson->setEnabled(s.comparison);
    for (QAction* a : { zoomIn, zoomOut, resetZoom })
        a->setEnabled(s.runChart);
}

QList<QAction*> WindowActions::withShortcuts() const
{
    QList<QAction*> list;
    for (QAction* a : m_all) {
        if (!a->shortcut().isEmpty())
            list << a;
    }
    return list;
}

bool WindowActions::eventFilter(QObject* watched, QEvent* event)
{
    // A focused editor asks first whether it wants a key for itself (ShortcutOverride). For our shortcuts the
    // answer is no: the event stops here unaccepted, and the shortcut fires.
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const QKeySequence pressed(key->keyCombination());
        for (QAction* a : m_all) {
            if (a->isEnabled() && a->shortcut() == pressed)
                return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

void WindowActions::connectComparisons(QWidget* window, StartComparison start)
{
    const std::pair<QAction*, Comparison> fixed[] = { { compareHostMemory, Comparison::HostMemory },
        { compareWait, Comparison::Wait }, { compareOverlap, Comparison::Overlap },
        { compareSubmission, Comparison::Submission }, { compareMemory, Comparison::Memory } };
    for (const auto& [action, comparison] : fixed)
        connect(action, &QAction::triggered, window,
            [start, comparison = comparison] { start(comparison, kSweepMinBytes, kSweepMaxBytes); });
    connect(sweep, &QAction::triggered, window, [window, start] {
        if (const auto range = askSweepRange(window))
            start(Comparison::Size, range->first, range->second);
    });
}

void WindowActions::connectThemes(QObject* receiver, std::function<void(Theme)> choose)
{
    for (std::size_t i = 0; i < themes.size(); ++i)
        connect(themes[i], &QAction::triggered, receiver, [choose, i] { choose(Theme(i)); });
}

void WindowActions::showTheme(Theme theme)
{
    themes[std::size_t(theme)]->setChecked(true);
}

QAction* WindowActions::chartStyle(RunCharts::Style style) const
{
    switch (style) {
    case RunCharts::Style::Lines: return chartLines;
    case RunCharts::Style::Density: return chartDensity;
    case RunCharts::Style::Automatic: break;
    }
    return chartAutomatic;
}

RunCharts::Look WindowActions::shownChartLook() const
{
    RunCharts::Look look;
    for (const auto& [style, name] : kChartStyleNames) {
        if (chartStyle(style)->isChecked())
            look.style = style;
    }
    look.cpuOwnAxis = cpuOwnAxis->isChecked();
    return look;
}

void WindowActions::connectChartLook(QObject* receiver, std::function<void(const RunCharts::Look&)> choose)
{
    // Triggered: the user's choice, not showChartLook()'s checks.
    for (const auto& [style, name] : kChartStyleNames)
        connect(chartStyle(style), &QAction::triggered, receiver, [this, choose, style = style] {
            RunCharts::Look look = shownChartLook();
            look.style = style;
            choose(look);
        });
    connect(cpuOwnAxis, &QAction::triggered, receiver, [this, choose](bool own) {
        RunCharts::Look look = shownChartLook();
        look.cpuOwnAxis = own;
        choose(look);
    });
}

void WindowActions::showChartLook(const RunCharts::Look& look)
{
    chartStyle(look.style)->setChecked(true);
    cpuOwnAxis->setChecked(look.cpuOwnAxis);
}

void WindowActions::connectTabs(QTabWidget* tabs)
{
    connect(nextTab, &QAction::triggered, tabs,
        [tabs] { tabs->setCurrentIndex((tabs->currentIndex() + 1) % tabs->count()); });
    connect(previousTab, &QAction::triggered, tabs,
        [tabs] { tabs->setCurrentIndex((tabs->currentIndex() + tabs->count() - 1) % tabs->count()); });
}

void WindowActions::connectHelp(QWidget* window, std::function<Platform()> platform)
{
    auto page = [window](const QString& title, const QString& html) {
        auto* dialog = new TextPageDialog(title, html, window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    };
    connect(guide, &QAction::triggered, window, [page, platform] {
        page(tr("AsyncScope guide"), guidePage(!platform().devices.empty()));
    });
    connect(memoryLab, &QAction::triggered, window, [page] { page(tr("Memory lab"), memoryLabPage()); });
    connect(shortcuts, &QAction::triggered, window,
        [this, page] { page(tr("Keyboard shortcuts"), shortcutsPage(withShortcuts())); });
    connect(licence, &QAction::triggered, window, [page] { page(tr("Licence"), licencePage()); });
    connect(about, &QAction::triggered, window,
        [window, platform = std::move(platform)] { showAboutDialog(window, platform()); });
}

}  // namespace asyncscope
