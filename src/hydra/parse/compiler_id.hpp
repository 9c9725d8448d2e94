// Which compiler built a tree, as CMake identified it: the version the
// "compiler" lint findings (warnings from the build log) come from.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hydra::parse {

/// From a configure log: the first "-- The CXX compiler identification is
/// GNU 12.2.0" line (else the C compiler's), as "GNU 12.2.0"; nullopt when
/// there is none.
std::optional<std::string> compiler_identification_from_log(std::string_view configure_log);

/// From CMake's CMakeFiles/<version>/CMakeCXXCompiler.cmake (or
/// CMakeCCompiler.cmake): `set(CMAKE_<LANG>_COMPILER_ID "GNU")` and
/// `set(CMAKE_<LANG>_COMPILER_VERSION "12.2.0")` as "GNU 12.2.0"; nullopt when
/// the id is missing.
std::optional<std::string> compiler_identification_from_cmake_file(std::string_view text);

}  // namespace hydra::parse
