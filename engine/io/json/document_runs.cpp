#include "engine/io/json/document_runs.hpp"

#include "engine/io/json/run_parser.hpp"
#include "engine/model/record_rules.hpp"

namespace asyncscope::json_read {

using namespace json_fields;

bool DocumentRuns::fail(std::string text)
{
    m_problem = std::move(text);
    return false;
}

void DocumentRuns::beginRun()
{
    m_run = RunResult {};
    m_seen = 0;
    m_v1 = SerialDurations {};
    m_spans.clear();
    m_tracedSpans.clear();
}

bool DocumentRuns::field(RunKey key, const FieldValue& value)
{
    if (key == RunKey::Unknown)
        return true;
    const RunFieldRule& rule = ruleOf(key);
    if (m_seen & bit(key))
        return fail(givenTwice(rule.name));
    if (rule.kind == RunFieldKind::SpanList || !rule.read(value, m_run, m_v1))
        return fail(notExpected(key));
    m_seen |= bit(key);
    return true;
}

bool DocumentRuns::beginSpans(RunKey key)
{
    if (m_seen & bit(key))
        return fail(givenTwice(ruleOf(key).name));
    m_traced = key == RunKey::Traced;
    m_seen |= bit(key);
    m_spanIndex = 0;
    return true;
}

void DocumentRuns::beginSpan()
{
    m_span = Span {};
    m_spanSeen = 0;
}

bool DocumentRuns::spanField(SpanField field, const FieldValue& value)
{
    if (field == SpanField::Unknown)
        return true;
    if (m_spanSeen & bit(field))
        return fail(json_fields::spanPlace(m_spanIndex, m_traced) + givenTwice(ruleOf(field).name));
    if (const SpanRead read = ruleOf(field).read(value, m_span); read != SpanRead::Taken)
        return fail(spanProblem(field, read, value, m_spanIndex, m_traced));
    m_spanSeen |= bit(field);
    return true;
}

bool DocumentRuns::endSpan()
{
    if (const char* field = missingSpanField(m_spanSeen))
        return fail(missingInSpan(field, m_spanIndex, m_traced));
    if (m_spanIndex >= kMaxSpansPerRun)
        return fail(tooManySpans(m_traced, kMaxSpansPerRun));
    (m_traced ? m_tracedSpans : m_spans).push_back(m_span);
    ++m_spanIndex;
    return true;
}

bool DocumentRuns::endRun(const PipelineConfig* config, std::size_t line)
{
    const auto missing = [this](const char* field) { return fail(std::string(field) + " missing"); };
    const auto failField = [this](const FieldProblem& problem) { return fail(fieldError("", "", problem).detail); };
    if (const char* field = missingRunField(m_seen))
        return missing(field);
    if (m_seen & bit(RunKey::Spans)) {
        m_run.spans.assign(m_spans.begin(), m_spans.end());  // exactly as many as there are
        m_run.traced.assign(m_tracedSpans.begin(), m_tracedSpans.end());
    } else if (m_seen & bit(RunKey::CpuSubmitMs)) {
        // Version 1 gave durations, not spans: the one-stream pipeline's spans lie end to end.
        if (m_seen & bit(RunKey::H2dMs)) {
            for (const RunKey needed : { RunKey::KernelMs, RunKey::D2hMs }) {
                if (!(m_seen & bit(needed)))
                    return missing(ruleOf(needed).name);
            }
        } else {
            m_v1.kernelMs = m_v1.d2hMs = -1.0;
        }
        for (const auto& [key, ms] : { std::pair { RunKey::CpuSubmitMs, m_v1.submitMs },
                 std::pair { RunKey::WaitMs, m_v1.waitMs }, std::pair { RunKey::H2dMs, m_v1.h2dMs },
                 std::pair { RunKey::KernelMs, m_v1.kernelMs }, std::pair { RunKey::D2hMs, m_v1.d2hMs } }) {
            if (m_seen & bit(key)) {
                if (auto bad = checkDurationMs(ruleOf(key).name, ms))
                    return failField(*bad);
            }
        }
        m_out.durations.emplace_back(m_out.runs.size(), m_v1);
    } else {
        return missing(ruleOf(RunKey::Spans).name);
    }
    // A series' runs come each once and in order (some of them only, as `split` leaves a file): a run given again or
    // out of its place is not one of them.
    if (!m_out.runs.empty() && m_run.index <= m_out.runs.back().index)
        return fail("run is " + std::to_string(m_run.index) + "; accepted: more than " +
            std::to_string(m_out.runs.back().index) + ", the run before it: each run once, in order");
    if (config) {
        if (auto bad = checkRun(m_run, *config))
            return failField(*bad);
    } else {
        m_out.lines.push_back(line);
    }
    m_out.runs.push_back(std::move(m_run));
    return true;
}

}  // namespace asyncscope::json_read
