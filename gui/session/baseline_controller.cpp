#include "gui/session/baseline_controller.hpp"

#include "engine/io/input_file.hpp"

#include <QFile>
#include <QFileInfo>

namespace asyncscope {

namespace {

// Whether a file the reader refused is a comparison's export: JSON of format "asyncscope-comparison" (or a host's
// record of a comparison, which the baseline's reader calls "a comparison of several variants"), or CSV whose first
// column is the variant.
bool isComparisonFile(const QString& path, const std::string& why)
{
    if (why.find("\"asyncscope-comparison\"") != std::string::npos ||
        why.find("a comparison of several variants") != std::string::npos)
        return true;
    QFile file(path);
    return QFileInfo(path).isFile() && file.open(QIODevice::ReadOnly) && file.read(16).startsWith("Variant,");
}

}  // namespace

BaselineController::BaselineController(std::function<Subject()> subject, QObject* parent)
    : QObject(parent)
    , m_subject(std::move(subject))
    , m_judge(new BaselineJudge(this))
{
    connect(m_judge, &BaselineJudge::compared, this, &BaselineController::onCompared);
}

void BaselineController::renew()
{
    m_consent.clear();
    m_unasked = false;
    m_fresh = true;
}

void BaselineController::compare()
{
    ++m_ticket;  // a comparison under way is of what was shown before
    m_comparison.reset();
    m_differences.clear();
    m_refusal.clear();
    const Subject subject = m_subject();
    if (!subject.baseline || !subject.baselineSummary) {
        m_consent.clear();
        m_unasked = false;
        m_fresh = false;
        return say(State::None);
    }
    if (subject.measuring)
        return say(State::Measuring);
    if (!subject.shown || !subject.shownSummary || subject.shownSummary->measuredRuns == 0)
        return say(State::NoSeries);
    // What asyncscope-cli refuses to compare (exit 2), refused in its words and before any question of consent: a
    // series of one run (a program recorded once) has no spread to tell a difference from.
    for (const auto& [series, name] : { std::pair { subject.baseline, "the baseline " + subject.baselineName },
             std::pair { subject.shown, subject.shownName } }) {
        if (auto few = tooFewRunsToCompare(*series, name)) {
            m_refusal = *few;
            return say(State::TooFewRuns);
        }
    }
    m_differences = configDifferences(*subject.baseline, *subject.shown);
    if (anyBlocking(m_differences) && differencesText(m_differences) != m_consent) {
        say(State::NeedsConsent);
        emit consentNeeded(m_fresh);
        return;
    }
    if (!anyBlocking(m_differences))
        m_unasked = false;  // nothing to allow: nothing allowed unasked
    m_fresh = false;
    // The summaries copied (a few hundred bytes), the series read in place.
    m_judge->start([baseline = subject.baseline, baselineSummary = *subject.baselineSummary, current = subject.shown,
                       currentSummary = *subject.shownSummary] {
        return compareWithBaseline(*baseline, baselineSummary, *current, currentSummary, BaselineSettings {});
    }, m_ticket);
    say(State::Comparing);
}

void BaselineController::say(State state)
{
    m_state = state;
    emit changed();
}

void BaselineController::onCompared(const BaselineComparison& comparison, unsigned ticket)
{
    if (ticket != m_ticket)
        return;  // of a series or a baseline no longer shown
    m_comparison = comparison;
    say(State::Compared);
}

void BaselineController::allow(bool asked)
{
    if (m_state != State::NeedsConsent)
        return;  // the series or the baseline changed while the user was asked
    m_consent = differencesText(m_differences);
    m_unasked = !asked;
    compare();
}

void BaselineController::decline()
{
    if (m_state != State::NeedsConsent)
        return;
    m_fresh = false;
    say(State::Declined);
}

void BaselineController::settle()
{
    m_judge->settle();
}

void BaselineController::stop()
{
    disconnect(m_judge, nullptr, this, nullptr);
    m_judge->settle();  // it reads the series shown and the baseline
}

Error baselineProblem(const QString& path, const Error& error, bool read)
{
    const std::string name = shownPath(path.toStdString());  // as the readers name it
    std::string why = error.detail;
    std::string advice = error.advice;
    if (read && error.kind == ErrorKind::Io && isComparisonFile(path, why)) {
        why = "it holds a comparison of several variants, not one series";
        advice = "Use a series this app or asyncscope-cli saved (File › Export data), or the export of one variant.";
    } else if (why.rfind(name + ": ", 0) == 0) {
        why.erase(0, name.size() + 2);  // "h200.json: line 3 …": the file is named once
        if (why.rfind("holds ", 0) == 0)
            why.insert(0, "it ");  // "holds the series of 2 GPUs …": what holds them is the file
    } else if (why.rfind(name + " ", 0) == 0) {
        why.replace(0, name.size(), "it");  // "h200.json does not exist"
    }
    return makeError(error.kind, "cannot use " + name + " as a baseline: " + why, advice);
}

Status checkBaselineRuns(const QString& path, const Report& baseline)
{
    // As asyncscope-cli refuses it (exit 2), in its words.
    auto few = tooFewRunsToCompare(baseline, "the baseline " + QFileInfo(path).fileName().toStdString());
    if (!few)
        return std::nullopt;
    return makeError(ErrorKind::Io, *few,
        "Use a series of more runs as the baseline: run it again, or record the program over more iterations.");
}

}  // namespace asyncscope
