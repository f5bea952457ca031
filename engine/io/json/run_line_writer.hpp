// One run as one line of JSON text, as format 4 writes it: an object with the run's fields by name and its spans
// as arrays of the fields the layout names.
#pragma once

#include "engine/io/json/report_fields.hpp"
#include "engine/model/run_store.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace asyncscope::json_fields {

class RunLineWriter {
public:
    explicit RunLineWriter(const Layout& layout) : m_layout(layout) {}

    // Appends run `i` of `runs` to `out` without a line break, read from the store's columns:
    // {"run":0,"warmup":true,…,"spans":[["h2d",0,67108864,0,1.2],…]} and "traced_spans" where there are any.
    void append(std::string& out, const RunStore& runs, std::size_t i);

private:
    void text(std::string_view t) { m_out->append(t); }
    void key(RunKey k);
    void name(const char* n);
    template <class T>
    void whole(T v);
    void number(double v);
    void spans(const RunStore::SpanView& list);

    const Layout& m_layout;
    std::string* m_out = nullptr;
};

}  // namespace asyncscope::json_fields
