#include "engine/model/display_text.hpp"

#include <algorithm>

namespace asyncscope {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD, in place of a byte that is not UTF-8

bool plainAscii(unsigned char c)
{
    return c >= 0x20 && c < 0x7F;
}

// The escape of a control character: "\n", "\x1b"; `code` is its code point (C1 too).
void appendEscaped(std::string& out, unsigned code)
{
    static const char hex[] = "0123456789abcdef";
    switch (code) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: break;
    }
    out += "\\x";
    out += hex[(code >> 4) & 0xF];
    out += hex[code & 0xF];
}

// Appends the shown form of the character `text` begins with and returns how many bytes it took: a well-formed
// sequence as it is, a control character escaped, a byte that is not UTF-8 as U+FFFD.
std::size_t appendShown(std::string& out, std::string_view text)
{
    const unsigned char c = static_cast<unsigned char>(text[0]);
    const std::size_t length = utf8Length(text);
    if (length == 0) {
        out += kReplacement;
        return 1;
    }
    if (length == 1) {
        if (plainAscii(c))
            out += char(c);
        else
            appendEscaped(out, c);
        return 1;
    }
    const unsigned char second = static_cast<unsigned char>(text[1]);
    if (c == 0xC2 && second <= 0x9F)  // U+0080-U+009F, the C1 controls
        appendEscaped(out, second);
    else
        out.append(text.substr(0, length));
    return length;
}

// The characters of `text` from `at` on, a byte that is not UTF-8 counting as one.
std::size_t charactersFrom(std::string_view text, std::size_t at)
{
    std::size_t count = 0;
    while (at < text.size()) {
        at += std::max<std::size_t>(utf8Length(text.substr(at)), 1);
        ++count;
    }
    return count;
}

}  // namespace

std::size_t utf8Length(std::string_view text)
{
    if (text.empty())
        return 0;
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80)
        return 1;
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the second byte's range (narrower after some leads)
    if (lead >= 0xC2 && lead <= 0xDF)
        length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        low = lead == 0xE0 ? 0xA0 : 0x80;
        high = lead == 0xED ? 0x9F : 0xBF;  // not the surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        low = lead == 0xF0 ? 0x90 : 0x80;
        high = lead == 0xF4 ? 0x8F : 0xBF;  // not beyond U+10FFFF
    } else {
        return 0;
    }
    if (text.size() < length || byte(1) < low || byte(1) > high)
        return 0;
    for (std::size_t k = 2; k < length; ++k) {
        if (byte(k) < 0x80 || byte(k) > 0xBF)
            return 0;
    }
    return length;
}

bool isValidUtf8(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t length = utf8Length(text.substr(i));
        if (length == 0)
            return false;
        i += length;
    }
    return true;
}

std::string validUtf8(std::string_view text)
{
    if (isValidUtf8(text))
        return std::string(text);
    std::string out;
    out.reserve(text.size() + 8);
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = utf8Length(text.substr(i));
        if (length == 0) {
            out += kReplacement;
            ++i;
        } else {
            out.append(text.substr(i, length));
            i += length;
        }
    }
    return out;
}

std::string displayText(std::string_view text)
{
    if (std::all_of(text.begin(), text.end(), [](char c) { return plainAscii(static_cast<unsigned char>(c)); }))
        return std::string(text);
    std::string out;
    out.reserve(text.size() + 8);
    for (std::size_t i = 0; i < text.size();)
        i += appendShown(out, text.substr(i));
    return out;
}

std::string cutText(std::string_view text, std::size_t maxChars)
{
    if (text.size() <= maxChars)  // no more characters than bytes
        return displayText(text);
    std::string out;
    std::size_t i = 0;
    for (std::size_t chars = 0; i < text.size() && chars < maxChars; ++chars)
        i += appendShown(out, text.substr(i));
    if (i == text.size())
        return out;
    return out + "… (" + countText(maxChars + charactersFrom(text, i)) + " characters)";
}

std::string cutList(const std::vector<std::string>& items, std::size_t most, std::string_view separator)
{
    std::string text;
    const std::size_t shown = std::min(items.size(), most);
    for (std::size_t i = 0; i < shown; ++i) {
        if (i > 0)
            text += separator;
        text += items[i];
    }
    if (shown < items.size())
        text += std::string(shown > 0 ? separator : std::string_view()) + "… and " + countText(items.size() - shown) +
            " more";
    return text;
}

std::string countText(std::size_t count)
{
    const std::string digits = std::to_string(count);
    std::string text;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            text += ' ';
        text += digits[i];
    }
    return text;
}

}  // namespace asyncscope
