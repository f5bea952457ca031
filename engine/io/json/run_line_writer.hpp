// One run as one line of JSON text, as format 4 writes it: an object with the run's fields by name and its spans
// as arrays of the fields the layout names, each written by its row in run_fields.hpp.
#pragma once

#include "engine/io/json/report_fields.hpp"
#include "engine/model/run_store.hpp"

#include <string>

namespace asyncscope::json_fields {

class RunLineWriter {
public:
    explicit RunLineWriter(const Layout& layout) : m_layout(layout) {}

    // Appends run `i` of `runs` to `out` without a line break after it, read from the store's columns:
    // {"run":0,"warmup":true,…,"spans":[["h2d",0,67108864,0,1.2],…]} and "traced_spans" where there are any. A run
    // of more than kSpansPerLine spans goes on over lines of its own, each after `lineBreak`.
    void append(std::string& out, const RunStore& runs, std::size_t i, const char* lineBreak);

private:
    static void key(std::string& out, const char* name, bool first);
    // The spans [from, from + kSpansPerLine) of `list` as a JSON list.
    void spans(std::string& out, const RunStore::SpanView& list, std::size_t from);

    const Layout& m_layout;
};

}  // namespace asyncscope::json_fields
