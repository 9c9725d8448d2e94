# Fails when a Catch2 TEST_CASE name under TESTS_DIR contains ';': CTest's
# test discovery splits such a name into several tests, the pieces run no
# test case, and they pass without asserting anything.
#
#   cmake -DTESTS_DIR=<dir> -P check_test_names.cmake
if(NOT TESTS_DIR)
  message(FATAL_ERROR "usage: cmake -DTESTS_DIR=<dir> -P check_test_names.cmake")
endif()
get_filename_component(TESTS_DIR "${TESTS_DIR}" ABSOLUTE)
# fixtures/ holds inputs, not tests (this check's own bad example among them).
file(GLOB_RECURSE sources RELATIVE "${TESTS_DIR}" "${TESTS_DIR}/*.cpp")
list(FILTER sources EXCLUDE REGEX "^fixtures/")
set(bad "")
foreach(source IN LISTS sources)
  file(STRINGS "${TESTS_DIR}/${source}" lines REGEX "TEST_CASE\\(\"")
  foreach(line IN LISTS lines)
    if(line MATCHES "TEST_CASE\\(\"([^\"]*[;][^\"]*)\"")
      string(REPLACE ";" "\\;" name "${CMAKE_MATCH_1}")
      list(APPEND bad "${source}: TEST_CASE(\"${name}\"")
    endif()
  endforeach()
endforeach()
if(bad)
  list(JOIN bad "\n  " listed)
  message(FATAL_ERROR "test names with ';' (CTest would split them into tests that run nothing):\n  ${listed}")
endif()
list(LENGTH sources count)
message(STATUS "${count} test sources, no test name with ';'")
