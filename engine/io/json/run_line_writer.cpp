#include "engine/io/json/run_line_writer.hpp"

#include "engine/io/json/run_fields.hpp"

namespace asyncscope::json_fields {

void RunLineWriter::append(std::string& out, const RunStore& r, std::size_t i)
{
    out += '{';
    for (std::size_t k = 0; k < std::size_t(RunKey::Spans); ++k) {
        const RunFieldRule& rule = kRunFields[k];
        key(out, rule.name, k == 0);
        rule.write(out, r, i);
    }
    key(out, ruleOf(RunKey::Spans).name, false);
    spans(out, r.spans(i));
    if (const RunStore::SpanView traced = r.traced(i); !traced.empty()) {
        key(out, ruleOf(RunKey::Traced).name, false);
        spans(out, traced);
    }
    out += '}';
}

void RunLineWriter::key(std::string& out, const char* name, bool first)
{
    out += first ? "\"" : ",\"";
    out += name;  // the table's names need no escaping
    out += "\":";
}

void RunLineWriter::spans(std::string& out, const RunStore::SpanView& list)
{
    out += '[';
    bool first = true;
    for (const Span s : list) {
        if (!first)
            out += ',';
        first = false;
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
