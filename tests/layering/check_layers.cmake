# Fails when a folder of src/hydra includes a folder above it (or a peer).
# The layers, bottom to top (README "Layout"); folders on one line are peers
# and include neither each other nor anything above them:
#
#   util -> remote -> model -> config -> parse -> guard, eval -> score -> store
#        -> leaderboard -> pipeline -> capture, apply -> report -> loop, compare -> cli
#
# Files directly in src/hydra/ (error.hpp, version.hpp) sit below util.
#
# Inside capture/ the rooms are layered the same way, bottom to top:
#
#   sandbox -> core -> trees -> cmake -> runners -> lint -> capture/ top
#
# sandbox/ (step policies, bubblewrap) knows nothing of captures; core/ (the
# request, the plan, the staging run directory, progress) is what every room
# above it uses; the files directly in capture/ (the entry point and the
# steps) may use every room, and no room includes them.
#
# Usage: cmake -DSOURCE_DIR=<repository> -P check_layers.cmake
cmake_minimum_required(VERSION 3.25)

set(_layers util remote model config parse "guard eval" score store leaderboard pipeline "capture apply" report "loop compare" cli)
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

# The rooms of capture/: a file of a room includes only rooms below it; the
# top of capture/ (hydra/capture/<file>.hpp) counts as the highest room.
set(_capture_rooms sandbox core trees cmake runners lint)
set(_capture_rank 0)
foreach(_room IN LISTS _capture_rooms)
  math(EXPR _capture_rank "${_capture_rank} + 1")
  set(_capture_rank_of_${_room} ${_capture_rank})
endforeach()
math(EXPR _capture_top_rank "${_capture_rank} + 1")
if(IS_DIRECTORY ${SOURCE_DIR}/src/hydra/capture)
  file(GLOB _rooms LIST_DIRECTORIES true RELATIVE ${SOURCE_DIR}/src/hydra/capture ${SOURCE_DIR}/src/hydra/capture/*)
  foreach(_room IN LISTS _rooms)
    if(IS_DIRECTORY ${SOURCE_DIR}/src/hydra/capture/${_room} AND NOT DEFINED _capture_rank_of_${_room})
      string(APPEND _problems "  src/hydra/capture/${_room}/ is in no room layer (add it to tests/layering/check_layers.cmake and the README)\n")
    endif()
  endforeach()
  file(GLOB_RECURSE _files RELATIVE ${SOURCE_DIR}/src/hydra/capture
       ${SOURCE_DIR}/src/hydra/capture/*.hpp ${SOURCE_DIR}/src/hydra/capture/*.cpp)
  foreach(_file IN LISTS _files)
    if(_file MATCHES "^([a-z_]+)/")
      set(_room ${CMAKE_MATCH_1})
      if(NOT DEFINED _capture_rank_of_${_room})
        continue()
      endif()
      set(_own_rank ${_capture_rank_of_${_room}})
    else()
      set(_room "the top")
      set(_own_rank ${_capture_top_rank})
    endif()
    file(STRINGS ${SOURCE_DIR}/src/hydra/capture/${_file} _includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]hydra/capture/")
    foreach(_include IN LISTS _includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]hydra/capture/([^>\"]*)[>\"].*$" "\\1" _target "${_include}")
      if(_target MATCHES "^([a-z_]+)/")
        set(_target_room ${CMAKE_MATCH_1})
        set(_target_rank "${_capture_rank_of_${_target_room}}")
      else()
        set(_target_room "the top")
        set(_target_rank ${_capture_top_rank})
      endif()
      if(_target_room STREQUAL _room)
        continue()
      endif()
      if(_target_rank STREQUAL "")
        string(APPEND _problems "  src/hydra/capture/${_file}: includes capture/${_target_room}/, a room in no layer\n")
      elseif(NOT _target_rank LESS _own_rank)
        string(APPEND _problems "  src/hydra/capture/${_file}: capture's ${_room} includes ${_target} (${_target_room}), which is not below it\n")
      endif()
    endforeach()
  endforeach()
endif()

if(_problems)
  message(FATAL_ERROR "Layering violations (a folder includes only folders below it):\n${_problems}")
endif()
message(STATUS "layering: every include points down")
