// record-graph: an iteration captured once into a CUDA graph and launched many times, as a program that replays a
// fixed step does. The copy in (pinned), the kernel and the copy out are captured on a stream into a graph, which is
// instantiated once; then 20 iterations of cudaGraphLaunch and cudaStreamSynchronize, each timed by a pair of CUDA
// events recorded on the stream around the launch and printed as "iteration I: X.XXX ms".
#include "program_common.cuh"

int main()
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    Pipeline p;
    if (makePipeline(p, 1 << 22, cudaStreamNonBlocking) != 0)
        return 1;
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t instance = nullptr;
    CHECK(cudaStreamBeginCapture(p.stream, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemcpyAsync(p.device, p.in, p.bytes, cudaMemcpyHostToDevice, p.stream));
    scaleEach<<<blocksFor(p.n), 256, 0, p.stream>>>(p.device, p.n, 2.0f);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(p.out, p.device, p.bytes, cudaMemcpyDeviceToHost, p.stream));
    CHECK(cudaStreamEndCapture(p.stream, &graph));
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    CHECK(cudaGraphInstantiate(&instance, graph, 0));
    std::printf("record-graph: a graph of %zu nodes (copy in, kernel, copy out of %zu KiB), 20 launches\n", nodes,
        p.bytes >> 10);
    for (int iteration = 1; iteration <= 20; ++iteration) {
        p.out[0] = 0.0f;  // each launch must write it again
        CHECK(cudaEventRecord(p.start, p.stream));
        CHECK(cudaGraphLaunch(instance, p.stream));
        CHECK(cudaEventRecord(p.stop, p.stream));
        if (finish(p, 2.0f, "record-graph") != 0)
            return 1;
        std::printf("iteration %d: %.3f ms\n", iteration, double(p.milliseconds));
    }
    CHECK(cudaGraphExecDestroy(instance));
    CHECK(cudaGraphDestroy(graph));
    return freePipeline(p);
}
