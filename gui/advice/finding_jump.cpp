// Where a finding of the Advice tab leads (AdvicePanel::jumpFor) and how its row says so (jumpText).
#include "gui/advice/advice_panel.hpp"

#include <string_view>

namespace asyncscope {

namespace {

// The summary's figure a rule's finding is about, where the finding leads to the summary: its key and its name.
#define ASYNCSCOPE_FIGURE(name) QT_TRANSLATE_NOOP("asyncscope::AdvicePanel", name)
struct RuleFigure {
    std::string_view rule, key;
    const char* name;
};
constexpr RuleFigure kRuleFigures[] = {
    { rules::kTransferBound, keys::kOverSerialBound, ASYNCSCOPE_FIGURE("GPU time / serial bound") },
    { rules::kOverlapHeadroom, keys::kOverOverlappedBound, ASYNCSCOPE_FIGURE("GPU time / overlapped bound") },
    { rules::kLatencyBound, keys::kModelled, ASYNCSCOPE_FIGURE("Modelled time") },
    { rules::kSubmitBound, keys::kCpuSubmit, ASYNCSCOPE_FIGURE("CPU submit time") },
    { rules::kPageableCopies, keys::kH2dRate, ASYNCSCOPE_FIGURE("H2D bandwidth") },
    { rules::kSynchronousCopies, "h2d_ms", ASYNCSCOPE_FIGURE("H2D") },
    { rules::kSerializedCopies, keys::kGpuTime, ASYNCSCOPE_FIGURE("GPU time") },
    { rules::kDefaultStream, keys::kGpuTime, ASYNCSCOPE_FIGURE("GPU time") },
    { rules::kTooShort, keys::kGpuTime, ASYNCSCOPE_FIGURE("GPU time") },
    { rules::kNoisy, "noise_percent", ASYNCSCOPE_FIGURE("Noise") },
    { rules::kCheckBound, "check_ms", ASYNCSCOPE_FIGURE("Host check") },
};
#undef ASYNCSCOPE_FIGURE

const RuleFigure* figureOfRule(std::string_view rule)
{
    for (const RuleFigure& f : kRuleFigures)
        if (f.rule == rule)
            return &f;
    return nullptr;
}

}  // namespace

AdvicePanel::Jump AdvicePanel::jumpFor(const ShownAdvice& advice, const Finding& finding)
{
    Jump jump;
    if (advice.comparison) {
        jump.to = Jump::To::Comparison;
    } else if (finding.stages) {
        jump.to = Jump::To::Timeline;
        if (!finding.runs.empty())
            jump.run = int(finding.runs.front().first);
        else if (!advice.parts.empty() && advice.parts.front().medianRun)
            jump.run = *advice.parts.front().medianRun;
    } else if (!finding.runs.empty()) {
        jump.to = Jump::To::Runs;
        jump.first = finding.runs.front().first;
        jump.last = finding.runs.back().last;
    } else if (const RuleFigure* figure = figureOfRule(finding.rule)) {
        jump.figure = std::string(figure->key);
        jump.figureName = tr(figure->name);
    }
    return jump;
}

QString AdvicePanel::jumpText(const Jump& jump, const Finding& finding)
{
    switch (jump.to) {
    case Jump::To::Runs:
        return tr("Show %1 in the Time chart").arg(QString::fromStdString(runRangesText(finding.runs)));
    case Jump::To::Timeline:
        return jump.run >= 0 ? tr("Open run %1 on the timeline").arg(jump.run) : tr("Open the timeline");
    case Jump::To::Comparison: return tr("Show the comparison");
    case Jump::To::Summary: break;
    }
    return jump.figureName.isEmpty() ? tr("Show the summary") : tr("Show %1 in the summary").arg(jump.figureName);
}

}  // namespace asyncscope
