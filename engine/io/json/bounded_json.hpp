// Untrusted JSON read into nlohmann's DOM with its nesting bounded, and values quoted for a message without dump()
// (which recurses as deep as the value nests, and prints it whole however long).
#pragma once

#include "engine/model/record_rules.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace asyncscope::json_read {

struct BoundedJson {
    nlohmann::json value;  // discarded where the text is not JSON; not to be used where it nests too deep
    FieldCheck tooDeep;    // the field nested deeper than kMaxNestingDepth ("device.topology"), where one is
};

// Parses `text`, dropping what lies deeper than kMaxNestingDepth and naming the field it lies in.
BoundedJson parseBounded(std::string_view text);

// The problem of `field` ("runs", "device.topology"; "the document" at the top) holding lists and objects within
// each other deeper than kMaxNestingDepth.
FieldProblem nestedTooDeep(std::string field);

// What a message quotes of a value: a number or a text as the file gives it (cut by quotedValue), "a list", "an
// object", "null", "true", "false".
std::string quotedJson(const nlohmann::json& value);

}  // namespace asyncscope::json_read
