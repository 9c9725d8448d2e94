// Process control and self-inspection in the code under test
// (docs/threat-model.md, "Behaving well only under test"): what the objects a
// build produced reference that lets code end or steer its own process after
// the test decided (exit and signal handlers, terminate handlers, raw exits,
// children), or tell a test run from any other (its own name and command
// line, the mount table, control groups, PID 1, /proc/self, the harness's
// environment). One catalogue (process_reference_catalogue), matched against
// an object's undefined symbols and the strings of its data sections; a
// candidate's code that newly references an entry fails the anti-gaming gate
// unless the baseline's `[anti_gaming] allowed_references` lists it. Pure.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::guard {

/// How an entry of the catalogue is matched.
enum class ReferenceMatch {
  symbol,    ///< an undefined symbol, demangled, equal to the entry (arguments and version dropped)
  path,      ///< a string holding the entry: the reference is the path from there on
  variable,  ///< a string that is one environment-variable-like word starting with the entry
  word,      ///< a string holding the entry, case-insensitively: the reference is the entry
  definition,  ///< a definition interposing a runtime library's (demangled, arguments dropped): not flagged
};

/// One entry: `category` empty means matched but never flagged (`why` says
/// why: used everywhere for something else), so the decision stays in the table.
struct CatalogueEntry {
  ReferenceMatch match;
  std::string_view text;
  std::string_view category;  ///< "exit handler", "process name", ... ; empty: not flagged
  std::string_view why;
  /// A variable entry distinctive enough to be matched inside a longer
  /// word too ("~CTEST_..." past a leading character); otherwise only at a
  /// word's start ("MY_TEST_FLAG" is no TEST_ variable).
  bool inside_words = false;
};

/// References the object scan names besides symbols and strings: strings
/// __DATE__, __TIME__ or __TIMESTAMP__ left, and a resolver (IFUNC) of an
/// object's own (catalogue entries of their own).
inline constexpr const char* kCompileTime = "compile time (__DATE__, __TIME__)";
inline constexpr const char* kOwnResolver = "resolver of its own (ifunc)";

/// The catalogue (docs/threat-model.md lists it).
const std::vector<CatalogueEntry>& process_reference_catalogue();

/// The catalogue's references among one object's undefined `symbols`
/// (demangled, as `nm -C` prints them) and printable `strings`, sorted.
std::set<std::string> catalogue_references(const std::vector<std::string>& symbols,
                                           const std::vector<std::string>& strings);

/// The category of a reference catalogue_references returned; "interposes a
/// C or C++ runtime function" for an interposed_definitions one; "test
/// harness" for a harness_definitions one and for one no entry names (a
/// symbol only test objects define, or of a test framework's namespace:
/// capture/cmake/object_references.hpp).
std::string reference_category(const std::string& reference);

/// References naming a definition rather than a use: an object's own
/// definition of what a runtime library exports ("interposes strlen"), and
/// of what the test objects define too ("defines harness::failed_checks").
constexpr std::string_view kInterposes = "interposes ";
constexpr std::string_view kDefines = "defines ";

/// One global symbol an object defines: its name as the object spells it
/// (mangled), and whether the definition is strong (not weak, unique or common).
struct Definition {
  std::string mangled;
  bool strong = false;
};

/// `mangled` demangled (itself when it is no C++ name).
std::string demangle(const std::string& mangled);

/// The definitions among `defined` (an object's global definitions) of
/// names the C and C++ runtime libraries export (`runtime_exports`, mangled,
/// versions dropped): "interposes <demangled name>" references. A C name
/// counts defined either way; a C++ name only when strong and no template
/// (headers instantiate those weakly); the catalogue's definition entries
/// (operator new and delete: a standard replacement) are not flagged.
std::set<std::string> interposed_definitions(const std::vector<Definition>& defined,
                                             const std::set<std::string>& runtime_exports);

/// A definition, demangled (nm -C, arguments dropped), of a non-test object.
struct NamedDefinition {
  std::string name;
  bool strong = false;
  bool object = false;  ///< a weak or unique object (nm's V, u): an inline variable, a static member
};

/// The definitions of one non-test object (`defined`) that test objects
/// define too (`test_defined`, demangled names): "defines <name>"
/// references. One counts when the object's is strong (it overrides the
/// tests' weak one: an explicit specialization of a harness template), or
/// when it lies in a named top-level scope that is neither the toolchain's
/// (std, __gnu_cxx, ...) nor one of `own_scopes` (where the code defines
/// strongly what no test object defines: its own namespaces), or is an
/// object of the global scope (an inline variable; the global scope's weak
/// functions are the headers' operators, placement new among them).
std::set<std::string> harness_definitions(const std::vector<NamedDefinition>& defined,
                                          const std::set<std::string>& test_defined,
                                          const std::set<std::string>& own_scopes);

/// The top-level scope of a demangled name: "textstats_test" for "void
/// textstats_test::check<int>" or "guard variable for textstats_test::x";
/// empty for the global scope.
std::string top_scope(const std::string& name);

/// Catalogue references per object, keyed by the source file it was compiled
/// from (relative to the work tree's top level; manifest.json's
/// `object_references`).
using ObjectReferences = std::map<std::string, std::set<std::string>>;

/// A reference a candidate's object newly has.
struct NewReference {
  std::string source;
  std::string reference;
  std::string category;
};

/// The references of `candidate` absent from `baseline`'s object of the same
/// source (every reference of a source the baseline did not compile),
/// except those `allowed` lists (an entry equal to the reference, or ending
/// in '*' and a prefix of it). Sorted by source, then reference.
std::vector<NewReference> new_references(const ObjectReferences& baseline, const ObjectReferences& candidate,
                                         const std::vector<std::string>& allowed);

/// The anti-gaming reason when the baseline's objects were read
/// (`baseline_read`) and the candidate's scan read none (`candidate_problem`,
/// why not; empty when it read them or did not run): what the change's code
/// references is then unknown, which is no clean result. Empty otherwise. Pure.
std::string unread_objects_reason(bool baseline_read, const std::string& candidate_problem);

}  // namespace hydra::guard
