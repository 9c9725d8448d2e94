# Fuzzing the parsers (included by tests/CMakeLists.txt).
#
# Always: the seed directories (build/tests/fuzz-seeds/<target>/, copies of the
# recorded fixtures below plus tests/fuzz/seeds/<target>/), which
# tests/parse/test_fuzz_corpus.cpp replays through the parsers with every
# input of tests/fuzz/crashes/.
# With HYDRA_FUZZ=ON (Clang only): one libFuzzer target per parser,
# hydra_fuzz_<target>, everything compiled with ASan and UBSan (see the
# top-level CMakeLists.txt), and a brief CTest run of each (label fuzz).
set(_fixtures ${CMAKE_CURRENT_SOURCE_DIR}/fixtures)
set(HYDRA_FUZZ_TARGETS junit ctest_json clang_tidy_log compiler_warnings diff metrics task_set hydra_toml
  libtest cargo_diagnostics eslint_json flake8)
set(_seeds_junit parse/*.xml runs/raw/*/junit.xml compare/*/junit.xml loop/*.xml guard/*.xml identity/*.xml)
set(_seeds_ctest_json parse/*.json runs/raw/*/ctest.json compare/*/ctest.json loop/*.json guard/*.json)
set(_seeds_clang_tidy_log parse/clang_tidy*.log runs/raw/*/clang-tidy.log)
set(_seeds_compiler_warnings parse/build_*.log runs/raw/*/build.log compare/*/build.log)
set(_seeds_diff parse/*.diff runs/raw/*/diff.patch guard/*.diff guard/*/*.diff)
set(_seeds_metrics)
set(_seeds_task_set)
set(_seeds_hydra_toml config/*.toml)
set(_seeds_libtest parse/libtest*.log identity/cargo_*.log)
set(_seeds_cargo_diagnostics parse/clippy.json parse/cargo_build.json identity/clippy_*.json)
set(_seeds_eslint_json parse/eslint.json identity/eslint_*.json)
set(_seeds_flake8 parse/flake8*.log identity/flake8_*.log)

set(HYDRA_FUZZ_SEEDS_DIR ${CMAKE_CURRENT_BINARY_DIR}/fuzz-seeds)
foreach(target IN LISTS HYDRA_FUZZ_TARGETS)
  set(files)
  foreach(pattern IN LISTS _seeds_${target})
    file(GLOB found ${_fixtures}/${pattern})
    list(APPEND files ${found})
  endforeach()
  file(GLOB extra ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds/${target}/*)
  list(APPEND files ${extra})
  if(target STREQUAL "hydra_toml")
    list(APPEND files ${PROJECT_SOURCE_DIR}/example-project/hydra.toml)
  endif()
  file(REMOVE_RECURSE ${HYDRA_FUZZ_SEEDS_DIR}/${target})
  file(MAKE_DIRECTORY ${HYDRA_FUZZ_SEEDS_DIR}/${target})
  # Flat copies named after their path under the repository, so files of the
  # same name do not overwrite each other.
  foreach(file IN LISTS files)
    file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${file})
    string(REPLACE "/" "__" flat ${relative})
    configure_file(${file} ${HYDRA_FUZZ_SEEDS_DIR}/${target}/${flat} COPYONLY)
  endforeach()
endforeach()

if(HYDRA_FUZZ)
  set(HYDRA_FUZZ_SECONDS 5 CACHE STRING "How long the CTest run of each fuzz target lasts (seconds)")
  foreach(target IN LISTS HYDRA_FUZZ_TARGETS)
    add_executable(hydra_fuzz_${target} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/targets/fuzz_target.cpp)
    target_compile_definitions(hydra_fuzz_${target} PRIVATE HYDRA_FUZZ_TARGET=${target})
    target_include_directories(hydra_fuzz_${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(hydra_fuzz_${target} PRIVATE hydra_core)
    target_link_options(hydra_fuzz_${target} PRIVATE -fsanitize=fuzzer)
    # A fresh working corpus each run; seeds and past crashes are read-only inputs.
    set(work ${CMAKE_CURRENT_BINARY_DIR}/fuzz-ctest/${target})
    add_test(NAME "fuzz: ${target} for ${HYDRA_FUZZ_SECONDS} s"
      COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=1
              ${CMAKE_COMMAND} -DFUZZER=$<TARGET_FILE:hydra_fuzz_${target}> -DWORK=${work}
              -DSECONDS=${HYDRA_FUZZ_SECONDS}
              -DCORPORA=${HYDRA_FUZZ_SEEDS_DIR}/${target}|${CMAKE_CURRENT_SOURCE_DIR}/fuzz/crashes/${target}
              -P ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run_fuzzer.cmake)
    set_tests_properties("fuzz: ${target} for ${HYDRA_FUZZ_SECONDS} s" PROPERTIES LABELS fuzz)
    list(APPEND _fuzzers hydra_fuzz_${target})
  endforeach()
  add_custom_target(hydra_fuzzers DEPENDS ${_fuzzers})
endif()
