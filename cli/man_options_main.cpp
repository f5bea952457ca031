// Prints asyncscope-cli's OPTIONS section for its man page (roff), from the options --help is made from; the build
// splices it into packaging/asyncscope-cli.1.in.
#include "cli/cli_options.hpp"

#include "engine/io/man_options.hpp"

#include <iostream>

int main()
{
    std::cout << asyncscope::roffOptionList(asyncscope::cliManOptions());
    return std::cout.flush() ? 0 : 1;
}
