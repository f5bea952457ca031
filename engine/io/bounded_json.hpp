// A JSON document read from a file the user names, as a tree no deeper than kMaxNestingDepth, and what went wrong
// in words a person can act on: the line and column of a syntax error, "cut short" for a document that ends early,
// never the library's own exception text.
#pragma once

#include "engine/model/error.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace asyncscope {

// Parses `text`. A value nested deeper than kMaxNestingDepth stops the parse at once (nothing that deep is built, so
// nothing later recurses through it): an Io error naming where it sits ("devices[…].variants[…].report.runs").
// Syntax errors: "line 3, column 12: not JSON (near '\"host\" \"x\"')", "cut short: it ends at line 9 inside a value".
Result<nlohmann::json> parseBoundedJson(const std::string& text);

// The words for a parse error of `text` that nlohmann::json raised.
std::string jsonErrorText(std::string_view text, const nlohmann::json::exception& error);

}  // namespace asyncscope
