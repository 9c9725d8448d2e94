# The hydra-score .deb (cpack -G DEB): the tool travels between CI jobs as this
# one file. Its Depends are computed by dpkg-shlibdeps from the libraries the
# binary links (so a runner gets libre2, libxxhash, libgmpxx, libcrypto,
# libsqlite3, ... with `apt-get install ./hydra-score_*.deb`); it Recommends
# the programs a capture drives, read from scripts/packages/tools.txt, the
# list scripts/install-deps.sh installs too. Configure with
# -DCMAKE_INSTALL_PREFIX=/usr so the installed paths compiled into the tool
# match where the package puts them.
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/../scripts/packages/tools.txt _hydra_tool_lines)
set(_hydra_tools "")
foreach(_line IN LISTS _hydra_tool_lines)
  string(REGEX REPLACE "#.*" "" _line "${_line}")
  string(REGEX MATCHALL "[^ \t]+" _names "${_line}")
  list(APPEND _hydra_tools ${_names})
endforeach()
list(REMOVE_DUPLICATES _hydra_tools)
list(JOIN _hydra_tools ", " CPACK_DEBIAN_PACKAGE_RECOMMENDS)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME hydra-score)
set(CPACK_PACKAGE_VENDOR HydraScore)
set(CPACK_PACKAGE_CONTACT "HydraScore maintainers <hydra-score@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
include(CPack)
