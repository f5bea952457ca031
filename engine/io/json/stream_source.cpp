#include "engine/io/json/stream_source.hpp"

#include "engine/io/input_file.hpp"

#include <algorithm>

namespace asyncscope::json_read {

namespace {

constexpr std::size_t kBlock = std::size_t(4) << 20;

}  // namespace

StreamSource::StreamSource(std::istream& in, std::string first, ReadMeter& meter)
    : m_in(in)
    , m_buffer(std::move(first))
    , m_meter(meter)
    , m_total(m_buffer.size())
{
    cutAtNul();
}

std::string StreamSource::nulPlace() const
{
    return m_nulLine > 0 ? "line " + std::to_string(m_nulLine) + ", column " + std::to_string(m_nulColumn)
                         : std::string();
}

std::size_t StreamSource::line()
{
    const std::size_t upTo = std::min(m_pos > 0 ? m_pos - 1 : 0, m_buffer.size());
    if (upTo > m_counted) {
        m_lines += std::size_t(std::count(m_buffer.begin() + std::ptrdiff_t(m_counted),
            m_buffer.begin() + std::ptrdiff_t(upTo), '\n'));
        m_counted = upTo;
    }
    // Nothing taken of this block yet: the last character taken ended the block before, a line break perhaps.
    return m_lines + (m_pos == 0 && m_blockEndedLine ? 0 : 1);
}

std::size_t StreamSource::column() const
{
    const std::size_t at = std::min(m_pos > 0 ? m_pos - 1 : 0, m_buffer.size());
    const std::size_t newline = at == 0 ? std::string::npos : m_buffer.rfind('\n', at - 1);
    if (newline != std::string::npos)
        return at - newline;
    return m_total - m_buffer.size() + at - m_lineStart + 1;
}

bool StreamSource::refill()
{
    if (m_done || m_nulLine > 0)
        return false;
    line();
    m_lines += std::size_t(std::count(m_buffer.begin() + std::ptrdiff_t(m_counted), m_buffer.end(), '\n'));
    if (const std::size_t newline = m_buffer.rfind('\n'); newline != std::string::npos)
        m_lineStart = m_total - m_buffer.size() + newline + 1;
    m_blockEndedLine = !m_buffer.empty() && m_buffer.back() == '\n';
    m_counted = 0;
    m_buffer.clear();
    m_pos = 0;
    const std::size_t got = readMore(m_in, m_buffer, kBlock);
    m_total += got;
    m_done = got == 0 || !m_meter.advance(got);
    if (!m_done)
        cutAtNul();
    return !m_done && !m_buffer.empty();
}

void StreamSource::cutAtNul()
{
    const std::size_t nul = m_buffer.find('\0');
    if (nul == std::string::npos)
        return;
    const std::size_t pos = m_pos;
    m_pos = nul + 1;
    m_nulLine = line();
    m_nulColumn = column();
    m_buffer.resize(nul);
    m_pos = pos;
}

}  // namespace asyncscope::json_read
