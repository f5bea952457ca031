// Reports as the JSON text the writers give and the readers take, for tests: its lines, and what a read of a text
// says went wrong.
#pragma once

#include "engine/io/json/json_report.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace asyncscope::testing {

inline std::vector<std::string> linesOf(const std::string& text)
{
    std::istringstream in(text);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

inline Result<Report> readJsonText(const std::string& text)
{
    std::istringstream in(text);
    return readJson(in);
}

// What a read of `text` says went wrong (a refusal is an Io error); empty when it read.
inline std::string problemOf(const std::string& text)
{
    const auto report = readJsonText(text);
    if (report.ok())
        return {};
    EXPECT_EQ(report.error().kind, ErrorKind::Io) << report.error().message();
    return report.error().detail;
}

}  // namespace asyncscope::testing
