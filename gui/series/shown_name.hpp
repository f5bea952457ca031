// A name read from a file (a GPU's, a host's, a bus id) as the window shows it. A file may hold a name of any length,
// and a title, a label, a legend or a table cell lays out every character it is given: names are cut to
// kMaxNameBytes bytes, the longest a real one has (engine/model/record_rules.hpp).
#pragma once

#include <QString>

#include <string_view>

namespace asyncscope {

// `name` as UTF-8, at most kMaxNameBytes bytes of it; a longer one is cut at a character's boundary and ends in "…".
QString shownName(std::string_view name);
QString shownName(const QString& name);

// The series shown, in a legend beside overlays: "this run" for a series measured here, else where it came from
// ("saved: h200-2k · H200"), the session's source.
QString shownSeriesName(const QString& source);

}  // namespace asyncscope
