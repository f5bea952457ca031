# `asyncscope --open FILE --export-png OUT` takes every file the CLI reads, needing no GPU: a host's record as
# `--merge` reads it (tests/data/machine_record.host.json: one GPU's comparison of submission kinds), a kept
# recording as `record --from` makes it (one process: a series; a program that forked: a comparison of its
# processes), and a saved comparison (its comparison chart). Each exits 0 and writes its chart.
set(data ${SOURCE_DIR}/tests/data)
set(files machine_record.host.json recordings/asyncAPI.record recordings/h100-fork.record h200/h200-compare-wait.json)
set(said_0 "a comparison of 2 variant\\(s\\); chart saved to ")
set(said_1 "saved: asyncAPI · H100 80GB HBM3, 2 run\\(s\\); chart saved to ")
set(said_2 "a comparison of 2 variant\\(s\\); chart saved to ")
set(said_3 "a comparison of [0-9]+ variant\\(s\\); chart saved to ")
set(n 0)
foreach(file IN LISTS files)
    set(expected "${said_${n}}")
    set(png ${OUT_DIR}/opened-${n}.png)
    math(EXPR n "${n} + 1")
    file(REMOVE ${png})
    execute_process(COMMAND ${APP} --open ${data}/${file} --export-png ${png} --export-size 800x450
        RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out TIMEOUT 60)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "asyncscope --open ${file} exited ${rc}: '${err}'")
    endif()
    if(NOT err MATCHES "${expected}")
        message(FATAL_ERROR "asyncscope --open ${file}: not '${expected}' on stderr: '${err}'")
    endif()
    if(NOT EXISTS ${png})
        message(FATAL_ERROR "asyncscope --open ${file}: no chart written")
    endif()
endforeach()
