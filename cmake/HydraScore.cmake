#[=======================================================================[.rst:
HydraScore
----------

Score the current change of a CMake project against a baseline with the
project's own build, CTest and clang-tidy runs.

.. code-block:: cmake

  include(HydraScore)                 # or find_package(HydraScore CONFIG REQUIRED)
  hydra_score_add_targets(CONFIG ${CMAKE_SOURCE_DIR}/hydra.toml)

Or, without editing the project at all::

  cmake -S . -B build -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=/path/to/HydraScore.cmake

which adds the targets with their defaults (``hydra.toml`` at the top of the
source tree is used when it exists).

Then::

  cmake --build build --target hydra_baseline   # capture the baseline into build/hydra/baseline
  # ... an agent (or you) changes the tree ...
  cmake --build build --target hydra_score      # capture the change, score it, write reports

Captures build in their own build trees under ``build/hydra/trees/``,
configured with the same generator and the project's cache entries (an
initial-cache script, ``build/hydra/initial-cache.cmake``), and rebuilt
incrementally. HydraScore's own cache entries and
``CMAKE_PROJECT_TOP_LEVEL_INCLUDES`` are not forwarded, so a capture never
recurses.

.. command:: hydra_score_add_targets

  Adds the ``hydra_baseline``, ``hydra_score``, ``hydra_apply`` and
  ``hydra_loop`` targets::

    hydra_score_add_targets(
      [CONFIG <file>]
      [BASE_REF <ref>]
      [AGENT <name>]
      [AGENT_SECONDS <seconds>]
      [METRICS <file>]
      [METRICS_DIR <dir>]
      [CANDIDATES <ref-or-glob>...]
      [OUTPUT_DIR <dir>]
      [JOBS <count>]
      [FAIL_ON_GATE <ON|OFF>]
      [IMPROVER <command>]
      [LOOP <argument>...]
    )

  Every keyword not given is read from the cache variable of the same name
  with a ``HYDRA_SCORE_`` prefix (``-DHYDRA_SCORE_JOBS=4``,
  ``-DHYDRA_SCORE_CANDIDATES=agent/*``, ``-DHYDRA_SCORE_LOOP=--max-iterations;3``),
  so a project that never calls this function sets them all on the command line.

  ``CONFIG``
    The ``hydra.toml`` used when the baseline is captured. Defaults to
    ``${CMAKE_SOURCE_DIR}/hydra.toml`` when that file exists, else the built-in
    defaults. Scoring always uses the copy stored in the baseline, never the
    candidate tree's: a change cannot alter its own weights.

  ``BASE_REF``
    A git ref (e.g. ``origin/main``). When set, ``hydra_baseline`` captures that
    commit through a git worktree; when unset it captures the current tree. The
    baseline is cached by commit, tree content and config: an unchanged base is
    not rebuilt.

  ``AGENT``
    The name the current tree is scored under (default: the cache variable
    ``HYDRA_SCORE_AGENT``, else ``current``). Its run directory is
    ``OUTPUT_DIR/<AGENT>``. Letters, digits, ``.``, ``_`` and ``-``, and not
    ``baseline``, ``trees`` or ``worktrees``: the rule in
    ``HydraScoreAgentNames.txt`` beside this module, which ``hydra-score
    capture --ref`` applies too.

  ``AGENT_SECONDS``, ``METRICS``
    How long the agent took, and an agent metrics JSON file (tokens, cost...);
    they feed the speed dimension and the reports.

  ``METRICS_DIR``
    A directory outside the candidates' trees holding ``<agent>.json`` per
    agent (the metrics schema of ``docs/parsers.md``; ``duration_seconds``
    feeds the speed dimension). Used for every candidate ``hydra_score``
    captures that has a file there.

  ``CANDIDATES``
    Git refs to rank: ``git for-each-ref`` patterns (``agent/*``,
    ``refs/remotes/origin/agent-*``), branches, tags or commits. ``hydra_score``
    then captures the baseline (``BASE_REF``, else ``HEAD``, through a
    worktree; cached), the current tree when it differs from the base, and
    every matching ref from a temporary git worktree of its own,
    ``OUTPUT_DIR/trees/<agent>/source`` beside its build tree
    ``OUTPUT_DIR/trees/<agent>/build`` (the worktree removed afterwards; run
    directories stay), in parallel up to ``JOBS``, and ranks them all in one table. Each ref's agent
    name is its short name with ``/`` made ``-`` (``agent/clean-fix`` ->
    ``agent-clean-fix``). A ref that cannot be captured fails the target,
    naming it. Up-to-date ref captures are reused.

  ``OUTPUT_DIR``
    Where run directories and reports go (default ``${CMAKE_BINARY_DIR}/hydra``).

  ``JOBS``
    Parallel jobs for the captures' build, test and lint steps (default: all
    cores). Captures made side by side share them, with their steps'
    timeouts scaled to their share (``docs/config.md``, "Time budgets").

  ``FAIL_ON_GATE``
    When ``ON`` (the default) a failed merge gate fails the ``hydra_score``
    target; reports are written either way.

  ``IMPROVER``
    The improver command of the ``hydra_loop`` target (a shell command run in
    the source tree each iteration, e.g. a coding agent or a script). Unset:
    ``improver`` of the ``[loop]`` table in ``CONFIG``.

  ``LOOP``
    More arguments for ``hydra-score loop`` run by ``hydra_loop``, e.g.
    ``LOOP --max-iterations 5 --metric composite``. The ``hydra_loop`` target
    keeps a change only when its score strictly beats the best so far and
    otherwise restores the tree exactly; it writes ``results.tsv`` and the
    convergence report (``loop.json``, ``loop.md``, ``loop.html``) under
    ``OUTPUT_DIR/loop`` and resumes an interrupted loop (see ``docs/loop.md``).

Cache variables:

``HYDRA_SCORE_EXECUTABLE``
  The ``hydra-score`` tool. Found on ``PATH`` (or next to an installed package);
  when the module is used from HydraScore's own source tree, the tool target it
  builds is used instead.

``HYDRA_SCORE_REPIN_TOOL``
  The tool's path and SHA-256 are fixed when the module is first configured
  in a build tree; every target checks them before it runs the tool, and
  refuses (running nothing) when ``HYDRA_SCORE_EXECUTABLE`` was pointed
  elsewhere since or the file changed. After upgrading HydraScore or
  choosing another tool yourself, configure once with
  ``-DHYDRA_SCORE_REPIN_TOOL=ON``.

``HYDRA_SCORE_ALLOW_CMAKE_CHANGES``
  ``hydra_score`` refuses to score a working tree whose change touches CMake
  files (``CMakeLists.txt``, ``*.cmake``, CMake presets): ``cmake --build``
  has already run the project's configure with them, outside the sandbox.
  The refusal names the safe flow: commit the change to a branch and rank it
  with ``CANDIDATES`` (its CMake code then runs only inside the capture's
  sandbox). ``-DHYDRA_SCORE_ALLOW_CMAKE_CHANGES=ON`` (or
  ``HYDRA_SCORE_ALLOW_CMAKE_CHANGES=1`` in the environment) scores it anyway.

``HYDRA_SCORE_AGENT``
  The default ``AGENT`` name, e.g. ``-DHYDRA_SCORE_AGENT=codex`` (useful with
  ``CMAKE_PROJECT_TOP_LEVEL_INCLUDES``, where there is no call to pass it to).

``HYDRA_SCORE_CLANG_TIDY``
  The ``clang-tidy`` used for the lint dimension. When it is not found the lint
  dimension is inactive and the reports say why.

``HYDRA_SCORE_LINT``
  ``OFF`` turns the lint step off (``capture --no-lint``): the lint dimension
  is inactive for the whole ranking and the reports say it was turned off.
  Default ``ON``.

``HYDRA_SCORE_CONFIG``, ``HYDRA_SCORE_BASE_REF``, ``HYDRA_SCORE_AGENT_SECONDS``,
``HYDRA_SCORE_METRICS``, ``HYDRA_SCORE_METRICS_DIR``, ``HYDRA_SCORE_CANDIDATES``,
``HYDRA_SCORE_OUTPUT_DIR``, ``HYDRA_SCORE_JOBS``, ``HYDRA_SCORE_FAIL_ON_GATE``,
``HYDRA_SCORE_IMPROVER``, ``HYDRA_SCORE_LOOP``, ``HYDRA_SCORE_STORE``, ``HYDRA_SCORE_TASK``
  The keyword of the same name when the call does not give it.

``STORE`` / ``TASK``
  ``hydra_score`` records every ranking into the results store ``STORE``
  (default ``OUTPUT_DIR/results.db``; ``OFF``: none) under the task ``TASK``
  (default: the project and base commit). ``hydra-score leaderboard --store``
  reads it (docs/leaderboard.md).

Reports written by ``hydra_score`` under ``OUTPUT_DIR``: ``score.json`` (the
output contract), ``score.md``, ``score.html``, ``score.sarif`` and
``gates.xml`` (JUnit of the merge gates).

``hydra_apply`` applies the top-ranked candidate of ``OUTPUT_DIR/score.json``
to the source tree (``hydra-score apply``): a dry run that lists the files and
checks the change applies; with ``HYDRA_APPLY_CONFIRM=1`` in the environment it
writes them (``HYDRA_APPLY_AGENT=<name>`` picks another candidate). A
candidate that is not mergeable, a tree with changes, or a base that moved
since the capture is refused.
#]=======================================================================]

cmake_minimum_required(VERSION 3.25)
include_guard(GLOBAL)

# Remember where this module lives at include time; inside functions
# CMAKE_CURRENT_LIST_DIR means the caller's directory.
set(_HYDRA_SCORE_MODULE_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(hydra_score_add_targets)
  if(HYDRA_SCORE_NESTED)
    # This configure is one of HydraScore's own capture trees: no targets.
    return()
  endif()
  block(SCOPE_FOR POLICIES)
  cmake_policy(VERSION 3.25)

  if(TARGET hydra_baseline OR TARGET hydra_score)
    message(FATAL_ERROR "hydra_score_add_targets: the hydra_baseline/hydra_score targets already exist "
                        "(call hydra_score_add_targets() once per build tree)")
  endif()

  set(one_value CONFIG BASE_REF AGENT AGENT_SECONDS METRICS METRICS_DIR OUTPUT_DIR JOBS FAIL_ON_GATE IMPROVER
                STORE TASK)
  set(multi_value LOOP CANDIDATES)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "${one_value}" "${multi_value}")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "hydra_score_add_targets: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "hydra_score_add_targets: keywords given without a value: ${arg_KEYWORDS_MISSING_VALUES}")
  endif()
  # Every keyword not given falls back to its HYDRA_SCORE_<KEYWORD> cache
  # variable (-DHYDRA_SCORE_JOBS=4 ...), for projects that never call this
  # function (CMAKE_PROJECT_TOP_LEVEL_INCLUDES).
  foreach(keyword IN LISTS one_value multi_value)
    if(NOT DEFINED arg_${keyword} AND DEFINED HYDRA_SCORE_${keyword} AND NOT "${HYDRA_SCORE_${keyword}}" STREQUAL "")
      set(arg_${keyword} "${HYDRA_SCORE_${keyword}}")
    endif()
  endforeach()
  if(DEFINED arg_JOBS AND NOT arg_JOBS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "hydra_score_add_targets: JOBS must be a positive integer, got \"${arg_JOBS}\"")
  endif()
  if(DEFINED arg_AGENT_SECONDS AND NOT arg_AGENT_SECONDS MATCHES "^[0-9]+(\\.[0-9]+)?$")
    message(FATAL_ERROR "hydra_score_add_targets: AGENT_SECONDS must be a number of seconds, got \"${arg_AGENT_SECONDS}\"")
  endif()
  if(NOT DEFINED arg_FAIL_ON_GATE)
    set(arg_FAIL_ON_GATE ON)
  endif()
  if(NOT arg_FAIL_ON_GATE MATCHES "^(ON|OFF|TRUE|FALSE|YES|NO|1|0)$")
    message(FATAL_ERROR "hydra_score_add_targets: FAIL_ON_GATE must be ON or OFF, got \"${arg_FAIL_ON_GATE}\"")
  endif()
  if(NOT DEFINED arg_CONFIG AND EXISTS "${CMAKE_SOURCE_DIR}/hydra.toml")
    set(arg_CONFIG "${CMAKE_SOURCE_DIR}/hydra.toml")
  endif()
  if(DEFINED arg_CONFIG)
    cmake_path(ABSOLUTE_PATH arg_CONFIG BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${arg_CONFIG}")
      message(FATAL_ERROR "hydra_score_add_targets: CONFIG file does not exist: ${arg_CONFIG}")
    endif()
  endif()
  if(NOT DEFINED arg_AGENT OR arg_AGENT STREQUAL "")
    set(HYDRA_SCORE_AGENT "current" CACHE STRING "Default agent name of the hydra_score target")
    set(arg_AGENT "${HYDRA_SCORE_AGENT}")
  endif()
  _hydra_score_agent_name_problem("${arg_AGENT}" agent_problem)
  if(agent_problem)
    message(FATAL_ERROR "hydra_score_add_targets: AGENT \"${arg_AGENT}\" is ${agent_problem}")
  endif()
  if(NOT DEFINED arg_OUTPUT_DIR)
    set(arg_OUTPUT_DIR "${CMAKE_BINARY_DIR}/hydra")
  endif()
  cmake_path(ABSOLUTE_PATH arg_OUTPUT_DIR BASE_DIRECTORY "${CMAKE_BINARY_DIR}")
  # The results store every ranking is recorded into (OFF: none).
  if(NOT DEFINED arg_STORE)
    set(arg_STORE "${arg_OUTPUT_DIR}/results.db")
  endif()
  if(NOT arg_STORE MATCHES "^(OFF|FALSE|NO|0)$")
    cmake_path(ABSOLUTE_PATH arg_STORE BASE_DIRECTORY "${CMAKE_BINARY_DIR}")
  endif()
  if(DEFINED arg_METRICS_DIR)
    cmake_path(ABSOLUTE_PATH arg_METRICS_DIR BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  if(DEFINED arg_METRICS)
    cmake_path(ABSOLUTE_PATH arg_METRICS BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()

  # The tool: our own target when built alongside, else an installed one.
  set(tool_check "")
  if(TARGET hydra-score)
    set(tool "$<TARGET_FILE:hydra-score>")
  else()
    find_program(HYDRA_SCORE_EXECUTABLE hydra-score
      HINTS "${_HYDRA_SCORE_MODULE_DIR}/../../../bin" "${_HYDRA_SCORE_MODULE_DIR}/../bin"
      DOC "The hydra-score tool used by the hydra_baseline and hydra_score targets")
    if(NOT HYDRA_SCORE_EXECUTABLE)
      message(FATAL_ERROR "hydra_score_add_targets: the hydra-score tool was not found. "
                          "Install HydraScore or set HYDRA_SCORE_EXECUTABLE to its path.")
    endif()
    # The tool is fixed (path and SHA-256) when the module is first
    # configured; every target checks it before running it, so a changed
    # HYDRA_SCORE_EXECUTABLE (the project's CMake code runs again whenever
    # `cmake --build` configures) or a replaced binary runs nothing.
    if(HYDRA_SCORE_REPIN_TOOL OR NOT DEFINED CACHE{_HYDRA_SCORE_PINNED_TOOL})
      file(SHA256 "${HYDRA_SCORE_EXECUTABLE}" digest)
      set(_HYDRA_SCORE_PINNED_TOOL "${HYDRA_SCORE_EXECUTABLE}" CACHE INTERNAL "The hydra-score tool fixed at the first configure")
      set(_HYDRA_SCORE_PINNED_TOOL_SHA256 "${digest}" CACHE INTERNAL "Its SHA-256")
      unset(HYDRA_SCORE_REPIN_TOOL CACHE)
    endif()
    set(tool "${_HYDRA_SCORE_PINNED_TOOL}")
    set(tool_check COMMAND "${CMAKE_COMMAND}" "-DHYDRA_SCORE_TOOL=${_HYDRA_SCORE_PINNED_TOOL}"
      "-DHYDRA_SCORE_TOOL_SHA256=${_HYDRA_SCORE_PINNED_TOOL_SHA256}"
      "-DHYDRA_SCORE_EXECUTABLE=${HYDRA_SCORE_EXECUTABLE}"
      -P "${_HYDRA_SCORE_MODULE_DIR}/HydraScoreCheckTool.cmake")
  endif()
  find_program(HYDRA_SCORE_CLANG_TIDY NAMES clang-tidy clang-tidy-16 clang-tidy-15 clang-tidy-14
    DOC "clang-tidy for HydraScore's lint dimension")
  option(HYDRA_SCORE_LINT "HydraScore: run the lint step (OFF: the lint dimension is inactive)" ON)
  set(lint_arguments "")
  if(NOT HYDRA_SCORE_LINT)
    set(lint_arguments --no-lint)
  elseif(NOT HYDRA_SCORE_CLANG_TIDY)
    message(STATUS "HydraScore: clang-tidy not found; the lint dimension will be inactive "
                   "(set HYDRA_SCORE_CLANG_TIDY to enable it)")
  endif()

  set(initial_cache "${arg_OUTPUT_DIR}/initial-cache.cmake")
  # Written at the end of the top-level configure, when every option exists.
  # (EVAL CODE: deferred arguments would otherwise be expanded at call time.)
  cmake_language(EVAL CODE "
    cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]]
      CALL _hydra_score_write_initial_cache [[${initial_cache}]])")

  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  set(config_arguments "")
  if(multi_config)
    set(config_arguments --build-config "$<CONFIG>")
  endif()
  set(jobs_arguments "")
  if(DEFINED arg_JOBS)
    set(jobs_arguments --jobs ${arg_JOBS})
  endif()
  set(common
    "${CMAKE_COMMAND}" -E env "HYDRA_SCORE_CLANG_TIDY=${HYDRA_SCORE_CLANG_TIDY}"
    "${tool}" capture
      --source "${CMAKE_SOURCE_DIR}"
      --generator "${CMAKE_GENERATOR}"
      --initial-cache "${initial_cache}"
      --exclude "${CMAKE_BINARY_DIR}"
      ${config_arguments}
      ${jobs_arguments}
      ${lint_arguments})

  set(baseline_arguments --out "${arg_OUTPUT_DIR}/baseline" --build-dir "${arg_OUTPUT_DIR}/trees/baseline"
                         --agent baseline --reuse)
  if(DEFINED arg_CONFIG)
    list(APPEND baseline_arguments --config "${arg_CONFIG}")
  endif()
  if(DEFINED arg_BASE_REF AND NOT arg_BASE_REF STREQUAL "")
    list(APPEND baseline_arguments --checkout "${arg_BASE_REF}")
  elseif(DEFINED arg_CANDIDATES)
    # Candidates are ranked against a commit: HEAD, through a worktree, so
    # a change in the current tree is a candidate, never the baseline.
    list(APPEND baseline_arguments --checkout HEAD)
  endif()
  add_custom_target(hydra_baseline
    ${tool_check}
    COMMAND ${common} ${baseline_arguments}
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    BYPRODUCTS "${arg_OUTPUT_DIR}/baseline/manifest.json"
    COMMENT "HydraScore: capturing the baseline into ${arg_OUTPUT_DIR}/baseline"
    COMMAND_EXPAND_LISTS
    VERBATIM
    USES_TERMINAL)

  set(candidate_arguments --out "${arg_OUTPUT_DIR}/${arg_AGENT}" --build-dir "${arg_OUTPUT_DIR}/trees/${arg_AGENT}"
                          --agent "${arg_AGENT}" --baseline-run "${arg_OUTPUT_DIR}/baseline")
  # The working tree's CMake files already ran outside the sandbox when
  # `cmake --build` configured: a tree that changes them is refused (the
  # refusal names the safe flow) unless the user opts in.
  if(NOT HYDRA_SCORE_ALLOW_CMAKE_CHANGES)
    list(APPEND candidate_arguments --refuse-cmake-changes)
  endif()
  if(DEFINED arg_AGENT_SECONDS)
    list(APPEND candidate_arguments --agent-seconds "${arg_AGENT_SECONDS}")
  endif()
  if(DEFINED arg_METRICS)
    list(APPEND candidate_arguments --metrics "${arg_METRICS}")
  endif()
  set(metrics_dir_arguments "")
  if(DEFINED arg_METRICS_DIR)
    set(metrics_dir_arguments --metrics-dir "${arg_METRICS_DIR}")
  endif()
  if(DEFINED arg_CANDIDATES)
    # Several candidates: the baseline (cached), the current tree when it
    # differs from the base, and every ref CANDIDATES matches, each from a
    # temporary worktree, in parallel up to JOBS; then one ranking of all.
    set(ref_arguments "")
    foreach(pattern IN LISTS arg_CANDIDATES)
      list(APPEND ref_arguments --ref "${pattern}")
    endforeach()
    set(capture_commands
      COMMAND ${common} ${baseline_arguments}
      COMMAND ${common} ${candidate_arguments} ${metrics_dir_arguments}
              --if-changed --list "${arg_OUTPUT_DIR}/candidates-tree.list"
      COMMAND ${common} ${ref_arguments} --out "${arg_OUTPUT_DIR}" --baseline-run "${arg_OUTPUT_DIR}/baseline"
              ${metrics_dir_arguments} --reuse --list "${arg_OUTPUT_DIR}/candidates-refs.list")
    set(candidate_score_arguments
      --candidate-list "${arg_OUTPUT_DIR}/candidates-tree.list"
      --candidate-list "${arg_OUTPUT_DIR}/candidates-refs.list")
    string(REPLACE ";" " " patterns "${arg_CANDIDATES}")
    set(score_comment "HydraScore: capturing and ranking the current tree and the refs ${patterns}")
  else()
    set(capture_commands COMMAND ${common} ${candidate_arguments} ${metrics_dir_arguments})
    set(candidate_score_arguments --candidate "${arg_OUTPUT_DIR}/${arg_AGENT}")
    set(score_comment "HydraScore: capturing and scoring the current tree against ${arg_OUTPUT_DIR}/baseline")
  endif()
  set(score_arguments
    --baseline "${arg_OUTPUT_DIR}/baseline"
    ${candidate_score_arguments}
    --json "${arg_OUTPUT_DIR}/score.json"
    --markdown "${arg_OUTPUT_DIR}/score.md"
    --html "${arg_OUTPUT_DIR}/score.html"
    --sarif "${arg_OUTPUT_DIR}/score.sarif"
    --junit "${arg_OUTPUT_DIR}/gates.xml")
  if(NOT arg_FAIL_ON_GATE)
    list(APPEND score_arguments --no-gate-exit)
  endif()
  if(NOT arg_STORE MATCHES "^(OFF|FALSE|NO|0)$")
    list(APPEND score_arguments --store "${arg_STORE}")
    if(DEFINED arg_TASK)
      list(APPEND score_arguments --task "${arg_TASK}")
    endif()
  endif()
  add_custom_target(hydra_score
    ${tool_check}
    ${capture_commands}
    COMMAND "${tool}" score ${score_arguments}
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    BYPRODUCTS "${arg_OUTPUT_DIR}/score.json" "${arg_OUTPUT_DIR}/score.md" "${arg_OUTPUT_DIR}/score.html"
               "${arg_OUTPUT_DIR}/score.sarif" "${arg_OUTPUT_DIR}/gates.xml"
    COMMENT "${score_comment}"
    COMMAND_EXPAND_LISTS
    VERBATIM
    USES_TERMINAL)

  # --- hydra_apply: the chosen candidate's change onto the source tree -----
  # A dry run (the files and the check); HYDRA_APPLY_CONFIRM=1 in the
  # environment writes it, HYDRA_APPLY_AGENT picks another than the top one.
  add_custom_target(hydra_apply
    ${tool_check}
    COMMAND "${tool}" apply --score "${arg_OUTPUT_DIR}/score.json" --source "${CMAKE_SOURCE_DIR}"
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    COMMENT "HydraScore: applying the top-ranked candidate of ${arg_OUTPUT_DIR}/score.json (dry run unless HYDRA_APPLY_CONFIRM=1)"
    VERBATIM
    USES_TERMINAL)

  # --- hydra_loop: the keep/revert improvement loop (docs/loop.md) ----------
  # IMPROVER is the improver command; LOOP holds further `hydra-score loop`
  # arguments. Output (resumable) under OUTPUT_DIR/loop.
  set(loop_arguments
    --source "${CMAKE_SOURCE_DIR}"
    --out "${arg_OUTPUT_DIR}/loop"
    --build-dir "${arg_OUTPUT_DIR}/trees/loop"
    --generator "${CMAKE_GENERATOR}"
    --initial-cache "${initial_cache}"
    --exclude "${CMAKE_BINARY_DIR}"
    ${config_arguments}
    ${jobs_arguments})
  if(DEFINED arg_CONFIG)
    list(APPEND loop_arguments --config "${arg_CONFIG}")
  endif()
  if(DEFINED arg_IMPROVER AND NOT arg_IMPROVER STREQUAL "")
    list(APPEND loop_arguments --improver "${arg_IMPROVER}")
  endif()
  add_custom_target(hydra_loop
    ${tool_check}
    COMMAND "${CMAKE_COMMAND}" -E env "HYDRA_SCORE_CLANG_TIDY=${HYDRA_SCORE_CLANG_TIDY}"
      "${tool}" loop ${loop_arguments} ${arg_LOOP}
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    BYPRODUCTS "${arg_OUTPUT_DIR}/loop/loop.json" "${arg_OUTPUT_DIR}/loop/loop.md"
               "${arg_OUTPUT_DIR}/loop/loop.html" "${arg_OUTPUT_DIR}/loop/results.tsv"
    COMMENT "HydraScore: running the improvement loop into ${arg_OUTPUT_DIR}/loop"
    COMMAND_EXPAND_LISTS
    VERBATIM
    USES_TERMINAL)
  # --- end of hydra_loop ---------------------------------------------------
  endblock()
endfunction()

# Why `name` cannot be an agent's name, in `out_var` (empty when it can).
# The rule is HydraScoreAgentNames.txt beside this module, which hydra-score
# compiles in too (its capture --ref names agents after refs), so both refuse
# the same names.
function(_hydra_score_agent_name_problem name out_var)
  # The directory of this file, wherever the module was included from
  # (add_subdirectory and FetchContent include it in a scope of their own).
  file(STRINGS "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/HydraScoreAgentNames.txt" rules REGEX "^(pattern|reserved) ")
  set(problem "")
  foreach(rule IN LISTS rules)
    string(REGEX REPLACE "^([a-z]+) (.*)$" "\\1" kind "${rule}")
    string(REGEX REPLACE "^([a-z]+) (.*)$" "\\2" value "${rule}")
    if(kind STREQUAL "pattern" AND NOT name MATCHES "${value}")
      set(problem "a name that does not match ${value}")
      break()
    elseif(kind STREQUAL "reserved" AND name STREQUAL value)
      set(problem "a name HydraScore reserves")
      break()
    endif()
  endforeach()
  set(${out_var} "${problem}" PARENT_SCOPE)
endfunction()

# Writes a `cmake -C` script holding the project's cache entries, so capture
# trees are configured as the user's tree is (e.g. -DPROJECT_BUILD_TESTS=ON).
function(_hydra_score_write_initial_cache file)
  get_cmake_property(variables CACHE_VARIABLES)
  list(SORT variables)
  set(content "# Generated by HydraScore: the project's cache entries, for capture build trees.\n")
  foreach(variable IN LISTS variables)
    get_property(type CACHE "${variable}" PROPERTY TYPE)
    if(type STREQUAL "INTERNAL" OR type STREQUAL "STATIC")
      continue()
    endif()
    if(variable MATCHES "^HYDRA_SCORE_"
       OR variable MATCHES "^CMAKE_PROJECT_TOP_LEVEL_INCLUDES$"
       OR variable MATCHES "^CMAKE_(CACHEFILE_DIR|HOME_DIRECTORY|GENERATOR.*|EXPORT_COMPILE_COMMANDS|COMMAND|CTEST_COMMAND|CPACK_COMMAND|ROOT)$"
       OR variable MATCHES "^FETCHCONTENT_BASE_DIR$"
       OR variable MATCHES "_(BINARY|SOURCE)_DIR$")
      continue()
    endif()
    if(type STREQUAL "UNINITIALIZED")
      set(type STRING)
    endif()
    get_property(value CACHE "${variable}" PROPERTY VALUE)
    string(REPLACE "\\" "\\\\" value "${value}")
    string(REPLACE "\"" "\\\"" value "${value}")
    string(REPLACE "$" "\\$" value "${value}")
    string(APPEND content "set(${variable} \"${value}\" CACHE ${type} \"\" FORCE)\n")
  endforeach()
  # Rewrite only on change, so the capture cache key stays stable.
  if(EXISTS "${file}")
    file(READ "${file}" previous)
    if(previous STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE "${file}" "${content}")
endfunction()

# Included through CMAKE_PROJECT_TOP_LEVEL_INCLUDES: add the targets with their
# defaults at the end of the top-level directory, unless the project calls
# hydra_score_add_targets() itself.
function(_hydra_score_add_default_targets)
  if(NOT TARGET hydra_baseline AND NOT HYDRA_SCORE_NESTED)
    hydra_score_add_targets()
  endif()
endfunction()

if(CMAKE_PROJECT_TOP_LEVEL_INCLUDES AND NOT HYDRA_SCORE_NESTED)
  set(_hydra_score_this "${CMAKE_CURRENT_LIST_FILE}")
  file(REAL_PATH "${_hydra_score_this}" _hydra_score_this)
  foreach(_hydra_score_include IN LISTS CMAKE_PROJECT_TOP_LEVEL_INCLUDES)
    file(REAL_PATH "${_hydra_score_include}" _hydra_score_include BASE_DIRECTORY "${CMAKE_SOURCE_DIR}")
    if(_hydra_score_include STREQUAL _hydra_score_this)
      cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _hydra_score_add_default_targets)
      break()
    endif()
  endforeach()
  unset(_hydra_score_this)
  unset(_hydra_score_include)
endif()
