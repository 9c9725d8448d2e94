# The HydraScore demo, run by the hydra_demo target (cmake --workflow --preset demo):
# example-project's baseline is captured through the hydra_baseline target of a
# project that never mentions HydraScore (CMAKE_PROJECT_TOP_LEVEL_INCLUDES),
# then each candidate patch is applied in a git worktree of its own, the
# candidates are captured in parallel (each agent's duration and metrics from
# candidates/metrics/<name>.json, outside the trees) and ranked in one table.
#
# Inputs: HYDRA_SCORE_EXECUTABLE, EXAMPLE_SOURCE_DIR, DEMO_DIR, CMAKE_GENERATOR;
# optionally DEMO_CANDIDATES, the names of the patches to score (default: all
# but hang).
cmake_minimum_required(VERSION 3.25)

foreach(variable HYDRA_SCORE_EXECUTABLE EXAMPLE_SOURCE_DIR DEMO_DIR CMAKE_GENERATOR)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "HydraScoreDemo.cmake: -D${variable}=... is required")
  endif()
endforeach()
find_program(GIT_EXECUTABLE git REQUIRED)

function(_demo_run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result COMMAND_ECHO NONE)
  if(NOT result EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "demo step failed (${result}): ${command}")
  endif()
endfunction()

function(_demo_git directory)
  _demo_run(${GIT_EXECUTABLE} -C ${directory} -c user.name=demo -c user.email=demo@example.invalid ${ARGN})
endfunction()

set(source "${DEMO_DIR}/example-project")
set(build "${DEMO_DIR}/build")
set(hydra "${build}/hydra")

# A fresh repository holding the baseline (the patches are not part of it).
file(REMOVE_RECURSE "${DEMO_DIR}/example-project" "${DEMO_DIR}/candidates")
file(MAKE_DIRECTORY "${source}")
file(GLOB entries RELATIVE "${EXAMPLE_SOURCE_DIR}" "${EXAMPLE_SOURCE_DIR}/*" "${EXAMPLE_SOURCE_DIR}/.clang-tidy")
foreach(entry IN LISTS entries)
  if(NOT entry STREQUAL "candidates")
    file(COPY "${EXAMPLE_SOURCE_DIR}/${entry}" DESTINATION "${source}")
  endif()
endforeach()
_demo_git("${source}" init --quiet --initial-branch=main)
_demo_git("${source}" add --all)
_demo_git("${source}" commit --quiet -m "example-project baseline")

message(STATUS "HydraScore demo: configuring example-project with HydraScore as a top-level include")
_demo_run(${CMAKE_COMMAND} -S "${source}" -B "${build}" -G "${CMAKE_GENERATOR}"
  -DCMAKE_BUILD_TYPE=Debug
  "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=${CMAKE_CURRENT_LIST_DIR}/HydraScore.cmake"
  "-DHYDRA_SCORE_EXECUTABLE=${HYDRA_SCORE_EXECUTABLE}")
message(STATUS "HydraScore demo: cmake --build ${build} --target hydra_baseline")
_demo_run(${CMAKE_COMMAND} --build "${build}" --target hydra_baseline)

# Each candidate patch in a worktree of its own, as each agent had.
file(GLOB patches "${EXAMPLE_SOURCE_DIR}/candidates/*.patch")
list(SORT patches)
set(capture_arguments "")
set(score_candidates "")
foreach(patch IN LISTS patches)
  get_filename_component(name "${patch}" NAME_WE)
  if(name STREQUAL "hang")
    continue()  # for the timeout test, not for the demo
  endif()
  if(DEFINED DEMO_CANDIDATES AND NOT name IN_LIST DEMO_CANDIDATES)
    continue()
  endif()
  set(worktree "${DEMO_DIR}/candidates/${name}")
  _demo_git("${source}" worktree add --quiet --detach "${worktree}" HEAD)
  _demo_git("${worktree}" apply --whitespace=nowarn "${patch}")
  list(APPEND capture_arguments --source "${worktree}" --out "${hydra}/${name}"
       --build-dir "${hydra}/trees/${name}" --agent "${name}")
  list(APPEND score_candidates --candidate "${hydra}/${name}")
endforeach()

message(STATUS "HydraScore demo: capturing the candidates")
_demo_run("${HYDRA_SCORE_EXECUTABLE}" capture ${capture_arguments}
  --baseline-run "${hydra}/baseline" --metrics-dir "${EXAMPLE_SOURCE_DIR}/candidates/metrics"
  --generator "${CMAKE_GENERATOR}"
  --initial-cache "${hydra}/initial-cache.cmake")

message(STATUS "HydraScore demo: ranking")
execute_process(COMMAND "${HYDRA_SCORE_EXECUTABLE}" score --baseline "${hydra}/baseline" ${score_candidates}
  --json "${hydra}/score.json" --markdown "${hydra}/score.md" --html "${hydra}/score.html"
  --sarif "${hydra}/score.sarif" --junit "${hydra}/gates.xml"
  RESULT_VARIABLE result)
if(NOT result EQUAL 0 AND NOT result EQUAL 3)
  message(FATAL_ERROR "hydra-score score failed (${result})")
endif()
message(STATUS "HydraScore demo: reports in ${hydra}/ (score.json, score.md, score.html, score.sarif, gates.xml)")
