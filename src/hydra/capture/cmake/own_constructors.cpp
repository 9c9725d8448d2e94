// Objects with constructors of their own (own_constructors.hpp).
#include <hydra/capture/cmake/own_constructors.hpp>
#include <hydra/capture/cmake/system_calls.hpp>

#include <map>
#include <optional>
#include <sstream>


namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

/// Whether `section` runs its entries before or after main.
bool constructor_section(const std::string& section) {
  for (const char* name : {".init_array", ".preinit_array", ".fini_array", ".ctors", ".dtors"}) {
    const std::string base = name;
    if (section == base || section.rfind(base + ".", 0) == 0) return true;
  }
  return false;
}

/// The compiler's own initialisers of a file's statics.
bool compiler_initialiser(const std::string& name) {
  for (const char* prefix : {"_GLOBAL__sub_I_", "_GLOBAL__I_", "_GLOBAL__sub_D_", "_GLOBAL__D_",
                             "__cxx_global_var_init", "_GLOBAL__I_a", "__do_global_ctors_aux"})
    if (name.rfind(prefix, 0) == 0) return true;
  return false;
}

struct Symbol {
  std::string section, name;
  unsigned long long value = 0;
  bool function = false, object = false;
};

/// One `objdump -t` line: "VALUE FLAGS SECTION\tSIZE [.hidden] NAME".
std::optional<Symbol> symbol_line(const std::string& line) {
  const std::size_t tab = line.find('\t');
  if (tab == std::string::npos || tab < 17) return std::nullopt;
  std::istringstream left(line.substr(0, tab));
  std::string value;
  left >> value;
  if (value.empty() || value.find_first_not_of("0123456789abcdef") != std::string::npos) return std::nullopt;
  // Seven flag characters follow the value and a space.
  const std::size_t flags_at = value.size() + 1;
  if (line.size() < flags_at + 8) return std::nullopt;
  const std::string flags = line.substr(flags_at, 7);
  Symbol symbol;
  symbol.section = line.substr(flags_at + 8, tab - flags_at - 8);
  while (!symbol.section.empty() && symbol.section.front() == ' ') symbol.section.erase(0, 1);
  std::istringstream right(line.substr(tab + 1));
  std::string size, word;
  right >> size;
  while (right >> word) symbol.name = word;  // past ".hidden" and the like
  if (symbol.name.empty()) return std::nullopt;
  symbol.value = std::stoull(value, nullptr, 16);
  symbol.function = flags.find('F') != std::string::npos;
  symbol.object = flags.find('O') != std::string::npos;
  return symbol;
}

}  // namespace

std::set<std::string> own_constructor_entries(const std::vector<std::string>& lines) {
  std::multimap<std::pair<std::string, unsigned long long>, std::string> functions;  // (section, value) -> names
  std::set<std::string> own;
  struct Entry {
    std::string target;
    unsigned long long addend = 0;
  };
  std::vector<Entry> entries;
  bool in_constructors = false;
  for (const std::string& line : lines) {
    if (line.rfind("RELOCATION RECORDS FOR [", 0) == 0) {
      const std::size_t close = line.find(']');
      in_constructors = close != std::string::npos && constructor_section(line.substr(24, close - 24));
      continue;
    }
    if (auto symbol = symbol_line(line)) {
      if (symbol->function) functions.emplace(std::make_pair(symbol->section, symbol->value), symbol->name);
      if (symbol->object && constructor_section(symbol->section)) own.insert(symbol->name);
      continue;
    }
    if (!in_constructors) continue;
    // "OFFSET TYPE VALUE", VALUE a symbol or "section+0xADDEND".
    std::istringstream words(line);
    std::string offset, type, value;
    if (!(words >> offset >> type >> value) || offset.find_first_not_of("0123456789abcdef") != std::string::npos)
      continue;
    Entry entry;
    const std::size_t plus = value.find("+0x");
    entry.target = value.substr(0, plus);
    if (plus != std::string::npos) entry.addend = std::stoull(value.substr(plus + 3), nullptr, 16);
    entries.push_back(std::move(entry));
  }
  for (const auto& entry : entries) {
    // A section symbol: the functions at that place of the section; a
    // function's own name otherwise.
    std::vector<std::string> names;
    const auto [from, to] = functions.equal_range({entry.target, entry.addend});
    for (auto it = from; it != to; ++it) names.push_back(it->second);
    if (names.empty() && entry.target.rfind('.', 0) != 0) names.push_back(entry.target);
    bool compiler = false;
    for (const auto& name : names) compiler = compiler || compiler_initialiser(name);
    if (compiler) continue;
    own.insert(names.empty() ? "?" : names.front());
  }
  return own;
}

std::set<std::string> objects_with_own_constructors(const std::vector<std::string>& objects, const fs::path& objdump,
                                                    bool& failed) {
  std::map<std::string, std::vector<std::string>> lines;
  if (!objdump_each(objdump, {"-r", "-t"}, objects,
                    [&](const std::string& object, std::string_view line) { lines[object].emplace_back(line); }))
    failed = true;
  std::set<std::string> found;
  for (const auto& [object, text] : lines)
    if (!own_constructor_entries(text).empty()) found.insert(object);
  return found;
}

}  // namespace hydra::capture
