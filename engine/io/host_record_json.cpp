#include "engine/io/host_record_json.hpp"

#include "engine/io/json/json_report.hpp"

#include <sstream>
#include <stdexcept>

namespace asyncscope {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// Everything before the devices, indented; the devices are written after it, each report as writeJsonDocument lays
// it out.
ordered_json headerJson(const HostReport& host)
{
    ordered_json j;
    j["format"] = kHostRecordFormat;
    j["format_version"] = kHostRecordVersion;
    j["host"] = host.host;
    j["mode"] = nameOf(host.mode);
    j["comparison"] = host.comparison ? nameOf(*host.comparison) : "series";
    j["driver_version"] = host.driverVersion;
    j["runtime_version"] = host.runtimeVersion;
    if (host.error)
        j["error"] = errorToJson(*host.error);
    if (host.aggregate) {
        const AggregateBandwidth& a = *host.aggregate;
        j["aggregate"] = { { "devices", a.devices }, { "overlap_ms", a.overlapMs }, { "bytes", a.bytes },
            { "gbps", a.gbps } };
    }
    return j;
}

struct BadRecord : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::optional<Comparison> comparisonFrom(const json& j)
{
    const std::string name = j.value("comparison", "series");
    if (name == "series")
        return std::nullopt;
    if (const auto c = parseName<Comparison>(name))
        return c;
    throw BadRecord("comparison: '" + name + "' is not series, " + acceptedNames<Comparison>());
}

VariantResult variantFrom(const json& v, const std::string& place)
{
    VariantResult variant;
    variant.label = v.value("label", "");
    if (v.contains("not_run"))
        variant.notRun = errorFromJson(v.at("not_run"));
    if (v.contains("failure"))
        variant.failure = errorFromJson(v.at("failure"));
    std::istringstream text(v.at("report").dump());
    auto report = readJson(text);
    if (!report)
        throw BadRecord(place + ".report: " + report.error().detail);
    variant.report = std::move(*report);
    return variant;
}

HostReport hostFrom(const json& j)
{
    if (!j.is_object() || j.value("format", "") != kHostRecordFormat)
        throw BadRecord("not an AsyncScope host record (its format is not " + std::string(kHostRecordFormat) + ")");
    const json& version = j.at("format_version");
    if (!version.is_number_integer() || version.get<int>() < 1 || version.get<int>() > kHostRecordVersion)
        throw BadRecord("format_version " + version.dump() + " is not one this AsyncScope reads (1 to " +
            std::to_string(kHostRecordVersion) + "); a newer AsyncScope wrote it?");
    HostReport host;
    host.host = j.at("host").get<std::string>();
    const std::string mode = j.value("mode", nameOf(DeviceMode::OneAtATime));
    const auto parsedMode = parseName<DeviceMode>(mode);
    if (!parsedMode)
        throw BadRecord("mode: '" + mode + "' is not " + acceptedNames<DeviceMode>());
    host.mode = *parsedMode;
    host.comparison = comparisonFrom(j);
    host.driverVersion = j.value("driver_version", 0);
    host.runtimeVersion = j.value("runtime_version", 0);
    if (j.contains("error"))
        host.error = errorFromJson(j.at("error"));
    if (j.contains("aggregate")) {
        const json& a = j.at("aggregate");
        host.aggregate = AggregateBandwidth { a.at("devices"), a.at("overlap_ms"), a.at("bytes"), a.at("gbps") };
    }
    const json& devices = j.at("devices");
    if (!devices.is_array())
        throw BadRecord("devices is not a list");
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const json& d = devices[i];
        const std::string place = "devices[" + std::to_string(i) + "]";
        DeviceResult result;
        try {
            result.device = deviceFromJson(d.at("device"));
            if (d.contains("binding"))
                result.binding = bindingFromJson(d.at("binding"));
        } catch (const json::exception& e) {
            throw BadRecord(place + ": " + e.what());
        }
        const json& variants = d.at("variants");
        for (std::size_t k = 0; k < variants.size(); ++k)
            result.plan.variants.push_back(variantFrom(variants[k], place + ".variants[" + std::to_string(k) + "]"));
        result.plan.comparison = host.comparison;
        result.plan.planned = d.value("planned", result.plan.variants.size());
        host.devices.push_back(std::move(result));
    }
    return host;
}

}  // namespace

json errorToJson(const Error& error)
{
    json j = { { "kind", nameOf(error.kind) }, { "message", error.message() } };
    if (!error.api.empty())
        j["api"] = error.api;
    if (error.code != 0)
        j["code"] = error.code;
    if (!error.codeName.empty())
        j["code_name"] = error.codeName;
    j["detail"] = error.detail;
    if (!error.advice.empty())
        j["advice"] = error.advice;
    return j;
}

Error errorFromJson(const json& j)
{
    Error e;
    e.kind = parseName<ErrorKind>(j.value("kind", "")).value_or(ErrorKind::Cuda);
    e.api = j.value("api", "");
    e.code = j.value("code", 0);
    e.codeName = j.value("code_name", "");
    // A record written by hand may give only the message: it stands for the detail then.
    e.detail = j.contains("detail") ? j.value("detail", "") : j.value("message", "");
    e.advice = j.value("advice", "");
    return e;
}

void writeHostRecordJson(std::ostream& out, const HostReport& host)
{
    std::string text = headerJson(host).dump(2);
    text.erase(text.size() - 2);  // "\n}": the devices come before the closing brace
    text += ",\n  \"devices\": [";
    out << text;
    for (std::size_t i = 0; i < host.devices.size(); ++i) {
        const DeviceResult& d = host.devices[i];
        out << (i ? ",\n    {" : "\n    {") << "\n      \"device\": " << deviceToJson(d.device).dump()
            << ",\n      \"binding\": " << bindingToJson(d.binding).dump()
            << ",\n      \"planned\": " << d.plan.planned << ",\n      \"variants\": [";
        for (std::size_t k = 0; k < d.plan.variants.size(); ++k) {
            const VariantResult& v = d.plan.variants[k];
            out << (k ? ",\n        {" : "\n        {") << "\"label\": " << json(v.label).dump();
            if (v.notRun)
                out << ", \"not_run\": " << errorToJson(*v.notRun).dump();
            if (v.failure)
                out << ", \"failure\": " << errorToJson(*v.failure).dump();
            out << ", \"report\":\n";
            writeJsonDocument(out, v.report);
            out << "        }";
        }
        out << (d.plan.variants.empty() ? "]\n    }" : "\n      ]\n    }");
    }
    out << (host.devices.empty() ? "]\n}\n" : "\n  ]\n}\n");
}

Result<HostReport> readHostRecordJson(std::istream& in)
{
    const json j = json::parse(in, nullptr, false);
    if (j.is_discarded())
        return makeError(ErrorKind::Io, "not JSON, or not complete");
    try {
        return hostFrom(j);
    } catch (const BadRecord& e) {
        return makeError(ErrorKind::Io, e.what());
    } catch (const json::exception& e) {
        return makeError(ErrorKind::Io, std::string("the record is incomplete: ") + e.what());
    }
}

}  // namespace asyncscope
