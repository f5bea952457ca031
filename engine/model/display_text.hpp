// Text read from a file, made safe to show: well-formed UTF-8 for every JSON writer, and one line without control
// characters, of a bounded length, for a terminal. A file may hold any bytes in a device's name, a host's name or an
// error message (an escape sequence that retitles or clears the terminal, a 100 KB message); every text writer shows
// such a text through these, so that what a file holds is shown, never acted on or left to flood the screen.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

// What a text report shows of one value a file gives (a name, a host, a bus id) and of a message a file gives (an
// error with its advice), in characters; the rest is cut, with a count of what there was.
constexpr std::size_t kMaxShownChars = 200;
constexpr std::size_t kMaxShownMessageChars = 500;
// The items a text report lists of a list a file gives (GPUs, processes); the others are counted.
constexpr std::size_t kMaxShownItems = 10;

// The length of the well-formed UTF-8 sequence `text` begins with (1 for ASCII); 0 where it begins with none (a
// stray continuation byte, an overlong form, a surrogate, a sequence cut short).
std::size_t utf8Length(std::string_view text);

// Whether every byte of `text` belongs to a well-formed UTF-8 sequence.
bool isValidUtf8(std::string_view text);

// `text` as well-formed UTF-8: each byte that is not part of a well-formed sequence replaced by U+FFFD; control
// characters kept. What a reader takes in from a file, so that every writer of the text (JSON above all, which
// refuses ill-formed UTF-8) can write it.
std::string validUtf8(std::string_view text);

// `text` for a terminal: well-formed UTF-8 (validUtf8) and each control character escaped: "\n", "\r", "\t", and
// "\x1b" for the others of C0 (U+0000-U+001F), DEL (U+007F) and C1 (U+0080-U+009F, "\x9b"). Backslashes are left as
// they are, so that showing a shown text again changes nothing.
std::string displayText(std::string_view text);

// displayText cut after `maxChars` characters of `text` (a byte that is not UTF-8 counts as one), "…" marking the
// cut with the count of the whole: "xxxx… (100 189 characters)".
std::string cutText(std::string_view text, std::size_t maxChars = kMaxShownChars);

// "0, 1, 2": the items joined; beyond `most` items the first `most` and the count of the rest:
// "0, 1, 2, … and 990 more". The items are shown as they are given (escape them first where a file gave them).
std::string cutList(const std::vector<std::string>& items, std::size_t most = kMaxShownItems,
    std::string_view separator = ", ");

// "100 189": a count with its thousands set apart by spaces.
std::string countText(std::size_t count);

}  // namespace asyncscope
