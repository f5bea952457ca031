#include "engine/io/operation_costs_json.hpp"

#include "engine/io/bounded_json.hpp"

#include <nlohmann/json.hpp>

namespace asyncscope {

namespace {

struct CostField {
    const char* key;
    double OperationCosts::*value;
    double most;
    const char* unit;
};

constexpr CostField kFields[] = {
    { "copy_us", &OperationCosts::copyUs, kMaxOperationCostUs, "µs" },
    { "launch_us", &OperationCosts::launchUs, kMaxOperationCostUs, "µs" },
    { "kernel_gbps", &OperationCosts::kernelGBps, kMaxKernelGBps, "GB/s" },
    { "call_us", &OperationCosts::callUs, kMaxOperationCostUs, "µs" },
    { "chain_us", &OperationCosts::chainUs, kMaxOperationCostUs, "µs" },
};

}  // namespace

nlohmann::json operationCostsJson(const OperationCosts& costs)
{
    nlohmann::json j = nlohmann::json::object();
    for (const CostField& f : kFields)
        j[f.key] = costs.*f.value;
    return j;
}

FieldCheck readOperationCosts(const nlohmann::json& object, const std::string& path, OperationCosts& out)
{
    if (!object.is_object())
        return FieldProblem { path, quotedJson(object), "an object of operation costs" };
    OperationCosts costs;
    for (const CostField& f : kFields) {
        const auto found = object.find(f.key);
        if (found == object.end())
            continue;
        const std::string field = path + "." + f.key;
        if (!found->is_number())
            return FieldProblem { field, quotedJson(*found), std::string("a number of ") + f.unit };
        if (auto problem = checkCalibrationAmount(field, found->get<double>(), f.most, f.unit))
            return problem;
        costs.*f.value = found->get<double>();
    }
    out = costs;
    return std::nullopt;
}

}  // namespace asyncscope
