// A name read from a file (a GPU's, a host's, a bus id) as the window shows it. A file may hold a name of any length,
// and a title, a label, a legend or a table cell lays out every character it is given: names are cut to
// kMaxNameBytes bytes, the longest a real one has (engine/model/record_rules.hpp).
#pragma once

#include <QString>
#include <QStringList>

#include <string_view>

namespace asyncscope {

// `name` as UTF-8 with its control characters escaped ("\x1b": displayText), at most kMaxNameBytes bytes of it; a
// longer one is cut at a character's boundary and ends in "…".
QString shownName(std::string_view name);
QString shownName(const QString& name);

// How many characters a legend's entry, a column's header or a caption gives a series' name: a legend beside a chart
// of a 1024-pixel window shows about this many before its own cut at the end hides what tells names apart; a
// baseline's "baseline · h200-series · H200" whole.
constexpr int kShortNameChars = 32;

// `names` each cut to at most `maxChars` characters, in the middle with "…": a longer one keeps its start and its end,
// and where names share a start ("gpu-server-b-h200-nightly-2026120…"), what follows the shared part, which is what
// tells them apart. Names that fit stay as they are.
QStringList shortNames(const QStringList& names, int maxChars = kShortNameChars);
// One name cut so, as it stands beside `others`.
QString shortName(const QString& name, const QStringList& others = {}, int maxChars = kShortNameChars);

// The series shown, in a legend beside overlays: "this run" for a series measured here, else where it came from
// ("saved: h200-2k · H200"), the session's source.
QString shownSeriesName(const QString& source);

}  // namespace asyncscope
