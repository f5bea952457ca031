# Writes the bytes of a file as a C++ array, for a program to hold a build product (record-driver-api's fatbin) in its
# own image: cmake -DINPUT=FILE -DOUTPUT=HEADER -DNAME=ARRAY -P embed_file.cmake. The array is aligned to 16 bytes,
# as cuModuleLoadData wants a fatbin to be.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" digits)
if(digits EQUAL 0)
    message(FATAL_ERROR "${INPUT} is empty")
endif()
math(EXPR length "${digits} / 2")
set(lines "")
set(offset 0)
while(offset LESS digits)  # 16 bytes a line
    string(SUBSTRING "${hex}" ${offset} 32 chunk)
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1, " chunk "${chunk}")
    string(STRIP "${chunk}" chunk)
    string(APPEND lines "    ${chunk}\n")
    math(EXPR offset "${offset} + 32")
endwhile()
get_filename_component(source "${INPUT}" NAME)
file(WRITE "${OUTPUT}" "// Generated from ${source} (${length} bytes) by embed_file.cmake: do not edit.\n"
    "#pragma once\n\nalignas(16) static const unsigned char ${NAME}[${length}] = {\n${lines}};\n")
