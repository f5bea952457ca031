// The advice the window shows (engine/model/advice): a series' findings, or a comparison's by variant, each part with
// the machine's state it was judged with and the run the timeline opens on for it. Judged off the GUI thread: a saved
// series as its file is read (saved_run), a measured one by the session (session/advice_judge). judgeSeries reads
// every run: 20-75 ms for a million on a 2-core machine, too long for the window's thread.
#pragma once

#include "engine/model/advice.hpp"
#include "engine/model/report.hpp"
#include "engine/model/series_summary.hpp"
#include "engine/run/plan.hpp"

#include <QString>

#include <cstddef>
#include <optional>
#include <vector>

namespace asyncscope {

struct ShownAdvice {
    struct Part {
        QString label;   // the variant's in a comparison ("pinned", "K=16 S=4"); empty for a series
        Advice advice;
        QString machine;  // the machine's state around it in one line (formatMachineText); empty where not recorded
        std::optional<int> medianRun;  // RunResult::index of the measured run whose GPU time is the median
    };

    QString subject;          // what was judged: "this series", "saved: h200-5runs · H200", "the overlap comparison"
    bool comparison = false;  // the parts are a comparison's variants that ran, in plan order
    bool measuring = false;   // judged while the series was being measured: the machine's state comes with its end
    bool program = false;     // a recorded program's iterations: what to do is done in the Record dialog, not the panel
    std::size_t runs = 0;     // runs judged, warm-ups included (every variant's in a comparison)
    std::vector<Part> parts;  // none: nothing judged yet

    bool empty() const { return parts.empty(); }
    // The most severe finding of every part; empty when there is none.
    std::optional<Severity> worst() const;
    int count(Severity severity) const;
    // The rules not checked, each rule and reason once however many parts share it.
    std::vector<NotChecked> notChecked() const;
};

// Any thread. `subject` names the series for people; `measuring`: it is still being measured.
ShownAdvice judgeShownSeries(
    const Report& report, const SeriesSummary& summary, const QString& subject, bool measuring = false);
// Each variant that ran, judged beside the others (advisePlan).
ShownAdvice judgeShownComparison(const PlanReport& plan);

}  // namespace asyncscope
