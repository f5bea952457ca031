// The app's own command line, so it can be driven headless (tests, GPU servers).
#pragma once

#include "gui/config/settings_store.hpp"

#include "engine/io/man_options.hpp"
#include "engine/run/plan.hpp"
#include "engine/model/error.hpp"

#include <QSize>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <optional>
#include <vector>

namespace asyncscope {

struct AppOptions {
    std::optional<int> device;
    std::optional<std::size_t> elements;
    std::optional<int> runs;
    // The workload's shape, as the CLI takes it; checked with the size by the configuration panel.
    std::optional<int> chunks;
    std::optional<int> streams;
    std::optional<IssueOrder> order;
    std::optional<Submission> submission;
    std::optional<TraceSource> traceSource;
    // The memory lab's choices, as the CLI takes them.
    std::optional<HostMemory> hostMemory;
    std::optional<CopyMechanism> copy;
    std::optional<ManagedMigration> managedMigration;
    std::optional<ManagedAdvice> managedAdvice;
    bool runNow = false;
    std::optional<Comparison> comparison;  // run this comparison instead of one series
    std::size_t sweepMinBytes = kSweepMinBytes;  // the range of --compare size, as the CLI takes it
    std::size_t sweepMaxBytes = kSweepMaxBytes;
    QString open;        // a saved series (JSON or CSV) to show from the start, in place of a run; no GPU needed
    QStringList overlays;  // saved runs (JSON or CSV) to overlay on the run charts from the start, in order
    QString baseline;      // a saved series to compare the series shown with, from the start
    QString exportPng;   // run (or, with `open`, read the saved series), export the time chart here, quit
    QString screenshot;  // with --export-png: also save a picture of the whole window
    QString exportTimeline;  // with --export-png: also export the last run's timeline (PNG or SVG)
    bool allGpus = false;    // run the series on every GPU, side by side (with --export-png: their chart)
    bool allAtOnce = false;  // with allGpus: every GPU at the same time
    bool numaBinding = true;  // each GPU's run thread on its local CPUs: every series, comparison and All GPUs run
    QSize exportSize { 1600, 900 };
    std::optional<Theme> theme;  // the look for this start, over the remembered one
    QString tab;  // the tab to show from the start and after a plan ends ("advice", "timeline" …); empty: as it comes
    std::optional<QString> earlyExitText;  // --help / --version

    bool headless() const { return !exportPng.isEmpty(); }
    // Puts the shape and memory options that were given into `config`.
    void applyShape(PipelineConfig& config) const;
};

Result<AppOptions> parseAppOptions(const QStringList& arguments);

// Every option --help lists, in its order, with the same text and defaults: the man page's OPTIONS section.
std::vector<ManOption> appManOptions();

}  // namespace asyncscope
