#include "engine/csv_report.hpp"

#include "engine/statistics.hpp"

namespace asyncscope {

void writeCsv(std::ostream& out, const Report& report)
{
    const double bytes = static_cast<double>(report.config.bytes());
    out << "run,warmup,gpu_time_ms,cpu_submit_time_ms,poll_iterations,wait_ms,wait_cpu_ms,h2d_ms,kernel_ms,d2h_ms,"
           "h2d_gbps,d2h_gbps,verified,first_wrong_index\n";
    const auto flags = out.flags();
    const auto precision = out.precision(9);
    for (const RunResult& r : report.runs) {
        out << r.index << ',' << (r.warmup ? 1 : 0) << ',' << r.gpuMs << ',' << r.cpuSubmitMs << ',' << r.pollIterations
            << ',' << r.waitMs << ',' << r.waitCpuMs << ',';
        if (r.stagesTimed)
            out << r.h2dMs << ',' << r.kernelMs << ',' << r.d2hMs << ',' << gigabytesPerSecond(bytes, r.h2dMs) << ','
                << gigabytesPerSecond(bytes, r.d2hMs) << ',';
        else
            out << ",,,,,";
        out << (r.verified ? 1 : 0) << ',' << r.firstWrongIndex << '\n';
    }
    out.precision(precision);
    out.flags(flags);
}

}  // namespace asyncscope
