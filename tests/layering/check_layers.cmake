# Fails when a folder of src/hydra includes a folder above it (or a peer).
# The layers, bottom to top (README "Layout"); folders on one line are peers
# and include neither each other nor anything above them:
#
#   util -> remote -> model -> config -> parse -> guard, eval -> score -> store
#        -> leaderboard -> pipeline -> capture -> report -> loop, compare -> cli
#
# Files directly in src/hydra/ (error.hpp, version.hpp) sit below util.
#
# Usage: cmake -DSOURCE_DIR=<repository> -P check_layers.cmake
cmake_minimum_required(VERSION 3.25)

set(_layers util remote model config parse "guard eval" score store leaderboard pipeline capture report "loop compare" cli)
set(_rank 0)
foreach(_layer IN LISTS _layers)
  math(EXPR _rank "${_rank} + 1")
  string(REPLACE " " ";" _folders "${_layer}")
  foreach(_folder IN LISTS _folders)
    set(_rank_of_${_folder} ${_rank})
  endforeach()
endforeach()

file(GLOB _folders LIST_DIRECTORIES true RELATIVE ${SOURCE_DIR}/src/hydra ${SOURCE_DIR}/src/hydra/*)
set(_problems "")
foreach(_folder IN LISTS _folders)
  if(NOT IS_DIRECTORY ${SOURCE_DIR}/src/hydra/${_folder})
    continue()
  endif()
  if(NOT DEFINED _rank_of_${_folder})
    string(APPEND _problems "  src/hydra/${_folder}/ is in no layer (add it to tests/layering/check_layers.cmake and the README)\n")
    continue()
  endif()
  file(GLOB_RECURSE _files ${SOURCE_DIR}/src/hydra/${_folder}/*.hpp ${SOURCE_DIR}/src/hydra/${_folder}/*.cpp)
  foreach(_file IN LISTS _files)
    file(STRINGS ${_file} _includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]hydra/[a-z_]+/")
    foreach(_include IN LISTS _includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]hydra/([a-z_]+)/.*$" "\\1" _target "${_include}")
      if(_target STREQUAL _folder)
        continue()
      endif()
      file(RELATIVE_PATH _shown ${SOURCE_DIR} ${_file})
      if(NOT DEFINED _rank_of_${_target})
        string(APPEND _problems "  ${_shown}: includes hydra/${_target}/, a folder in no layer\n")
      elseif(NOT _rank_of_${_target} LESS _rank_of_${_folder})
        string(APPEND _problems "  ${_shown}: ${_folder}/ includes ${_target}/, which is not below it\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(_problems)
  message(FATAL_ERROR "Layering violations (a folder includes only folders below it):\n${_problems}")
endif()
message(STATUS "layering: every include points down")
