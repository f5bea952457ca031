#include "engine/io/man_options.hpp"

namespace asyncscope {

namespace {

// Text as roff prints it literally: a backslash is \e, a hyphen \- (a minus sign, as options are spelled in man
// pages), and the few non-ASCII characters --help uses become roff's named glyphs.
std::string roffText(const std::string& text)
{
    struct Glyph {
        const char* utf8;
        const char* roff;
    };
    static constexpr Glyph kGlyphs[] = {
        { "\xE2\x80\xA6", "..." },     // … horizontal ellipsis
        { "\xE2\x80\xBA", "\\(->" },   // › as in "Settings › Theme"
        { "\xC3\x97", "\\(mu" },       // × multiplication sign
        { "\xC2\xB5", "\\(mc" },       // µ micro sign
        { "\xCE\xBC", "\\(*m" },       // μ Greek small letter mu
    };
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (std::size_t i = 0; i < text.size();) {
        bool replaced = false;
        for (const Glyph& g : kGlyphs) {
            const std::string utf8 = g.utf8;
            if (text.compare(i, utf8.size(), utf8) == 0) {
                out += g.roff;
                i += utf8.size();
                replaced = true;
                break;
            }
        }
        if (replaced)
            continue;
        const char ch = text[i++];
        if (ch == '\\')
            out += "\\e";
        else if (ch == '-')
            out += "\\-";
        else if (ch == '\n')
            out += ' ';  // one paragraph: roff fills the lines itself
        else
            out += ch;
    }
    // A line that starts with a dot or a quote would be read as a request.
    if (!out.empty() && (out.front() == '.' || out.front() == '\''))
        out.insert(0, "\\&");
    return out;
}

}  // namespace

std::string roffOptionList(const std::vector<ManOption>& options)
{
    std::string out;
    for (const ManOption& option : options) {
        out += ".TP\n";
        std::string tag;
        for (const std::string& name : option.names) {
            if (!tag.empty())
                tag += ", ";
            tag += "\\fB" + roffText(name) + "\\fR";
        }
        if (!option.value.empty())
            tag += " \\fI" + roffText(option.value) + "\\fR";
        out += (tag.empty() ? std::string("\\&") : tag) + '\n';
        std::string paragraph = roffText(option.description);
        while (!paragraph.empty() && paragraph.back() == ' ')
            paragraph.pop_back();
        if (!paragraph.empty() && paragraph.back() != '.')
            paragraph += '.';
        if (!option.defaultValue.empty())
            paragraph += (paragraph.empty() ? "" : " ") + std::string("Default: \\fB") + roffText(option.defaultValue) +
                "\\fR.";
        out += (paragraph.empty() ? std::string("\\&") : paragraph) + '\n';
    }
    return out;
}

}  // namespace asyncscope
