// Warning suppressions judged from what the compiler was told, not from the
// diff's text: each unit's compile command in the build's own command log
// (build-commands.txt, `ninja -t commands`) of the baseline and of the
// candidate. A flag that hides warnings from the build log or from lint,
// however the change spelled it (a generator expression, a variable, a
// preset, `add_compile_options` in an included file), is in the command the
// compiler ran (docs/threat-model.md, "Suppressing lint").
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/lint/cache.hpp>

namespace hydra::capture {

/// Where one side's trees were, as its build's commands name them.
struct CommandTrees {
  std::filesystem::path source;  ///< the source tree
  std::filesystem::path build;   ///< the build tree
};

/// One suppression flag a candidate's unit was compiled with that the
/// baseline's same unit was not.
struct FlagSuppression {
  std::string unit;    ///< the source, "<source>/..." or "<build>/..." (absolute elsewhere)
  std::string target;  ///< the CMake target of its object ("CMakeFiles/<target>.dir/"); empty: not known
  std::string flag;    ///< as normalized: "-Wno-conversion", "-isystem <source>/include", "removed -Wall", ...
};

/// The warning-hiding flags of one compile command's `arguments`, paths
/// written relative to `trees` ("<source>/...", "<build>/..."): `-w`,
/// `--no-warnings`, `-Wno-*` (`-Wno-error*` too), `-Wp,-w`, the same behind
/// `-Xclang`, `-isystem`/`-idirafter`/`-cxx-isystem` naming a folder of the
/// source tree, `--system-header-prefix`/`-system-header-prefix`,
/// `--warning-suppression-mappings`, `-fno-diagnostics-*` and the
/// `-fdiagnostics-*` that change where or how diagnostics are written (not
/// the colour, option-name, template-tree, fix-it or path ones), and a
/// forced include (`-include`, `-imacros`) of a file `hides` says holds a
/// diagnostic pragma (it gets the path as the compiler saw it). Also every
/// warning-enabling `-W<name>` (not `-Wl,`/`-Wa,`/`-Wp,`/`-Werror*`) as
/// "+-W<name>", for finding the ones a candidate dropped. Pure but for `hides`.
std::vector<std::string> suppression_flags(const std::vector<std::string>& arguments, const CommandTrees& trees,
                                           const std::function<bool(const std::filesystem::path&)>& hides);

/// The suppression flags each unit of `candidate` has that the baseline's
/// same unit (the same object file, else the same source) lacks; a unit the
/// baseline did not compile is judged against every baseline unit of its
/// target (or of the whole build when the target is new). A warning flag
/// the baseline's same unit had and the candidate's lacks is "removed
/// -W<name>". Sorted by unit, target, flag. Pure but for `hides`.
std::vector<FlagSuppression> new_flag_suppressions(const std::vector<CompileCommand>& baseline,
                                                   const CommandTrees& baseline_trees,
                                                   const std::vector<CompileCommand>& candidate,
                                                   const CommandTrees& candidate_trees,
                                                   const std::function<bool(const std::filesystem::path&)>& hides);

/// Whether the file `path` holds a diagnostic pragma (`pragma ... diagnostic`,
/// `system_header`, `warning(disable`, or `_Pragma`/`__pragma`): a forced
/// include of it silences warnings. False when it cannot be read.
bool holds_diagnostic_pragma(const std::filesystem::path& path);

/// For a candidate whose baseline run holds its build's commands
/// (build-commands.txt, beside this capture's in `staging`): the flag
/// suppressions its units gained, as manifest.json's
/// `compile_flag_suppressions` ([{"unit", "target", "flag"}], empty when
/// none); nothing is recorded when either side has no command log (not a
/// Ninja tree, or the configure failed). Compilers are known by name
/// (is_compiler_program) and by the toolchains' paths `compilers`.
void record_flag_suppressions(const Plan& plan, const CaptureRequest& request, const std::vector<std::string>& compilers,
                              Staging& staging);

/// The flags of manifest.json's `compile_flag_suppressions` in `manifest`
/// that are one word each (`-w`, `-Wno-*`, ...): the lint view removes them
/// from the compile database as it does the diff's own.
std::vector<std::string> single_word_suppression_flags(const nlohmann::json& manifest);

}  // namespace hydra::capture
