// The members of the project's libraries against the objects lint knows (lint/archive_members.hpp).
#include <hydra/capture/lint/archive_members.hpp>

#include <map>

#include <hydra/capture/lint/build_commands.hpp>
#include <hydra/capture/lint/compiled_inputs.hpp>
#include <hydra/error.hpp>
#include <hydra/parse/build_targets.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kHeaderSize = 60;

std::string trimmed(std::string_view text) {
  const std::size_t end = text.find_last_not_of(' ');
  return end == std::string_view::npos ? std::string() : std::string(text.substr(0, end + 1));
}

/// A decimal field of a member header; nullopt when it is none.
std::optional<std::size_t> decimal(std::string_view field) {
  const std::string text = trimmed(field);
  if (text.empty()) return std::nullopt;
  std::size_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  return value;
}

/// The name at `offset` of the GNU long-name table ("name/\n" entries).
std::string long_name(std::string_view table, std::size_t offset) {
  if (offset >= table.size()) return {};
  std::size_t end = table.find('\n', offset);
  if (end == std::string_view::npos) end = table.size();
  std::string name(table.substr(offset, end - offset));
  if (!name.empty() && name.back() == '/') name.pop_back();
  return name;
}

/// The compile commands of compile_commands.json (`output` added as `-o`),
/// with their folders as the build saw them.
std::vector<CompileCommand> database_commands(const fs::path& database) {
  std::vector<CompileCommand> commands;
  std::error_code error;
  if (!fs::is_regular_file(database, error)) return commands;
  const json entries = json::parse(util::read_file(database), nullptr, false);
  if (!entries.is_array()) return commands;
  for (const auto& entry : entries) {
    if (!entry.is_object()) continue;
    CompileCommand command;
    command.directory = entry.value("directory", std::string());
    if (entry.contains("arguments") && entry["arguments"].is_array()) {
      for (const auto& word : entry["arguments"])
        if (word.is_string()) command.arguments.push_back(word.get<std::string>());
    } else {
      command.arguments = split_command(entry.value("command", std::string()));
    }
    if (entry.contains("output") && entry["output"].is_string()) {
      command.arguments.push_back("-o");
      command.arguments.push_back(entry["output"].get<std::string>());
    }
    commands.push_back(std::move(command));
  }
  return commands;
}

/// The compiler invocations of the build's own commands (build-commands.txt).
std::vector<CompileCommand> logged_commands(const Plan& plan, const Staging& staging,
                                            const model::BuildTargets& targets) {
  const fs::path listed = staging.directory / "build-commands.txt";
  std::error_code error;
  if (!fs::is_regular_file(listed, error)) return {};
  std::vector<std::string> compilers;
  for (const auto& [language, compiler] : targets.compilers) compilers.push_back(compiler);
  std::vector<std::string> lines;
  const std::string text = util::read_file(listed);
  for (const auto line : util::split(text, '\n'))
    if (!line.empty()) lines.emplace_back(line);
  return compiler_invocations(lines, compilers, plan.seen(plan.build_dir));
}

}  // namespace

ArchiveListing list_archive(std::string_view bytes) {
  ArchiveListing listing;
  if (bytes.substr(0, 8) == "!<thin>\n") {
    listing.thin = true;
  } else if (bytes.substr(0, 8) != "!<arch>\n") {
    listing.problem = "not an ar archive";
    return listing;
  }
  std::string_view names;  // the GNU long-name table
  std::size_t at = 8;
  while (at < bytes.size()) {
    if (bytes[at] == '\n') {  // padding
      ++at;
      continue;
    }
    if (at + kHeaderSize > bytes.size() || bytes.substr(at + 58, 2) != "`\n") {
      listing.problem = "a member header is cut short or malformed";
      return listing;
    }
    const std::string_view header = bytes.substr(at, kHeaderSize);
    const std::optional<std::size_t> size = decimal(header.substr(48, 10));
    if (!size) {
      listing.problem = "a member header has no size";
      return listing;
    }
    std::string name = trimmed(header.substr(0, 16));
    std::size_t offset = at + kHeaderSize;
    std::size_t length = *size;
    // Thin archives store only the symbol and long-name tables' bytes.
    const bool table = name == "/" || name == "/SYM64/" || name == "//" || name.rfind("__.SYMDEF", 0) == 0;
    const bool stored = !listing.thin || table;
    if (stored && offset + length > bytes.size()) {
      listing.problem = "a member is cut short";
      return listing;
    }
    if (name == "//") {
      names = bytes.substr(offset, length);
    } else if (name.rfind("#1/", 0) == 0) {  // BSD: the name opens the member's bytes
      const std::optional<std::size_t> name_size = decimal(std::string_view(name).substr(3));
      if (!name_size || *name_size > length) {
        listing.problem = "a BSD member name is malformed";
        return listing;
      }
      name = std::string(bytes.substr(offset, *name_size));
      name = name.substr(0, name.find('\0'));
      offset += *name_size;
      length -= *name_size;
    } else if (name.size() > 1 && name[0] == '/' && !table) {
      const std::optional<std::size_t> index = decimal(std::string_view(name).substr(1));
      name = index ? long_name(names, *index) : std::string();
    } else if (!name.empty() && name.back() == '/') {
      name.pop_back();
    }
    if (!table) listing.members.push_back({name, stored ? offset : 0, stored ? length : 0});
    at = (stored ? at + kHeaderSize + *size : at + kHeaderSize);
    if (stored && (*size % 2) == 1) ++at;
  }
  return listing;
}

