// The comparison of the series shown with the baseline (engine/model/baseline), and the state it is in. Compared
// whenever its owner says either changed (compare()) and the series is not being measured, on a thread of its own
// (BaselineJudge), which reads both series in place: their owner settles it before it changes either. A comparison
// across configurations (blocking differences) waits for consent: allow() or decline().
#pragma once

#include "gui/session/baseline_judge.hpp"

#include "engine/model/baseline.hpp"
#include "engine/model/error.hpp"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace asyncscope {

class BaselineController : public QObject {
    Q_OBJECT
public:
    enum class State {
        None,          // no baseline
        NoSeries,      // no series with measured runs is shown to compare with it
        TooFewRuns,    // one of the two holds fewer measured runs than a comparison needs: refusal() says which
        Measuring,     // the series shown is being measured: compared once it ends
        NeedsConsent,  // the two configurations differ (blocking differences): consentNeeded() asks
        Declined,      // the user would not compare across these configurations
        Comparing,     // on the judge's thread
        Compared       // comparison() holds it
    };
    // What is compared, as the owner has it now.
    struct Subject {
        // Each series with its summary (summarizeSeries), which the comparison takes rather than making it again.
        const Report* baseline = nullptr;  // none: there is no baseline
        const SeriesSummary* baselineSummary = nullptr;
        const Report* shown = nullptr;
        const SeriesSummary* shownSummary = nullptr;
        bool measuring = false;  // the series shown is being measured
        std::string baselineName;  // the baseline's file name, as a refusal names it ("a.json")
        std::string shownName;     // the series shown, as a refusal names it ("b.json", "the series shown")
    };

    explicit BaselineController(std::function<Subject()> subject, QObject* parent = nullptr);

    State state() const { return m_state; }
    const std::optional<BaselineComparison>& comparison() const { return m_comparison; }
    const std::vector<ConfigDifference>& differences() const { return m_differences; }
    bool comparedUnasked() const { return m_unasked; }
    // Why the two cannot be compared, in asyncscope-cli's words for the same files (TooFewRuns); empty otherwise.
    const std::string& refusal() const { return m_refusal; }

    // A new baseline: nothing allowed across its configuration yet, and never compared (see consentNeeded()).
    void renew();
    // Compares the series shown with the baseline, or says why not (state()).
    void compare();
    // The answer to consentNeeded(): compare across these configurations (`asked`: the user was asked) or not.
    void allow(bool asked = true);
    void decline();
    // Waits for the comparison under way, if any, and hands it back.
    void settle();
    // Waits for the comparison under way and drops it: the owner of the series is going.
    void stop();

signals:
    void changed();  // the state or the comparison
    // `justSet`: the baseline has not been compared with anything yet.
    void consentNeeded(bool justSet);

private:
    void say(State state);
    void onCompared(const BaselineComparison& comparison, unsigned ticket);

    std::function<Subject()> m_subject;
    BaselineJudge* m_judge;
    State m_state = State::None;
    std::optional<BaselineComparison> m_comparison;
    std::vector<ConfigDifference> m_differences;
    std::string m_refusal;
    std::string m_consent;  // the blocking differences the user allowed the comparison across
    bool m_unasked = false;  // allowed with nobody asked
    bool m_fresh = false;    // not yet compared with anything
    unsigned m_ticket = 0;   // of the series and baseline compared now
};

// Why a saved run cannot be a baseline, in words that name its file: it could not be read, it is a comparison of
// several variants or a host's record of several GPUs rather than one series, or it holds no measured runs to compare
// with. `read`: the reader refused the file (not the check before it, which refuses what is no regular file).
Error baselineProblem(const QString& path, const Error& error, bool read = true);
// A baseline's file with fewer measured runs than a comparison needs, said as asyncscope-cli says it.
Status checkBaselineRuns(const QString& path, const Report& baseline);

}  // namespace asyncscope
