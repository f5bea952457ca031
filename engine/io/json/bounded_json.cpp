#include "engine/io/json/bounded_json.hpp"

#include <vector>

namespace asyncscope::json_read {

using nlohmann::json;

FieldProblem nestedTooDeep(std::string field)
{
    return { std::move(field), "lists and objects nested deeper than " + std::to_string(kMaxNestingDepth),
        "at most " + std::to_string(kMaxNestingDepth) + " lists and objects within each other" };
}

BoundedJson parseBounded(std::string_view text)
{
    BoundedJson out;
    std::vector<std::string> keys;  // the key at each object depth that holds one, up to the bound
    const json::parser_callback_t bound = [&](int depth, json::parse_event_t event, json& parsed) {
        if (out.tooDeep)
            return false;  // the file is refused: nothing more is kept
        if (event == json::parse_event_t::key && depth <= kMaxNestingDepth) {
            keys.resize(std::size_t(depth));
            keys.back() = parsed.get<std::string>();
        } else if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
            depth >= kMaxNestingDepth) {
            std::string field;
            for (std::size_t i = 0; i < keys.size() && i < std::size_t(depth); ++i) {
                if (!keys[i].empty())
                    field += (field.empty() ? "" : ".") + quotedValue(keys[i]);
            }
            out.tooDeep = nestedTooDeep(field.empty() ? "the document" : field);
            return false;
        }
        return true;
    };
    out.value = json::parse(text, bound, false);
    return out;
}

std::string quotedJson(const json& value)
{
    switch (value.type()) {
    case json::value_t::string: return "\"" + quotedValue(value.get_ref<const std::string&>()) + "\"";
    case json::value_t::number_integer: return std::to_string(value.get<std::int64_t>());
    case json::value_t::number_unsigned: return std::to_string(value.get<std::uint64_t>());
    case json::value_t::number_float: return quotedNumber(value.get<double>());
    case json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case json::value_t::array: return value.empty() ? "an empty list" : "a list";
    case json::value_t::object: return value.empty() ? "an empty object" : "an object";
    case json::value_t::null: return "null";
    default: return "not a value";
    }
}

}  // namespace asyncscope::json_read
