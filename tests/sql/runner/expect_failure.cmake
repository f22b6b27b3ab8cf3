# Runs the corpus runner on TEST_FILE and passes only if it exits non-zero AND its output
# matches the regex on the file's first line, "# expect-failure: <regex>" (so a file that fails
# for some other reason does not count as the runner catching the intended problem).
file(STRINGS ${TEST_FILE} first_line LIMIT_COUNT 1)
if(NOT first_line MATCHES "^# expect-failure: (.+)$")
  message(FATAL_ERROR "${TEST_FILE}: first line must be '# expect-failure: <regex>'")
endif()
set(pattern "${CMAKE_MATCH_1}")
# EMULATOR: empty natively; the cross build's emulator command line (qemu-user) otherwise.
separate_arguments(emulator UNIX_COMMAND "${EMULATOR}")
execute_process(COMMAND ${emulator} ${RUNNER} ${TEST_FILE} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "the runner passed ${TEST_FILE}, which must fail:\n${out}")
endif()
if(NOT out MATCHES "${pattern}")
  message(FATAL_ERROR "the runner failed but its output does not match '${pattern}':\n${out}")
endif()
message(STATUS "failed as expected:\n${out}")
