#include "engine/io/json/run_line_writer.hpp"

#include <charconv>
#include <cmath>

namespace asyncscope::json_fields {

void RunLineWriter::append(std::string& out, const RunStore& r, std::size_t i)
{
    m_out = &out;
    text("{");
    key(RunKey::Run);
    whole(r.index(i));
    key(RunKey::Warmup);
    text(r.warmup(i) ? "true" : "false");
    key(RunKey::StartMs);
    number(r.startMs(i));
    key(RunKey::GpuMs);
    number(r.gpuMs(i));
    key(RunKey::Polls);
    whole(r.pollIterations(i));
    key(RunKey::WaitCpuMs);
    number(r.waitCpuMs(i));
    key(RunKey::Expected);
    whole(r.expectedValue(i));
    key(RunKey::Verified);
    text(r.verified(i) ? "true" : "false");
    key(RunKey::FirstWrongIndex);
    whole(r.firstWrongIndex(i));
    key(RunKey::FirstWrongValue);
    whole(r.firstWrongValue(i));
    key(RunKey::Spans);
    spans(r.spans(i));
    if (const RunStore::SpanView traced = r.traced(i); !traced.empty()) {
        key(RunKey::Traced);
        spans(traced);
    }
    text("}");
}

void RunLineWriter::key(RunKey k)
{
    text(k == RunKey::Run ? "\"" : ",\"");
    text(kRunKeyNames[std::size_t(k)]);  // the table's names need no escaping
    text("\":");
}

void RunLineWriter::name(const char* n)
{
    text("\"");
    text(n);  // the enums' names need no escaping
    text("\"");
}

template <class T>
void RunLineWriter::whole(T v)
{
    char digits[24];
    m_out->append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
}

// The shortest text that reads back as the same double; null for what JSON cannot hold, as nlohmann writes it.
void RunLineWriter::number(double v)
{
    if (!std::isfinite(v))
        return text("null");
    char digits[32];
    m_out->append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
}

void RunLineWriter::spans(const RunStore::SpanView& list)
{
    text("[");
    bool first = true;
    for (const Span s : list) {
        text(first ? "[" : ",[");
        first = false;
        name(nameOf(s.kind));
        for (std::size_t f = 1; f < m_layout.span.size(); ++f) {
            switch (m_layout.span[f]) {
            case SpanField::Device: text(","); whole(s.device); break;
            case SpanField::Stream: text(","); whole(s.stream); break;
            case SpanField::Chunk: text(","); whole(s.chunk); break;
            case SpanField::Bytes: text(","); whole(s.bytes); break;
            case SpanField::BeginMs: text(","); number(s.beginMs); break;
            case SpanField::EndMs: text(","); number(s.endMs); break;
            case SpanField::Call:
                if (s.kind == SpanKind::Api) {
                    text(",");
                    name(nameOf(s.call));
                }
                break;
            default: break;
            }
        }
        text("]");
    }
    text("]");
}

}  // namespace asyncscope::json_fields
