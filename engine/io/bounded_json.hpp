// A JSON document read from a file the user names, as a tree no deeper than kMaxNestingDepth, and what went wrong
// in words a person can act on: the line and column of a syntax error, "cut short" for a document that ends early,
// never the library's own exception text.
#pragma once

#include "engine/model/error.hpp"
#include "engine/model/record_rules.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

// What a parse builds of a document: only the document's own keys `keys` names (the others are read past without being
// built, however big they are; empty: every key), and no tree larger than `maxBytes` (as the parse estimates what its
// values take in memory; 0: no limit). A document of a few kB a file holds must never cost gigabytes: a list of 33
// million empty objects under a key no reader needs once did.
struct TreeLimits {
    std::vector<std::string> keys;
    std::size_t maxBytes = 0;
    std::vector<std::string> noted;  // keys not built whose presence BoundedJson::passed tells
};
// The most a tree parsed from `textBytes` of a file may take: twice the text and 32 MiB. Every record AsyncScope writes
// fits (a header's 10 000 machine readings take about five times their text); a reader's peak stays within four
// times its file and 64 MiB.
std::size_t treeBytesLimit(std::uintmax_t textBytes);
// What the parts of an nlohmann tree take in memory at most, as TreeLimits::maxBytes counts them (malloc's rounding
// included): every value its place in its list or object (16 bytes, up to three times that while its list grows),
// a list or an object its std::vector or std::map besides, an object's member its map node besides its key's text,
// a text its std::string and characters.
struct TreeCost {
    static constexpr std::size_t value = 48;
    static constexpr std::size_t container = 64;
    static constexpr std::size_t member = 96;
    static constexpr std::size_t text(std::size_t length) { return 48 + length; }
};

// Parses `text`. A value nested deeper than kMaxNestingDepth stops the parse at once (nothing that deep is built, so
// nothing later recurses through it): an Io error naming where it sits ("devices[…].variants[…].report.runs").
// Syntax errors: "line 3, column 12: not JSON (near '\"host\" \"x\"')", "cut short: it ends at line 9 inside a value".
// An object at the place `keptAsText` names (the key at each level, "[]" for a list's elements: {"devices", "[]",
// "variants", "[]", "report"}) is kept as its text instead of as a tree: its place holds a value that keptText()
// turns back into that text, to be read by a reader of its own (never written out again from the tree).
// A tree past `limits.maxBytes` stops the parse too: an Io error naming the key it grew in and the limit.
Result<nlohmann::json> parseBoundedJson(const std::string& text, const std::vector<std::string>& keptAsText = {},
    const TreeLimits& limits = {});

// The same parse, its outcome in parts for a reader that words its own messages.
struct BoundedJson {
    nlohmann::json value;     // discarded where the text is not JSON or nests too deep
    FieldCheck tooDeep;       // the place nested deeper than kMaxNestingDepth ("device.topology"), where one is
    std::string syntaxError;  // jsonErrorText's words where the text is not JSON; empty otherwise
    FieldCheck tooBig;        // the place whose values grew the tree past TreeLimits::maxBytes, where one did
    std::vector<std::string> passed;  // the keys of TreeLimits::noted the document holds
};
BoundedJson parseBounded(std::string_view text, const std::vector<std::string>& keptAsText = {},
    const TreeLimits& limits = {});

// The same parse keeping only what lies inside at most `keepDepth` lists and objects (0: the document's own value, 1
// the values it holds …): what lies deeper is left out as it is read, however deep it nests (a list or an object at the
// last depth kept is kept empty). Never `tooDeep`.
BoundedJson parseShallow(std::string_view text, int keepDepth);

// The problem of `field` ("runs", "device.topology"; "the document" at the top) holding lists and objects within
// each other deeper than kMaxNestingDepth.
FieldProblem nestedTooDeep(std::string field);
// The problem of `field` holding more than any record AsyncScope writes: a tree past `maxBytes` in memory.
FieldProblem holdsTooMuch(std::string field, std::size_t maxBytes);

// What a message quotes of a value, never through dump() (which recurses as deep as the value nests and prints it
// whole however long): a number or a text as the file gives it (cut by quotedValue), "a list", "an object", "null",
// "true", "false"; "an empty list" and "an empty object" where `sayEmpty`.
std::string quotedJson(const nlohmann::json& value, bool sayEmpty = true);

// The text of an object parseBoundedJson(text, …) kept as text at `value`'s place; nothing when it is not one.
std::optional<std::string_view> keptText(const std::string& text, const nlohmann::json& value);

// The words for a parse error of `text` that nlohmann::json raised.
std::string jsonErrorText(std::string_view text, const nlohmann::json::exception& error);

}  // namespace asyncscope
