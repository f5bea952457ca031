# Writes a man page at build time: its hand-written .in file configured (@PROJECT_VERSION@), with the line @OPTIONS@
# replaced by the OPTIONS section that GENERATOR prints from the program's own option definitions, those --help is
# made from, so that the page and --help list the same options.
#   cmake -DGENERATOR=<program> -DTEMPLATE=<page>.1.in -DPAGE=<page>.1 -DPROJECT_VERSION=<version> -P man_page.cmake
cmake_minimum_required(VERSION 3.25)  # CMP0053: "@OPTIONS@" below is text, not a variable
foreach(var GENERATOR TEMPLATE PAGE PROJECT_VERSION)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "man_page.cmake needs -D${var}=...")
    endif()
endforeach()
execute_process(COMMAND ${GENERATOR} RESULT_VARIABLE rc OUTPUT_VARIABLE OPTIONS ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0 OR OPTIONS STREQUAL "")
    message(FATAL_ERROR "${GENERATOR} printed no OPTIONS section for ${PAGE} (exit ${rc}): ${err}")
endif()
file(READ ${TEMPLATE} page)
string(FIND "${page}" "\n@OPTIONS@\n" at)
if(at LESS 0)
    message(FATAL_ERROR "${TEMPLATE}: no line @OPTIONS@ to put the generated OPTIONS section on")
endif()
# The generated section ends with a newline, and so does the @OPTIONS@ line: one of them is dropped.
string(REGEX REPLACE "\n$" "" OPTIONS "${OPTIONS}")
string(CONFIGURE "${page}" page @ONLY)
file(WRITE ${PAGE} "${page}")
