# SPDX-License-Identifier: Apache-2.0
# Every test has a time limit (CTest's TIMEOUT property), so that a hang fails that one test
# with its output in minutes instead of holding CI until CI's own limit ends everything. Each
# suite's limit is what its slowest test took on a 2-core machine running two tests at a time,
# with a margin of three times or more; the sanitizers' build runs slower, and says so with
# TRAINSCOPE_TEST_TIME_SCALE. tests/tools/check-test-time-limits finds a test without one.
set(TRAINSCOPE_TEST_TIME_SCALE 1 CACHE STRING
    "What every test's time limit is multiplied by (the asan preset: its slowdown)")

# The limit of SECONDS on this build, in OUT_VAR.
function(trainscope_time_limit seconds out_var)
  math(EXPR scaled "${seconds} * ${TRAINSCOPE_TEST_TIME_SCALE}")
  set(${out_var} ${scaled} PARENT_SCOPE)
endfunction()

# trainscope_test_time_limit(SECONDS TEST...): the tests named end in failure past SECONDS.
function(trainscope_test_time_limit seconds)
  trainscope_time_limit(${seconds} limit)
  set_tests_properties(${ARGN} PROPERTIES TIMEOUT ${limit})
endfunction()
