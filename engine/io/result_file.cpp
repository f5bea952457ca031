#include "engine/io/result_file.hpp"

#include "engine/host/host_memory.hpp"
#include "engine/io/host_record_json.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/json/report_fields.hpp"
#include "engine/io/report_file.hpp"
#include "engine/model/display_text.hpp"
#include "engine/model/size_parse.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <new>
#include <system_error>
#include <utility>
#include <vector>

namespace asyncscope {

namespace {

constexpr std::size_t kSniffedBytes = std::size_t(64) << 10;  // a record's or a report's format is within this

// Finds the document's top-level "format" without reading further: the parse stops once it is known, or once the
// document's first nested value shows the format comes later (or never).
class FormatSniffer final : public nlohmann::json_sax<nlohmann::json> {
public:
    std::string format;
    bool found = false;

    bool null() override { return value({}); }
    bool boolean(bool) override { return value({}); }
    bool number_integer(number_integer_t) override { return value({}); }
    bool number_unsigned(number_unsigned_t) override { return value({}); }
    bool number_float(number_float_t, const string_t&) override { return value({}); }
    bool string(string_t& s) override { return value(s); }
    bool binary(binary_t&) override { return value({}); }
    bool start_object(std::size_t) override { return ++m_depth <= 1; }
    bool key(string_t& k) override
    {
        m_formatNext = m_depth == 1 && k == "format";
        return true;
    }
    bool end_object() override { return --m_depth >= 0; }
    bool start_array(std::size_t) override { return false; }  // the format is among the first scalar fields
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    bool value(const std::string& text)
    {
        if (!m_formatNext)
            return true;
        format = text;
        found = true;
        return false;  // known: stop here
    }
    int m_depth = 0;
    bool m_formatNext = false;
};

// The document's top-level "format": from its first block (a record of a few kB is read whole at once, kept in
// `text`), else from the stream; empty where it has none.
std::string sniffFormat(std::istream& in, std::string& text)
{
    const std::size_t first = readMore(in, text, kSniffedBytes);
    FormatSniffer sniffer;
    nlohmann::json::sax_parse(text.begin(), text.end(), &sniffer, nlohmann::json::input_format_t::json, false);
    if (!sniffer.found && first == kSniffedBytes) {
        sniffer = FormatSniffer();
        in.clear();
        in.seekg(0);
        nlohmann::json::sax_parse(in, &sniffer, nlohmann::json::input_format_t::json, false);
    }
    return sniffer.format;
}

HostReport fromSeries(Report report, const std::string& fileName)
{
    HostReport host;
    host.host = report.host.empty() ? fileName : report.host;
    host.driverVersion = report.driverVersion;
    host.runtimeVersion = report.runtimeVersion;
    DeviceResult d;
    d.device = report.device;
    if (report.binding)
        d.binding = *report.binding;
    VariantResult v;
    v.label = formatBytes(report.config.bytes());
    v.report = std::move(report);
    d.plan.variants.push_back(std::move(v));
    d.plan.planned = 1;
    host.devices.push_back(std::move(d));
    return host;
}

// What a file is read for, for messages about files it does not take.
enum class ReadFor { Merge, Baseline };

// readResultFile without its guard against the unexpected. `progress` and `cancel` reach a series report's reader.
Result<HostReport> readChecked(const std::string& path, const std::string& name, ReadFor use,
    const ReadProgress& progress, const std::atomic<bool>* cancel)
{
    const std::filesystem::path file(path);
    std::string suffix = file.extension().string();
    std::transform(suffix.begin(), suffix.end(), suffix.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string format;
    if (suffix != ".csv") {
        std::ifstream in(file, std::ios::binary);
        if (!in)
            return makeError(ErrorKind::Io, name + ": cannot be opened: " + systemErrorText(errno),
                "Check that the file exists and is readable.");
        std::string text;
        format = sniffFormat(in, text);
        if (format == kHostRecordFormat) {
            if (const auto size = sizeThatFitsMemory(file, name); !size)
                return size.error();
            in.clear();
            in.seekg(std::streamoff(text.size()));
            while (readMore(in, text, std::size_t(1) << 20) > 0) {
            }
            if (in.bad())
                return makeError(ErrorKind::Io, name + ": cannot be read: " + systemErrorText(errno));
            auto host = readHostRecordText(text);
            if (!host) {
                Error error = host.error();
                error.detail = name + ": " + error.detail;
                return error;
            }
            return host;
        }
        const bool merge = use == ReadFor::Merge;
        if (format == kComparisonFormatName)
            return makeError(ErrorKind::Io,
                name + ": a comparison of several variants, which " + (merge ? "a merge" : "a baseline") +
                    " does not take",
                merge ? "Merge series reports and host records (asyncscope-cli --format json, with or without "
                        "--device all)."
                      : "Compare one series: run the variant alone (asyncscope-cli --format json with its options).");
        if (format == "asyncscope-side-by-side")
            return makeError(ErrorKind::Io,
                name + ": a merged table, which " + (merge ? "a merge" : "a baseline") + " does not take",
                merge ? "Merge the records it was made from." : "Compare one of the series it was made from.");
    }
    auto report = readReportFile(path, progress, cancel);
    if (!report)
        return report.error();
    return fromSeries(std::move(*report), file.filename().string());  // a host's name: the file's, without its folder
}

}  // namespace

namespace {

// readChecked, each error naming the file, and nothing thrown.
Result<HostReport> readGuarded(
    const std::string& path, ReadFor use, const ReadProgress& progress = {}, const std::atomic<bool>* cancel = nullptr)
{
    const std::string name = shownPath(path);
    // Only a regular file is opened: a directory fails late inside the stream, a FIFO blocks for ever.
    if (auto unusable = checkReadableFile(path)) {
        // As every error here, it begins with the file's name: "x.json: is a directory".
        Error error = *unusable;
        error.detail = error.detail.rfind(path, 0) == 0 ? name + ":" + error.detail.substr(path.size())
                                                         : name + ": " + error.detail;
        return error;
    }
    try {
        return readChecked(path, name, use, progress, cancel);
    } catch (const std::bad_alloc&) {
        return makeError(ErrorKind::TooLarge, name + ": too big to read here: the memory ran out",
            "Close other programs, or merge fewer or shorter files.");
    } catch (const std::exception&) {
        // A reader met what no check of its foresaw: the file still gets an answer, and the others are read.
        return makeError(ErrorKind::Io, name + ": cannot be read: its content is not what AsyncScope writes");
    } catch (...) {
        return makeError(ErrorKind::Io, name + ": cannot be read: its content is not what AsyncScope writes");
    }
}

}  // namespace

Result<HostReport> readResultFile(const std::string& path)
{
    return readGuarded(path, ReadFor::Merge);
}

Result<Report> readSeriesFile(const std::string& path, const ReadProgress& progress, const std::atomic<bool>* cancel)
{
    auto host = readGuarded(path, ReadFor::Baseline, progress, cancel);
    if (!host)
        return host.error();
    const std::string name = shownPath(path);
    if (host->error)
        return makeError(ErrorKind::Io,
            name + ": a record of a host where nothing ran (" + cutText(host->error->detail, kMaxShownMessageChars) +
                ")",
            "Compare a file that holds a series.");
    std::vector<Report*> series;  // moved out, not copied: a baseline may hold a million runs
    std::vector<std::string> devices;
    for (DeviceResult& d : host->devices) {
        if (d.plan.variants.size() > 1)
            return makeError(ErrorKind::Io, name + ": a comparison of several variants, which a baseline does not take",
                "Compare one series: run the variant alone (asyncscope-cli --format json with its options).");
        if (d.plan.variants.empty() || d.plan.variants.front().report.runs.empty())
            continue;
        series.push_back(&d.plan.variants.front().report);
        devices.push_back(std::to_string(d.device.index));
    }
    if (series.empty())
        return makeError(ErrorKind::Io, name + ": holds no runs", "Compare a file that holds a series' runs.");
    if (series.size() > 1)
        return makeError(ErrorKind::Io,
            name + ": holds the series of " + std::to_string(series.size()) + " GPUs (" + cutList(devices) +
                "), and a baseline is one series",
            "Write one GPU's series (asyncscope-cli --device N --format json) and compare that.");
    Report report = std::move(*series.front());
    // A host record's series: the host is the record's. (A series report without a host was given its file's name,
    // without its folder, as a merge's host: not a host.)
    if (report.host.empty() && host->host != std::filesystem::path(path).filename().string())
        report.host = host->host;
    return report;
}

bool isComparisonFile(const std::string& path)
{
    if (checkReadableFile(path))
        return false;
    std::ifstream in(std::filesystem::path(path), std::ios::binary);
    std::string text;
    return in && sniffFormat(in, text) == kComparisonFormatName;
}

}  // namespace asyncscope
