// record-fork: a program that forks before its first CUDA call, so that two processes each initialise CUDA and run
// iterations of their own. The parent runs 10 iterations of 4 MiB, the child 10 of 16 MiB (so their runs are told
// apart by size as well as by process): copy in, kernel, copy out on a stream, then cudaStreamSynchronize, each timed
// by a pair of CUDA events and printed as "parent iteration I: X.XXX ms" or "child iteration I: X.XXX ms". The parent
// then waits for the child and exits 0 only when both succeeded.
#include "program_common.cuh"

#include <cerrno>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// One process's 10 iterations; 0 when every one ran and copied back what it should.
int iterate(const char* who, int n, float factor)
{
    std::printf("%s (pid %d): 10 iterations of %zu KiB\n", who, int(::getpid()), size_t(n) * sizeof(float) >> 10);
    Pipeline pipeline;
    if (makePipeline(pipeline, n, cudaStreamDefault) != 0)
        return 1;
    for (int iteration = 1; iteration <= 10; ++iteration) {
        if (submit(pipeline, factor) != 0 || finish(pipeline, factor, who) != 0)
            return 1;
        std::printf("%s iteration %d: %.3f ms\n", who, iteration, double(pipeline.milliseconds));
    }
    return freePipeline(pipeline);
}

}  // namespace

int main()
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    std::fflush(nullptr);  // nothing buffered is written twice
    const pid_t child = ::fork();
    if (child < 0) {
        std::perror("record-fork: fork");
        return 1;
    }
    if (child == 0)
        return iterate("child", 1 << 22, 3.0f);
    const int mine = iterate("parent", 1 << 20, 2.0f);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            std::perror("record-fork: waitpid");
            return 1;
        }
    }
    const bool childSucceeded = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!childSucceeded) {
        if (WIFSIGNALED(status))
            std::fprintf(stderr, "record-fork: the child (pid %d) was killed by signal %d\n", int(child),
                WTERMSIG(status));
        else
            std::fprintf(stderr, "record-fork: the child (pid %d) exited %d\n", int(child), WEXITSTATUS(status));
    }
    if (mine != 0 || !childSucceeded)
        return 1;
    std::printf("record-fork: parent and child (pid %d) each ran 10 iterations\n", int(child));
    return 0;
}
