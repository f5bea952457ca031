#include "engine/run/plan.hpp"

#include "engine/model/size_parse.hpp"

#include <algorithm>

namespace asyncscope {

std::string shapeLabel(int chunks, int streams)
{
    return "K=" + std::to_string(chunks) + (chunks > 1 ? " S=" + std::to_string(streams) : std::string());
}

std::string memoryLabel(const PipelineConfig& c)
{
    std::string label = nameOf(c.hostMemory);
    if (c.hostMemory == HostMemory::Managed)
        return label + ", " + nameOf(c.managedMigration);
    if (hasCopies(c) && c.copy == CopyMechanism::Sm)
        label += ", SM copies";
    return label;
}

Plan seriesPlan(const PipelineConfig& config)
{
    return Plan { std::nullopt, { Variant { formatBytes(config.bytes()), config } } };
}

Plan tryAdvicePlan(const PipelineConfig& now, const SuggestedShape& shape)
{
    PipelineConfig advised = now;
    advised.chunks = shape.chunks;
    advised.streams = shape.streams;
    advised.submission = shape.submission;
    return Plan { Comparison::Overlap,
        { Variant { "now " + shapeLabel(now.chunks, now.streams), now },
            Variant { "advised " + shapeLabel(advised.chunks, advised.streams), advised } } };
}

std::vector<std::string> runnableComparisonNames()
{
    std::vector<std::string> names;
    for (const auto& [comparison, name] : EnumNames<Comparison>::entries)
        if (comparison != Comparison::Processes)
            names.emplace_back(name);
    return names;
}

std::string runnableComparisonText()
{
    const std::vector<std::string> names = runnableComparisonNames();
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
        text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return text;
}

std::optional<Comparison> parseRunnableComparison(std::string_view text)
{
    const std::optional<Comparison> comparison = parseName<Comparison>(text);
    return comparison == Comparison::Processes ? std::nullopt : comparison;
}

Result<Plan> comparisonPlan(Comparison comparison, const PipelineConfig& base, std::size_t minBytes,
    std::size_t maxBytes)
{
    Plan plan { comparison, {} };
    auto add = [&](std::string label, auto change) {
        Variant v { std::move(label), base };
        change(v.config);
        plan.variants.push_back(std::move(v));
    };
    switch (comparison) {
    case Comparison::HostMemory:
        for (HostMemory memory : { HostMemory::Pinned, HostMemory::Pageable })
            add(nameOf(memory), [memory](PipelineConfig& c) { c.hostMemory = memory; });
        break;
    case Comparison::Memory: {
        auto addKind = [&](HostMemory memory, CopyMechanism copy, ManagedMigration migration) {
            PipelineConfig c = base;
            c.hostMemory = memory;
            c.copy = copy;
            c.managedMigration = migration;
            add(memoryLabel(c), [&c](PipelineConfig& v) { v = c; });
        };
        const CopyMechanism other = base.copy == CopyMechanism::Sm ? CopyMechanism::CopyEngine : CopyMechanism::Sm;
        for (HostMemory memory : { HostMemory::Pageable, HostMemory::Pinned, HostMemory::WriteCombined,
                 HostMemory::Registered })
            addKind(memory, base.copy, base.managedMigration);
        addKind(HostMemory::Pinned, other, base.managedMigration);
        addKind(HostMemory::Mapped, CopyMechanism::CopyEngine, base.managedMigration);
        addKind(HostMemory::Managed, CopyMechanism::CopyEngine, ManagedMigration::Prefetch);
        addKind(HostMemory::Managed, CopyMechanism::CopyEngine, ManagedMigration::OnDemand);
        break;
    }
    case Comparison::Wait:
        for (const auto& [wait, name] : EnumNames<WaitMode>::entries)
            add(name, [w = wait](PipelineConfig& c) { c.waitMode = w; });
        break;
    case Comparison::Size:
        if (minBytes < sizeof(int) || maxBytes < minBytes)
            return makeError(ErrorKind::Usage,
                "the sweep range " + formatBytes(minBytes) + " to " + formatBytes(maxBytes) + " is empty",
                "Give a smallest size of at least 4 bytes and a largest size not below it.");
        for (std::size_t bytes = minBytes; bytes <= maxBytes; bytes *= 2) {
            add(formatBytes(bytes), [bytes](PipelineConfig& c) { c.elements = bytes / sizeof(int); });
            if (bytes > maxBytes / 2)
                break;
        }
        break;
    case Comparison::Overlap:
        for (int chunks = 1; chunks <= kOverlapMaxChunks && static_cast<std::size_t>(chunks) <= base.elements;
             chunks *= 2) {
            for (int streams = 1; streams <= std::min(chunks, kOverlapMaxStreams); streams *= 2)
                add(shapeLabel(chunks, streams), [=](PipelineConfig& c) {
                    c.chunks = chunks;
                    c.streams = streams;
                });
        }
        break;
    case Comparison::Processes:
        return makeError(ErrorKind::Usage, "a comparison of processes is what recording a program makes: it runs none",
            "Record the program: asyncscope-cli record -- ./app.");
    case Comparison::Submission: {
        std::vector<std::pair<int, int>> shapes { { 1, 1 } };
        if (base.chunks > 1)
            shapes.emplace_back(base.chunks, base.streams);
        for (const auto& [chunks, streams] : shapes) {
            for (const auto& [submission, name] : EnumNames<Submission>::entries)
                add(std::string(name) + " " + shapeLabel(chunks, streams),
                    [chunks = chunks, streams = streams, submission = submission](PipelineConfig& c) {
                        c.chunks = chunks;
                        c.streams = streams;
                        c.submission = submission;
                    });
        }
        break;
    }
    }
    for (const Variant& v : plan.variants) {
        if (auto invalid = validate(v.config))
            return *invalid;
    }
    return plan;
}

const Error* PlanReport::failure() const
{
    for (const VariantResult& v : variants) {
        if (v.failure)
            return &*v.failure;
    }
    return nullptr;
}

std::size_t PlanReport::ranCount() const
{
    std::size_t n = 0;
    for (const VariantResult& v : variants)
        n += v.ran() ? 1 : 0;
    return n;
}

std::string PlanReport::notRunText() const
{
    std::string text;
    for (const VariantResult& v : variants) {
        if (v.notRun)
            text += (text.empty() ? "" : "; ") + v.label + ": " + v.notRun->message();
    }
    if (text.empty())
        return text;
    return "ran " + std::to_string(ranCount()) + " of " + std::to_string(planned) + " variants; not run: " + text;
}

}  // namespace asyncscope
