#[=======================================================================[.rst:
TextstatsWarnings
-----------------

The warning flags every textstats target is compiled with.

.. command:: textstats_enable_warnings

  ::

    textstats_enable_warnings(<target>)

  Adds ``-Wall -Wextra -Wpedantic -Wshadow -Wconversion`` (GCC, Clang) or
  ``/W4`` (MSVC) to ``<target>``'s own sources.
#]=======================================================================]

function(textstats_enable_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion>
    $<$<CXX_COMPILER_ID:MSVC>:/W4>)
endfunction()
