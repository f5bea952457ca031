// The record of the plan this session runs, as the run thread delivers it: each variant as the runner starts and
// ends it, with the binding of the run thread to CPUs, its runs appended batch by batch (taken out of the batch: a
// measured run lives here once) and those that returned a wrong element counted. At its end the runner's record,
// whose variants hold no runs, takes them from here. The variants are appended as the plan runs: whoever reads one
// knows it by its index, and a reader on another thread is settled before anything is appended.
#pragma once

#include "engine/model/device.hpp"
#include "engine/model/run_store.hpp"
#include "engine/run/device_plan.hpp"
#include "engine/run/plan.hpp"

#include <optional>

namespace asyncscope {

class PlanRecord {
public:
    // The plan running, or the last one that ran (see take()).
    const PlanReport& report() const { return m_plan; }
    PlanReport& report() { return m_plan; }

    // `plan` is about to run: no variant yet, no binding, no wrong run.
    void begin(const Plan& plan);
    void bind(const CpuBinding& binding) { m_binding = binding; }
    void starting(int index, const VariantResult& variant);
    // Moves `runs` to the end of the variant's.
    void append(int index, RunStore& runs);
    // The runner's record of the variant, this one's runs kept.
    void ended(int index, const VariantResult& variant);
    // The runner's record of the plan as `host` brings it (or one that says why it did not run), each of its
    // variants with the runs taken from this one's at the same index.
    PlanReport finish(const HostReport& host);
    // Runs of the plan that returned a wrong element.
    std::size_t wrongRuns() const { return m_wrong; }

private:
    VariantResult& variantAt(int index);  // made where it is not yet

    PlanReport m_plan;
    std::optional<CpuBinding> m_binding;  // the running plan's thread's
    std::size_t m_wrong = 0;
};

}  // namespace asyncscope
