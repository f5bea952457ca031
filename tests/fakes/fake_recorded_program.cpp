// A test fake: a "program" that sends the recorder what the injection library would send from a CUDA program, so
// that the recorder (engine/record/program_recorder) is tested without a GPU. It connects to the socket the recorder
// names in its environment and, by its first argument:
//   iterations N   N iterations of a copy, a kernel, a copy and a wait, then the exit line, and exits 0
//   paced N        the same, 50 ms apart, as a CUDA program's take time
//   crash          two iterations, half a line, then abort(): no exit line
//   fork           two processes, each with its own connection and iterations (the child is left unreaped a
//                  while after its exit, so that the recorder sees whose child it was)
//   expose FILE    an iteration, then writes the recorder's socket path to FILE and waits until FILE.go is made
//                  (5 s at most), then the exit line: a window for another process to connect to the socket
//   forever        an iteration every 10 ms until a signal ends it (the recorder's --duration)
//   nocuda         never connects, as a program that never initialises CUDA
//   nodriver       never connects, prints what a CUDA sample prints where no driver answers, and exits 1
//   idle           never connects, prints a line and waits (20 s at most) for a signal, as a program still loading
//   exit N         one iteration, then exits N
#include "engine/record/record_stream.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace {

using asyncscope::record::LineWriter;
using asyncscope::record::NameTable;

int g_socket = -1;
std::uint32_t g_correlation = 1;
std::uint64_t g_clock = 1'000'000;
NameTable g_names;  // as the injection library sends names: once each, then by ID

void send(const LineWriter& line)
{
    const char* data = line.data();
    std::size_t left = line.length();
    while (left > 0) {
        const ssize_t sent = ::send(g_socket, data, left, MSG_NOSIGNAL);
        if (sent <= 0)
            return;
        data += sent;
        left -= std::size_t(sent);
    }
}

// A NAME field, its `name` line sent first where the name is new.
void name(LineWriter& line, const char* text)
{
    const NameTable::Found found = g_names.find(text);
    if (found.fresh) {
        LineWriter given;
        given.word("name").number(std::uint32_t(::getpid())).number(found.id).text(text).end();
        send(given);
    }
    if (found.id != 0)
        line.nameId(found.id);
    else
        line.nameText(text);
}

bool connectToRecorder()
{
    const char* path = std::getenv(asyncscope::record::kSocketVariable);
    if (!path)
        return false;
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    g_socket = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (::connect(g_socket, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
        return false;
    const std::uint32_t pid = std::uint32_t(::getpid());
    LineWriter line;
    line.word(asyncscope::record::kMagic).number(asyncscope::record::kVersion).end();
    send(line);
    line.clear();
    line.word("process").number(pid).number(std::uint32_t(::getppid())).text("fake_recorded_program").end();
    send(line);
    return true;
}

void call(const char* callName, std::uint64_t ns)
{
    LineWriter line;
    line.word("api").number(std::uint32_t(::getpid())).number(1).number(g_correlation++).number(g_clock)
        .number(g_clock + ns).number(0).number(1);
    name(line, callName);
    line.end();
    send(line);
    g_clock += ns + 1'000;
}

void iteration()
{
    const std::uint32_t pid = std::uint32_t(::getpid());
    const std::uint32_t first = g_correlation;
    const std::uint64_t t = g_clock;
    call("cudaMemcpyAsync_v3020", 4'000);
    call("cudaLaunchKernel_v7000", 3'000);
    call("cudaMemcpyAsync_v3020", 4'000);
    LineWriter line;
    for (std::uint32_t k = 0; k < 3; ++k) {
        line.clear();
        const std::uint64_t from = t + 20'000 + k * 100'000, to = from + 90'000;
        if (k == 1) {
            line.word("kernel").number(pid).number(0).number(1).number(7).number(first + k).number(from).number(to)
                .number(0).number(64).number(256);
            name(line, "_Z6kernelPfi");
        } else {
            line.word("copy").number(pid).number(0).number(1).number(7).number(first + k).number(from).number(to)
                .number(1 << 20).number(k == 0 ? 1 : 2).number(k == 0 ? 2 : 3).number(k == 0 ? 3 : 2).number(0)
                .number(1);
        }
        line.end();
        send(line);
    }
    g_clock = t + 20'000;
    call("cudaStreamSynchronize_v3020", 300'000);
}

void exitLine()
{
    LineWriter line;
    line.word("exit").number(std::uint32_t(::getpid())).end();
    send(line);
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "iterations";
    const int count = argc > 2 ? std::atoi(argv[2]) : 3;
    if (mode == "nocuda")
        return 0;
    if (mode == "nodriver") {
        std::printf("[asyncAPI] - Starting...\n");
        std::fflush(stdout);
        std::fprintf(stderr, "CUDA error at asyncAPI.cu:107 code=35(cudaErrorInsufficientDriver) "
                             "\"cudaGetDeviceCount(&count)\"\n");
        return 1;
    }
    if (mode == "idle") {
        std::printf("loading the model...\n");
        std::fflush(stdout);
        for (int waited = 0; waited < 2000; ++waited)
            ::usleep(10'000);
        return 0;
    }
    if (mode == "fork") {
        const pid_t child = ::fork();
        if (!connectToRecorder())
            return 3;
        for (int i = 0; i < count; ++i)
            iteration();
        exitLine();
        if (child == 0)
            return 0;
        siginfo_t ended {};
        ::waitid(P_PID, id_t(child), &ended, WEXITED | WNOWAIT);
        ::usleep(200'000);
        int status = 0;
        ::waitpid(child, &status, 0);
        return 0;
    }
    if (mode == "expose") {
        const std::string file = argc > 2 ? argv[2] : "socket-path";
        const char* socket = std::getenv(asyncscope::record::kSocketVariable);
        if (!socket || !connectToRecorder())
            return 3;
        iteration();
        {
            std::ofstream(file + ".tmp") << socket;
        }
        std::rename((file + ".tmp").c_str(), file.c_str());
        for (int waited = 0; waited < 500 && ::access((file + ".go").c_str(), F_OK) != 0; ++waited)
            ::usleep(10'000);
        exitLine();
        return 0;
    }
    if (!connectToRecorder())
        return 3;
    if (mode == "crash") {
        iteration();
        iteration();
        send(LineWriter().word("copy").number(1));  // half a line, never ended
        std::abort();
    }
    if (mode == "forever") {
        for (;;) {
            iteration();
            ::usleep(10'000);
        }
    }
    if (mode == "exit") {
        iteration();
        exitLine();
        return count;
    }
    for (int i = 0; i < count; ++i) {
        iteration();
        if (mode == "paced")
            ::usleep(50'000);
    }
    exitLine();
    return 0;
}
