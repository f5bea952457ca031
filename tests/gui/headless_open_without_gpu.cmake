# Runs `asyncscope --open FILE --export-png OUT` with a small series saved by an earlier version (JSON format 2):
# it needs no GPU, exits 0, writes the chart and prints the advice on the series (the machine's state was not kept
# then: the rules that need it say so).
set(saved ${OUT_DIR}/saved-series-v2.json)
set(png ${OUT_DIR}/saved-series.png)
file(REMOVE ${png})
file(WRITE ${saved} [=[{
  "format": "asyncscope-report",
  "format_version": 2,
  "device": {"index": 0, "name": "NVIDIA H200", "compute_capability": "9.0", "uuid": "GPU-1"},
  "config": {"device": 0, "elements": 16777216, "value": 26, "threads_per_block": 512, "runs": 2, "warmup_runs": 1,
             "host_memory": "pinned", "wait": "spin", "check": "overlapped", "stage_events": true},
  "runs": [
    {"run": 0, "warmup": true, "gpu_time_ms": 2.61, "poll_iterations": 9100, "verified": true, "spans": [
      {"kind": "h2d", "bytes": 67108864, "begin_ms": 0.0, "end_ms": 1.25},
      {"kind": "kernel", "bytes": 134217728, "begin_ms": 1.25, "end_ms": 1.31},
      {"kind": "d2h", "bytes": 67108864, "begin_ms": 1.31, "end_ms": 2.61},
      {"kind": "submit", "begin_ms": 0.0, "end_ms": 0.03}]},
    {"run": 1, "warmup": false, "gpu_time_ms": 2.5, "poll_iterations": 9000, "verified": true, "spans": [
      {"kind": "h2d", "bytes": 67108864, "begin_ms": 0.0, "end_ms": 1.22},
      {"kind": "kernel", "bytes": 134217728, "begin_ms": 1.22, "end_ms": 1.28},
      {"kind": "d2h", "bytes": 67108864, "begin_ms": 1.28, "end_ms": 2.5},
      {"kind": "submit", "begin_ms": 0.0, "end_ms": 0.03}]},
    {"run": 2, "warmup": false, "gpu_time_ms": 2.52, "poll_iterations": 9050, "verified": true, "spans": [
      {"kind": "h2d", "bytes": 67108864, "begin_ms": 0.0, "end_ms": 1.23},
      {"kind": "kernel", "bytes": 134217728, "begin_ms": 1.23, "end_ms": 1.29},
      {"kind": "d2h", "bytes": 67108864, "begin_ms": 1.29, "end_ms": 2.52},
      {"kind": "submit", "begin_ms": 0.0, "end_ms": 0.03}]}
  ]
}
]=])
execute_process(COMMAND ${APP} --open ${saved} --export-png ${png} --export-size 800x450
    RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out TIMEOUT 60)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "asyncscope --open exited ${rc}: '${err}'")
endif()
if(NOT err MATCHES "asyncscope: saved: saved-series-v2 · H200, 3 run\\(s\\); chart saved to ")
    message(FATAL_ERROR "no clear message on stderr: '${err}'")
endif()
if(NOT out MATCHES "^AsyncScope advice on saved: saved-series-v2 · H200 \\(3 runs\\)\n" OR
   NOT out MATCHES "\n  not checked: interference \\(the machine's state was not recorded with this series\\)")
    message(FATAL_ERROR "no advice on stdout: '${out}'")
endif()
if(NOT EXISTS ${png})
    message(FATAL_ERROR "no chart was written")
endif()
file(READ ${png} signature LIMIT 8 HEX)
if(NOT signature STREQUAL "89504e470d0a1a0a")
    message(FATAL_ERROR "the chart is not a PNG (${signature})")
endif()
message(STATUS "exit 0: ${err}")
