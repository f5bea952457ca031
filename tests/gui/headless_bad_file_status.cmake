# Runs `asyncscope --overlay BAD --runs 5 --export-png OUT` and `asyncscope --open BAD --export-png OUT` 50 times with
# a saved series cut short (read for a while before it fails) and a directory: every run must exit non-zero, name the
# file and write no chart. Where no GPU answers, the device search fails while the file is still read; the window's
# close then posted a quit with status 0 that used to win.
set(cut ${OUT_DIR}/bad-status-cut.json)
set(folder ${OUT_DIR}/bad-status-folder.json)
set(png ${OUT_DIR}/bad-status.png)
file(REMOVE ${png})
file(MAKE_DIRECTORY ${folder})
set(run [=[{"run": 1, "warmup": false, "gpu_time_ms": 2.5, "poll_iterations": 9000, "verified": true, "spans": [
  {"kind": "h2d", "bytes": 67108864, "begin_ms": 0.0, "end_ms": 1.22},
  {"kind": "kernel", "bytes": 134217728, "begin_ms": 1.22, "end_ms": 1.28},
  {"kind": "d2h", "bytes": 67108864, "begin_ms": 1.28, "end_ms": 2.5}]},
]=])
string(REPEAT "${run}" 20000 runs)
file(WRITE ${cut} [=[{"format": "asyncscope-report", "format_version": 2,
  "device": {"index": 0, "name": "NVIDIA H200", "compute_capability": "9.0", "uuid": "GPU-1"},
  "config": {"device": 0, "elements": 16777216, "value": 26, "threads_per_block": 512, "runs": 2, "warmup_runs": 0,
             "host_memory": "pinned", "wait": "spin", "check": "overlapped", "stage_events": true},
  "runs": [
]=] "${runs}" [=[{"run": 9, "gpu_ti]=])
foreach(i RANGE 1 50)
    math(EXPR kind "${i} % 4")
    if(kind EQUAL 0)
        set(args --overlay ${cut} --runs 5)
        set(bad ${cut})
    elseif(kind EQUAL 1)
        set(args --open ${cut})
        set(bad ${cut})
    elseif(kind EQUAL 2)
        set(args --overlay ${folder} --runs 5)
        set(bad ${folder})
    else()
        set(args --open ${folder})
        set(bad ${folder})
    endif()
    execute_process(COMMAND ${APP} ${args} --export-png ${png} --export-size 400x300
        RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out TIMEOUT 60)
    if(rc EQUAL 0 OR NOT rc MATCHES "^[0-9]+$")
        message(FATAL_ERROR "run ${i} (${args}) exited '${rc}': '${err}'")
    endif()
    get_filename_component(name ${bad} NAME)
    string(FIND "${err}" "${name}" named)
    if(named EQUAL -1)
        message(FATAL_ERROR "run ${i} (${args}) did not name ${name}: '${err}'")
    endif()
    if(EXISTS ${png})
        message(FATAL_ERROR "run ${i} (${args}) wrote a chart")
    endif()
endforeach()
message(STATUS "50 runs, each non-zero and naming its file")
