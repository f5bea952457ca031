// The window's actions and menus: their texts, shortcuts and tooltips, when each can do something, and the guard
// that keeps their shortcuts working wherever the keyboard focus is (a line edit would take Ctrl+E as "end of
// line", a spin box would take + and -).
#pragma once

#include "gui/charts/run_charts.hpp"
#include "gui/config/settings_store.hpp"

#include "engine/run/backend.hpp"
#include "engine/run/plan.hpp"

#include <QObject>

#include <array>
#include <functional>

class QAction;
class QMenuBar;
class QTabWidget;
class QWidget;

namespace asyncscope {

class WindowActions : public QObject {
    Q_OBJECT
public:
    WindowActions(QMenuBar* menuBar, QObject* parent);

    // What the window has, for enabling the actions that can do something with it.
    struct State {
        bool running = false;
        bool devices = false;    // a GPU answered
        bool runs = false;       // the current report has runs (measured here or opened)
        bool chartShown = false; // the current tab shows a picture to export: a chart, the timeline, the GPUs' chart
        bool runChart = false;   // the current tab is one of the run charts (zoomable)
        bool comparison = false; // a comparison has ended with variants that ran
        bool overlays = false;
        bool advice = false;     // the advice on what is shown has been judged
        bool baseline = false;   // a baseline is set
    };
    void update(const State& state);

    QAction* exportPng;
    QAction* exportSvg;
    QAction* exportCsv;
    QAction* exportJson;
    QAction* exportTrace;
    QAction* exportAdvice;
    QAction* openSaved;
    QAction* openResults;
    QAction* recordProgram;
    QAction* addOverlay;
    QAction* removeOverlays;
    QAction* compareBaseline;
    QAction* clearBaseline;
    QAction* quit;
    QAction* compareHostMemory;
    QAction* compareWait;
    QAction* sweep;
    QAction* compareOverlap;
    QAction* compareSubmission;
    QAction* compareMemory;
    QAction* runAllGpus;
    QAction* exportComparisonCsv;
    QAction* exportComparisonJson;
    QAction* zoomIn;
    QAction* zoomOut;
    QAction* resetZoom;
    // View › Run chart: how runs are drawn (one of three, checked) and whether CPU submit time has its own axis.
    QAction* chartAutomatic;
    QAction* chartLines;
    QAction* chartDensity;
    QAction* cpuOwnAxis;
    QAction* nextTab;
    QAction* previousTab;
    QAction* resetSettings;
    std::array<QAction*, 3> themes;  // Settings › Theme: system, light, dark (indexed by Theme), one checked
    QAction* shortcuts;
    QAction* guide;
    QAction* memoryLab;
    QAction* licence;
    QAction* about;

    // The Help menu's pages (guide, memory lab, shortcuts, licence) and About box, over `window`; `platform` gives the
    // devices the About box names.
    void connectHelp(QWidget* window, std::function<Platform()> platform);

    // The Compare menu's comparisons start `start` over `window` (the sweep asks for its range first).
    using StartComparison = std::function<void(Comparison, std::size_t sweepMinBytes, std::size_t sweepMaxBytes)>;
    void connectComparisons(QWidget* window, StartComparison start);
    // Settings › Theme calls `choose` with the theme picked; showTheme() checks the one in use.
    void connectThemes(QObject* receiver, std::function<void(Theme)> choose);
    void showTheme(Theme theme);
    // View › Run chart calls `choose` with the look the user picked (the style or the CPU axis changed, the rest as
    // the actions show it); showChartLook() checks the actions of the look in use.
    void connectChartLook(QObject* receiver, std::function<void(const RunCharts::Look&)> choose);
    void showChartLook(const RunCharts::Look& look);

    // Next and previous tab go round `tabs`.
    void connectTabs(QTabWidget* tabs);

    // Every action with a shortcut, for the shortcuts page.
    QList<QAction*> withShortcuts() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QAction* chartStyle(RunCharts::Style style) const;  // View › Run chart's action for `style`
    RunCharts::Look shownChartLook() const;  // the look the View › Run chart actions show

    QList<QAction*> m_all;
};

}  // namespace asyncscope
