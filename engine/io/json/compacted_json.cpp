#include "engine/io/json/compacted_json.hpp"

#include "engine/model/record_rules.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <iterator>

namespace asyncscope {

namespace {

// Where a value's text begins and ends in the text simdjson reads.
using TextSpan = std::pair<std::size_t, std::size_t>;

// The span of `value` when it is a list or an object (what is worth emptying); nothing for a scalar. False where
// simdjson cannot say.
bool containerSpan(simdjson::ondemand::value value, const char* base, std::optional<TextSpan>& span)
{
    simdjson::ondemand::json_type type;
    if (value.type().get(type))
        return false;
    std::string_view raw;
    if (type == simdjson::ondemand::json_type::object) {
        simdjson::ondemand::object object;
        if (value.get_object().get(object) || object.raw_json().get(raw))
            return false;
    } else if (type == simdjson::ondemand::json_type::array) {
        simdjson::ondemand::array array;
        if (value.get_array().get(array) || array.raw_json().get(raw))
            return false;
    } else {
        return true;
    }
    while (!raw.empty() && std::isspace(static_cast<unsigned char>(raw.back())))
        raw.remove_suffix(1);
    if (raw.size() < 2 || (raw.front() != '{' && raw.front() != '[') || (raw.back() != '}' && raw.back() != ']'))
        return false;
    span = TextSpan { std::size_t(raw.data() - base), std::size_t(raw.data() - base) + raw.size() };
    return true;
}

// The spans of what parseBounded reads past or keeps as text: the objects at the place `kept` names (from `at` on)
// and, in the document's own object, the lists and objects under keys that `keys` does not name.
bool findSkipped(simdjson::ondemand::value value, const std::vector<std::string>& kept,
    const std::vector<std::string>& keys, std::size_t at, const char* base, std::vector<TextSpan>& found)
{
    if (!kept.empty() && at == kept.size()) {
        simdjson::ondemand::json_type type;
        if (value.type().get(type))
            return false;
        if (type != simdjson::ondemand::json_type::object)
            return true;  // not an object: nothing kept here, built as the parse finds it
        std::optional<TextSpan> span;
        if (!containerSpan(value, base, span))
            return false;
        found.push_back(*span);
        return true;
    }
    const bool list = at < kept.size() && kept[at] == "[]";
    if (list) {
        simdjson::ondemand::array array;
        if (value.get_array().get(array))
            return true;
        for (auto element : array) {
            simdjson::ondemand::value v;
            if (element.get(v) || !findSkipped(v, kept, keys, at + 1, base, found))
                return false;
        }
        return true;
    }
    simdjson::ondemand::object object;
    if (value.get_object().get(object))
        return true;
    for (auto field : object) {
        std::string_view key;
        simdjson::ondemand::value v;
        if (field.unescaped_key().get(key) || field.value().get(v))
            return false;
        if (at == 0 && !keys.empty() && std::find(keys.begin(), keys.end(), key) == keys.end()) {
            std::optional<TextSpan> span;
            if (!containerSpan(v, base, span))
                return false;
            if (span)
                found.push_back(*span);
            continue;
        }
        if (at < kept.size() && key == kept[at] && !findSkipped(v, kept, keys, at + 1, base, found))
            return false;
    }
    return true;
}

// Texts up to this long are compacted first (simdjson's buffers for a text take about 14 times the text).
constexpr std::size_t kCompactedUpTo = std::size_t(1) << 20;
constexpr std::size_t kKeptBuffersUpTo = std::size_t(64) << 10;  // … and up to this long with buffers kept

}  // namespace

std::size_t inGivenText(const Shifts& shifts, std::size_t at)
{
    const auto after = std::upper_bound(shifts.begin(), shifts.end(), std::make_pair(at, std::size_t(-1)));
    return after == shifts.begin() ? at : at + std::prev(after)->second;
}

std::optional<Compacted> compactedJson(std::string_view text, const std::vector<std::string>& kept,
    const std::vector<std::string>& keys)
{
    if (text.size() > kCompactedUpTo)
        return std::nullopt;
    // The text with the padding simdjson reads past its end, and the parsers: for a small text (a record, a header)
    // those each thread keeps for the next, their buffers allocated once (a merge reads thousands); for a larger one
    // their own, freed when it is read.
    const bool small = text.size() <= kKeptBuffersUpTo;
    thread_local std::string keptBuffer;
    thread_local simdjson::dom::parser keptValidator;
    thread_local simdjson::ondemand::parser keptParser;
    std::string ownBuffer;
    simdjson::dom::parser ownValidator;
    simdjson::ondemand::parser ownParser;
    std::string& buffer = small ? keptBuffer : ownBuffer;
    simdjson::dom::parser& validator = small ? keptValidator : ownValidator;
    simdjson::ondemand::parser& parser = small ? keptParser : ownParser;
    buffer.assign(text);
    buffer.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    const simdjson::padded_string_view padded(buffer.data(), buffer.size(), buffer.capacity());
    // The whole text checked, the parts cut out too (on demand skips them unread), nested no deeper than allowed.
    simdjson::dom::element element;
    if (validator.capacity() < padded.size() || validator.max_depth() != std::size_t(kMaxNestingDepth)) {
        if (validator.allocate(std::max(padded.size(), std::size_t(64) << 10), std::size_t(kMaxNestingDepth)))
            return std::nullopt;
    }
    if (validator.parse(padded).get(element))
        return std::nullopt;
    simdjson::ondemand::document document;
    simdjson::ondemand::value root;
    std::vector<TextSpan> found;
    if (parser.iterate(padded).get(document) || document.get_value().get(root) ||
        !findSkipped(root, kept, keys, 0, padded.data(), found) || found.empty())
        return std::nullopt;
    Compacted out;
    out.text.reserve(text.size());
    std::size_t from = 0, cut = 0;
    for (const auto& [begin, end] : found) {  // in the text's order, none inside another
        out.text.append(text.substr(from, begin + 1 - from));  // up to the opening bracket
        cut += end - begin - 2;
        out.shifts.emplace_back(out.text.size(), cut);  // the closing bracket on
        from = end - 1;
    }
    out.text.append(text.substr(from));
    return out;
}

}  // namespace asyncscope
