# Run by the targets of HydraScore.cmake before the hydra-score tool (cmake -P):
# the tool is the one fixed when the module was first configured, unchanged.
#
#   cmake -DHYDRA_SCORE_TOOL=<pinned path> -DHYDRA_SCORE_TOOL_SHA256=<pinned digest>
#         -DHYDRA_SCORE_EXECUTABLE=<the cache variable now> -P HydraScoreCheckTool.cmake
#
# Fails, naming both values, when HYDRA_SCORE_EXECUTABLE was pointed elsewhere
# (a change to the project's CMake code can do that when `cmake --build` runs
# its configure again) or when the file at the pinned path changed.
cmake_minimum_required(VERSION 3.25)

set(_repin "configure with -DHYDRA_SCORE_REPIN_TOOL=ON to use it (after checking that it is the tool you installed)")
if(NOT HYDRA_SCORE_EXECUTABLE STREQUAL HYDRA_SCORE_TOOL)
  message(FATAL_ERROR "HydraScore: HYDRA_SCORE_EXECUTABLE is \"${HYDRA_SCORE_EXECUTABLE}\", but the tool fixed when "
                      "this build tree was first configured is \"${HYDRA_SCORE_TOOL}\": something changed the cache "
                      "variable since (the project's CMake code can, when `cmake --build` configures again). Nothing "
                      "was run. If you changed it yourself, ${_repin}.")
endif()
if(NOT EXISTS "${HYDRA_SCORE_TOOL}")
  message(FATAL_ERROR "HydraScore: the tool \"${HYDRA_SCORE_TOOL}\" fixed at the first configure is gone; ${_repin}.")
endif()
file(SHA256 "${HYDRA_SCORE_TOOL}" _digest)
if(NOT _digest STREQUAL HYDRA_SCORE_TOOL_SHA256)
  message(FATAL_ERROR "HydraScore: the tool \"${HYDRA_SCORE_TOOL}\" changed since this build tree was first "
                      "configured (SHA-256 ${HYDRA_SCORE_TOOL_SHA256}, now ${_digest}). Nothing was run. After "
                      "an upgrade of HydraScore, ${_repin}.")
endif()