std::set<fs::path> compiled_objects(const std::vector<CompileCommand>& commands) {
  std::set<fs::path> objects;
  for (const auto& command : commands) {
    const auto& words = command.arguments;
    for (std::size_t index = 0; index < words.size(); ++index) {
      std::string output;
      if (words[index] == "-o" && index + 1 < words.size()) output = words[index + 1];
      else if (words[index].size() > 2 && words[index].compare(0, 2, "-o") == 0) output = words[index].substr(2);
      if (output.empty()) continue;
      const fs::path file(output);
      objects.insert(util::absolute_clean(file.is_absolute() ? file : command.directory / file));
    }
  }
  return objects;
}

void check_archive_members(const Plan& plan, Staging& staging) {
  model::BuildTargets targets;
  try {
    targets = parse::parse_build_targets_file(staging.directory / "build-targets.json");
  } catch (const Error& error) {
    staging.manifest["archive_members"] = {{"problem", error.what()}};
    return;
  }
  // Every member of the static libraries, with its digest.
  struct Held {
    std::string archive, member, digest;
    std::uintmax_t size = 0;
  };
  std::vector<Held> held;
  json unknown = json::array();
  std::string listed;
  std::size_t archives = 0;
  const fs::path root = util::absolute_clean(targets.build_root);
  for (const auto& target : targets.targets) {
    if (target.type != "STATIC_LIBRARY") continue;
    for (const auto& artifact : target.artifacts) {
      const fs::path seen = util::absolute_clean(artifact);
      if (!util::is_within(seen, root)) continue;
      const std::string relative = seen.lexically_relative(root).generic_string();
      const fs::path file = plan.build_dir / relative;
      std::error_code error;
      if (!fs::is_regular_file(file, error)) continue;
      const std::string bytes = util::read_file(file);
      const ArchiveListing listing = list_archive(bytes);
      ++archives;
      if (!listing.problem.empty()) {
        unknown.push_back({{"archive", relative}, {"member", ""}, {"problem", listing.problem}});
        listed += (listed.empty() ? "" : ", ") + relative + " (" + listing.problem + ")";
        continue;
      }
      for (const ArchiveMember& member : listing.members) {
        Held each{relative, member.name, "", member.size};
        const fs::path named = file.parent_path() / member.name;  // a thin archive's member
        if (!listing.thin) {
          each.digest = util::sha256_hex(std::string_view(bytes).substr(member.offset, member.size));
        } else if (fs::is_regular_file(named, error)) {
          each.digest = util::sha256_file(named);
          each.size = fs::file_size(named, error);
        }
        held.push_back(std::move(each));
      }
    }
  }
  // The digests of the objects lint knows, on HydraScore's side (only those
  // of a member's size are read).
  std::set<std::uintmax_t> sizes;
  for (const Held& each : held) sizes.insert(each.size);
  std::vector<CompileCommand> commands = database_commands(plan.build_dir / "compile_commands.json");
  for (auto& command : logged_commands(plan, staging, targets)) commands.push_back(std::move(command));
  std::set<std::string> known;
  for (const fs::path& object : compiled_objects(commands)) {
    const fs::path file = host_path(plan.tree_mounts, object);
    std::error_code error;
    if (fs::is_regular_file(file, error) && sizes.count(fs::file_size(file, error)))
      known.insert(util::sha256_file(file));
  }
  for (const Held& each : held) {
    if (!each.digest.empty() && known.count(each.digest)) continue;
    unknown.push_back({{"archive", each.archive}, {"member", each.member}});
    listed += (listed.empty() ? "" : ", ") + each.archive + "(" + each.member + ")";
  }
  staging.manifest["archive_members"] = {{"archives", archives}, {"members", held.size()}, {"unknown", unknown}};
  if (plan.baseline && !listed.empty())
    staging.problem("the project's libraries hold objects that no compile command lint knows wrote (code lint "
                    "never saw): " + listed);
}

}  // namespace hydra::capture
