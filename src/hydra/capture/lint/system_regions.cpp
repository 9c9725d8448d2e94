// GCC's view with clang's system headers (lint/system_regions.hpp).
#include <hydra/capture/lint/system_regions.hpp>

#include <hydra/capture/lint/compiler_view.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

fs::path absolute_lexical(const fs::path& path, const fs::path& directory) {
  return (path.is_absolute() ? path : directory / path).lexically_normal();
}

/// `line` (a marker) without its flags: what follows the file's closing quote.
std::string without_flags(std::string_view line) {
  const std::size_t quote = line.rfind('"');
  return std::string(quote == std::string_view::npos ? line : line.substr(0, quote + 1));
}

}  // namespace

std::vector<std::string> include_search_list(std::string_view verbose) {
  std::vector<std::string> folders;
  bool inside = false;
  for (std::string_view line : util::split(verbose, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (util::starts_with(line, "#include <...> search starts here:")) {
      inside = true;
    } else if (util::starts_with(line, "End of search list.")) {
      inside = false;
    } else if (inside && util::starts_with(line, " ")) {
      std::string folder(line.substr(1));
      const std::string framework = " (framework directory)";
      if (folder.size() > framework.size() && folder.compare(folder.size() - framework.size(), framework.size(), framework) == 0)
        continue;
      folders.push_back(std::move(folder));
    } else if (inside) {
      inside = false;  // a report that does not follow the form: stop reading
    }
  }
  return folders;
}

std::string header_include_name(const std::string& header, const std::vector<std::string>& search,
                                const fs::path& directory) {
  const fs::path file = absolute_lexical(header, directory);
  std::string best;
  std::size_t depth = 0;
  for (const std::string& each : search) {
    const fs::path folder = absolute_lexical(each, directory);
    const fs::path relative = file.lexically_relative(folder);
    if (relative.empty() || relative.is_absolute() || *relative.begin() == "..") continue;
    const std::size_t parts = std::distance(folder.begin(), folder.end());
    if (best.empty() || parts > depth) {
      best = relative.generic_string();
      depth = parts;
    }
  }
  return best;
}

SystemRegions include_system_headers(std::string_view text, const std::vector<std::string>& search,
                                     const fs::path& directory) {
  SystemRegions out;
  bool system = false;         // the current file is a system header
  bool replacing = false;      // inside a region being replaced
  std::size_t nested = 0;      // includes entered inside it and not yet left
  for (const std::string_view line : util::split(text, '\n')) {
    const std::optional<LineMarker> marker = read_line_marker(line);
    if (replacing) {
      if (marker && marker->flags.count(1)) {
        ++nested;
      } else if (marker && marker->flags.count(2)) {
        if (nested == 0) {
          replacing = false;
          system = marker->flags.count(3) != 0;
          out.text += without_flags(line) + "\n";
        } else {
          --nested;
        }
      }
      continue;
    }
    if (marker && marker->flags.count(1) && marker->flags.count(3) && !system) {
      const std::string name = header_include_name(marker->file, search, directory);
      if (!name.empty()) {
        out.text += "#include <" + name + ">\n";
        ++out.replaced;
        replacing = true;
        nested = 0;
        continue;
      }
      out.unresolved.push_back(marker->file);
    }
    if (marker) system = marker->flags.count(3) != 0;
    out.text += std::string(line) + "\n";
  }
  if (!text.empty() && text.back() != '\n' && !out.text.empty()) out.text.pop_back();  // as the text ended
  return out;
}

}  // namespace hydra::capture
