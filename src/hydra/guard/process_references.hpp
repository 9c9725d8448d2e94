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
};

/// One entry: `category` empty means matched but never flagged (`why` says
/// why: used everywhere for something else), so the decision stays in the table.
struct CatalogueEntry {
  ReferenceMatch match;
  std::string_view text;
  std::string_view category;  ///< "exit handler", "process name", ... ; empty: not flagged
  std::string_view why;
};

/// The catalogue (docs/threat-model.md lists it).
const std::vector<CatalogueEntry>& process_reference_catalogue();

/// The catalogue's references among one object's undefined `symbols`
/// (demangled, as `nm -C` prints them) and printable `strings`, sorted.
std::set<std::string> catalogue_references(const std::vector<std::string>& symbols,
                                           const std::vector<std::string>& strings);

/// The category of a reference catalogue_references returned; "test harness"
/// for one no entry names (a symbol only test objects define, or of a test
/// framework's namespace: capture/cmake/object_references.hpp).
std::string reference_category(const std::string& reference);

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

}  // namespace hydra::guard
