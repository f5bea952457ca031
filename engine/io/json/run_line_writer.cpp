#include "engine/io/json/run_line_writer.hpp"

#include "engine/io/json/run_fields.hpp"

#include <algorithm>

namespace asyncscope::json_fields {

void RunLineWriter::append(std::string& out, const RunStore& r, std::size_t i, const char* lineBreak)
{
    out += '{';
    for (std::size_t k = 0; k < std::size_t(RunKey::Spans); ++k) {
        const RunFieldRule& rule = kRunFields[k];
        key(out, rule.name, k == 0);
        rule.write(out, r, i);
    }
    const RunStore::SpanView spanList = r.spans(i);
    const RunStore::SpanView traced = r.traced(i);
    key(out, ruleOf(RunKey::Spans).name, false);
    spans(out, spanList, 0);
    if (!traced.empty()) {
        key(out, ruleOf(RunKey::Traced).name, false);
        spans(out, traced, 0);
    }
    if (r.block(i) != 0) {
        key(out, ruleOf(RunKey::Block).name, false);
        ruleOf(RunKey::Block).write(out, r, i);
    }
    out += '}';
    for (std::size_t from = kSpansPerLine; from < std::max(spanList.size(), traced.size()); from += kSpansPerLine) {
        out += lineBreak;
        out += '{';
        key(out, ruleOf(RunKey::Run).name, true);
        ruleOf(RunKey::Run).write(out, r, i);
        if (from < spanList.size()) {
            key(out, kMoreSpansKey, false);
            spans(out, spanList, from);
        }
        if (from < traced.size()) {
            key(out, kMoreTracedKey, false);
            spans(out, traced, from);
        }
        out += '}';
    }
}

void RunLineWriter::key(std::string& out, const char* name, bool first)
{
    out += first ? "\"" : ",\"";
    out += name;  // the table's names need no escaping
    out += "\":";
}

void RunLineWriter::spans(std::string& out, const RunStore::SpanView& list, std::size_t from)
{
    out += '[';
    const std::size_t to = std::min(list.size(), from + kSpansPerLine);
    for (std::size_t k = from; k < to; ++k) {
        const Span s = list[k];
        if (k != from)
            out += ',';
        // Each field writes a comma before its value: the first one's opens the span instead.
        const std::size_t open = out.size();
        for (const SpanField f : m_layout.span)
            ruleOf(f).write(out, s);
        if (out.size() == open)
            out += '[';
        else
            out[open] = '[';
        out += ']';
    }
    out += ']';
}

}  // namespace asyncscope::json_fields
