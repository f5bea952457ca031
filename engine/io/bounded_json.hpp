// A JSON document read from a file the user names, as a tree no deeper than kMaxNestingDepth, and what went wrong
// in words a person can act on: the line and column of a syntax error, "cut short" for a document that ends early,
// never the library's own exception text.
#pragma once

#include "engine/model/error.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

// Parses `text`. A value nested deeper than kMaxNestingDepth stops the parse at once (nothing that deep is built, so
// nothing later recurses through it): an Io error naming where it sits ("devices[…].variants[…].report.runs").
// Syntax errors: "line 3, column 12: not JSON (near '\"host\" \"x\"')", "cut short: it ends at line 9 inside a value".
// An object at the place `keptAsText` names (the key at each level, "[]" for a list's elements: {"devices", "[]",
// "variants", "[]", "report"}) is kept as its text instead of as a tree: its place holds a value that keptText()
// turns back into that text, to be read by a reader of its own (never written out again from the tree).
Result<nlohmann::json> parseBoundedJson(const std::string& text, const std::vector<std::string>& keptAsText = {});

// The text of an object parseBoundedJson(text, …) kept as text at `value`'s place; nothing when it is not one.
std::optional<std::string_view> keptText(const std::string& text, const nlohmann::json& value);

// The words for a parse error of `text` that nlohmann::json raised.
std::string jsonErrorText(std::string_view text, const nlohmann::json::exception& error);

}  // namespace asyncscope
