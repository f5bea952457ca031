// A JSON text with what a bounded parse reads past or keeps as text cut out before nlohmann's lexer reads it
// (simdjson skips those parts many times faster), and where what is left lies in the text given.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace asyncscope {

// Where text was cut out of a text: from each place on in the text left (first), how many bytes of the text given lie
// before it besides (second); in order.
using Shifts = std::vector<std::pair<std::size_t, std::size_t>>;

// Where place `at` of the text left lies in the text given.
std::size_t inGivenText(const Shifts& shifts, std::size_t at);

// A text with the lists and objects that a parse reads past or keeps as text cut out (their brackets left), and where
// what is left lies in the text given.
struct Compacted {
    std::string text;
    Shifts shifts;
};

// `text` with the objects at the place `kept` names (as parseBounded's keptAsText) and, in the document's own object,
// the lists and objects under keys that `keys` does not name (where it names any) emptied. Nothing where there is
// nothing to cut out, where the text is longer than a MiB, or where simdjson finds it is not valid JSON or nested
// deeper than kMaxNestingDepth: the parse then reads the text as given and words what is wrong.
std::optional<Compacted> compactedJson(std::string_view text, const std::vector<std::string>& kept,
    const std::vector<std::string>& keys);

}  // namespace asyncscope
