// Objects that put functions of their own before main or after it: an entry
// of `.init_array`, `.preinit_array`, `.fini_array` (or their prioritised
// forms, `.ctors`, `.dtors`) that is not the compiler's static initialiser
// of the file (`_GLOBAL__sub_I_...`, `__cxx_global_var_init...`), or a
// variable placed in such a section. The C library calls `.init_array`
// entries with the program's argc, argv and envp: code there reads (or
// rewrites) the arguments before `main` sees them, past every symbol the
// object reference catalogue names. Such an object references
// "constructor of its own" (guard/process_references.hpp). Read with
// binutils `objdump -r -t`.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace hydra::capture {

/// The name the object reference catalogue gives such an entry.
inline constexpr const char* kOwnConstructor = "constructor of its own";

/// Of one object's `objdump -r -t` lines, the entries of its constructor
/// and destructor sections that are the object's own: the function each
/// entry names (or "?" when no symbol names its place), and each variable
/// defined in such a section. Empty when every entry is the compiler's
/// static initialiser. Pure.
std::set<std::string> own_constructor_entries(const std::vector<std::string>& lines);

/// Of `objects`, those with an entry of their own (own_constructor_entries).
/// `failed` is set when objdump could not read one of them.
std::set<std::string> objects_with_own_constructors(const std::vector<std::string>& objects,
                                                    const std::filesystem::path& objdump, bool& failed);

}  // namespace hydra::capture
