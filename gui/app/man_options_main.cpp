// Prints asyncscope's OPTIONS section for its man page (roff), from the options --help is made from; the build
// splices it into packaging/asyncscope.1.in. Needs no display and no application object.
#include "gui/app/app_options.hpp"

#include "engine/io/man_options.hpp"

#include <iostream>

int main()
{
    std::cout << asyncscope::roffOptionList(asyncscope::appManOptions());
    return std::cout.flush() ? 0 : 1;
}
