// The lint cache (lint/cache.hpp): unit keys, path placeholders and the
// verified, atomically written entry files.
#include <hydra/capture/lint/cache.hpp>

#include <algorithm>
#include <cstdlib>
#include <set>

#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::string_view entry_magic = "hydra-lint-cache/1";

using util::starts_with;

std::string replace_all(std::string_view text, const std::string& from, const std::string& to) {
  if (from.empty()) return std::string(text);
  std::string out;
  out.reserve(text.size());
  std::size_t start = 0;
  while (true) {
    const std::size_t found = text.find(from, start);
    if (found == std::string_view::npos) break;
    out.append(text.substr(start, found - start));
    out += to;
    start = found + from.size();
  }
  out.append(text.substr(start));
  return out;
}

/// The files a preprocessed unit names in its line markers (`# 12 "path" 1`).
std::set<std::string> marker_files(std::string_view preprocessed) {
  std::set<std::string> files;
  for (const std::string_view line : util::split(preprocessed, '\n')) {
    if (line.size() < 5 || line[0] != '#' || line[1] != ' ') continue;
    const std::size_t open = line.find('"');
    if (open == std::string_view::npos) continue;
    std::string name;
    std::size_t i = open + 1;
    for (; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) ++i;
      name += line[i];
    }
    if (i < line.size() && !name.empty() && name.front() != '<') files.insert(name);
  }
  return files;
}

}  // namespace

PathRoots::PathRoots(const std::vector<fs::path>& roots) {
  // Placeholders follow the order of the roots as given, so two trees of
  // the same layout write the same text.
  std::set<std::string> seen;
  const auto add = [&](const std::string& text, const std::string& placeholder) {
    if (text.size() <= 1 || !seen.insert(text).second) return;  // never "/"
    roots_.emplace_back(text, placeholder);
  };
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (roots[i].empty()) continue;
    add(util::absolute_clean(roots[i]).string(), "@@HYDRA_TREE_" + std::to_string(i) + "@@");
    std::error_code error;
    const fs::path resolved = fs::weakly_canonical(roots[i], error);
    if (!error) add(resolved.string(), "@@HYDRA_TREE_" + std::to_string(i) + "_RESOLVED@@");
  }
  // Longest first: a build tree inside the source tree keeps its own placeholder.
  std::stable_sort(roots_.begin(), roots_.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
}

std::string PathRoots::normalize(std::string_view text) const {
  std::string out(text);
  for (const auto& [root, placeholder] : roots_) out = replace_all(out, root, placeholder);
  return out;
}

std::string PathRoots::restore(std::string_view text) const {
  std::string out(text);
  for (const auto& [root, placeholder] : roots_) out = replace_all(out, placeholder, root);
  return out;
}

std::vector<std::string> split_command(std::string_view command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (quote == '\'') {
      if (c == '\'') quote = 0;
      else word += c;
    } else if (quote == '"') {
      if (c == '"') quote = 0;
      else if (c == '\\' && i + 1 < command.size() && std::string_view("\"\\$`\n").find(command[i + 1]) != std::string_view::npos)
        word += command[++i];
      else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < command.size()) {
      word += command[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

std::map<fs::path, CompileCommand> compile_commands_by_file(const json& database) {
  std::map<fs::path, CompileCommand> commands;
  if (!database.is_array()) return commands;
  for (const auto& entry : database) {
    if (!entry.is_object() || !entry.contains("file") || !entry["file"].is_string()) continue;
    CompileCommand command;
    if (entry.contains("directory") && entry["directory"].is_string())
      command.directory = entry["directory"].get<std::string>();
    fs::path file = entry["file"].get<std::string>();
    if (file.is_relative()) file = command.directory / file;
    command.file = util::absolute_clean(file);
    if (entry.contains("arguments") && entry["arguments"].is_array()) {
      for (const auto& argument : entry["arguments"])
        if (argument.is_string()) command.arguments.push_back(argument.get<std::string>());
    } else if (entry.contains("command") && entry["command"].is_string()) {
      command.arguments = split_command(entry["command"].get<std::string>());
    }
    if (command.arguments.empty()) continue;
    const auto [found, added] = commands.emplace(command.file, command);
    if (!added) found->second.several = true;
  }
  return commands;
}

std::vector<std::string> preprocess_arguments(const CompileCommand& command) {
  static const std::set<std::string> with_value = {"-o", "-MF", "-MT", "-MQ"};
  static const std::set<std::string> alone = {"-c", "-MD", "-MMD", "-M", "-MM", "-MG", "-MP", "-S", "-E", "-C", "-CC"};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < command.arguments.size(); ++i) {
    const std::string& argument = command.arguments[i];
    if (i > 0 && with_value.count(argument)) {
      ++i;
      continue;
    }
    if (i > 0 && (alone.count(argument) || (starts_with(argument, "-o") && argument.size() > 2) ||
                  starts_with(argument, "-MF") || starts_with(argument, "-MT") || starts_with(argument, "-MQ") ||
                  starts_with(argument, "--output")))
      continue;
    out.push_back(argument);
  }
  out.insert(out.begin() + (out.empty() ? 0 : 1), {"-E", "-C"});
  out.insert(out.end(), {"-o", "-"});
  return out;
}

std::string FileDigests::of(const fs::path& file) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = digests_.find(file);
    if (found != digests_.end()) return found->second;
  }
  std::error_code error;
  std::string digest = "missing";
  if (fs::is_regular_file(file, error)) {
    try {
      digest = util::sha256_file(file);
    } catch (const std::exception&) {
      digest = "unreadable";
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  digests_[file] = digest;
  return digest;
}

std::string tree_listing(const fs::path& source, const std::vector<fs::path>& excluded) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::recursive_directory_iterator it(source, fs::directory_options::skip_permission_denied, error), end;
       !error && it != end; it.increment(error)) {
    const fs::path path = it->path();
    std::error_code ignored;
    if (it->is_directory(ignored)) {
      const bool skip = path.filename() == ".git" ||
                        std::any_of(excluded.begin(), excluded.end(),
                                    [&](const fs::path& tree) { return util::is_within(path, tree); });
      if (skip) it.disable_recursion_pending();
      continue;
    }
    names.push_back(path.lexically_relative(source).generic_string());
  }
  std::sort(names.begin(), names.end());
  util::Sha256 digest;
  for (const auto& name : names) digest.update(name + '\n');
  return digest.hex_digest();
}

namespace {

/// A file's record in a key: its digest, and the digest of the copy
/// clang-tidy reads instead when the overlay replaces it.
json file_record(const LintKeyContext& context, FileDigests& digests, const fs::path& path) {
  json record = {{"real", digests.of(path)}};
  const auto overlaid = context.overlaid.find(path);
  if (overlaid != context.overlaid.end()) record["seen"] = digests.of(overlaid->second);
  return record;
}

/// What both keys of a unit hold: the format, clang-tidy and its settings,
/// the unit and its command with the trees' paths made placeholders.
json lint_key_base(const LintKeyContext& context, const CompileCommand& command) {
  json arguments = json::array();
  for (const auto& argument : command.arguments) arguments.push_back(context.roots.normalize(argument));
  return {{"format", entry_magic},
          {"tidy", context.tidy},
          {"settings", context.settings},
          {"file", context.roots.normalize(command.file.string())},
          {"directory", context.roots.normalize(command.directory.string())},
          {"arguments", arguments}};
}

}  // namespace

DirectLintKey direct_lint_key(const LintKeyContext& context, const CompileCommand& command) {
  FileDigests local;
  FileDigests& digests = context.digests ? *context.digests : local;
  DirectLintKey found;
  if (!context.cache) return found;
  json direct = lint_key_base(context, command);
  direct["mode"] = "direct";
  direct["unit"] = file_record(context, digests, command.file);
  direct["listing"] = context.listing;
  // The compiler's driver: an upgrade in place changes what it predefines.
  const auto compiler = util::find_program(command.arguments.front());
  direct["compiler"] = compiler ? digests.of(*compiler) : "not found";
  found.direct_key = util::sha256_hex(direct.dump());
  if (const auto entry = context.cache->load(found.direct_key)) {
    try {
      const json stored = json::parse(entry->output);
      bool same = stored.at("files").is_object();
      for (const auto& [name, record] : stored.at("files").items()) {
        if (!same) break;
        same = file_record(context, digests, context.roots.restore(name)) == record;
      }
      if (same) found.key = stored.at("key").get<std::string>();
    } catch (const json::exception&) {
      // Not a direct entry after all: preprocess.
    }
  }
  return found;
}

std::optional<std::string> preprocessed_lint_key(const LintKeyContext& context, const CompileCommand& command,
                                                 const std::string& direct_key, std::chrono::duration<double> timeout,
                                                 std::string& why_not) {
  FileDigests local;
  FileDigests& digests = context.digests ? *context.digests : local;
  util::ProcessRequest process;
  if (context.prepare) process = context.prepare(preprocess_arguments(command));
  else process.argv = preprocess_arguments(command);
  process.working_directory = command.directory;
  process.timeout = timeout;
  process.keep_output_bytes = std::size_t(1) << 31;
  process.separate_stderr = true;
  const util::ProcessResult result = util::run_process(process);
  if (!result.started || result.timed_out || result.exit_code != 0) {
    why_not = "cannot preprocess " + command.file.string() +
              (result.started ? " (exit code " + std::to_string(result.exit_code) + ")" : ": " + result.error);
    return std::nullopt;
  }
  json files = json::object();      // project files: in the key
  json read = json::object();       // every file read: in the direct entry
  read[context.roots.normalize(command.file.string())] = file_record(context, digests, command.file);
  for (const auto& name : marker_files(result.output)) {
    fs::path path(name);
    if (path.is_relative()) path = command.directory / path;
    path = util::absolute_clean(path);
    const json record = file_record(context, digests, path);
    read[context.roots.normalize(path.string())] = record;
    const bool in_project = std::any_of(context.project.begin(), context.project.end(),
                                        [&](const fs::path& tree) { return util::is_within(path, tree); });
    // System headers: their preprocessed text is in the key.
    if (in_project) files[context.roots.normalize(path.string())] = record;
  }
  json key = lint_key_base(context, command);
  key["preprocessed"] = util::sha256_hex(context.roots.normalize(result.output));
  key["files"] = files;
  const std::string digest = util::sha256_hex(key.dump());
  if (context.cache) context.cache->store(direct_key, {0, json{{"key", digest}, {"files", read}}.dump()});
  return digest;
}

std::optional<std::string> lint_unit_key(const LintKeyContext& context, const CompileCommand& command,
                                         std::chrono::duration<double> timeout, std::string& why_not) {
  // Direct mode first: the files the last preprocessing of this command read.
  const DirectLintKey direct = direct_lint_key(context, command);
  if (direct.key) return direct.key;
  return preprocessed_lint_key(context, command, direct.direct_key, timeout, why_not);
}

LintCache::LintCache(fs::path directory, std::uint64_t max_bytes)
    : directory_(std::move(directory)), max_bytes_(max_bytes) {}

fs::path LintCache::file_of(const std::string& key) const { return directory_ / key.substr(0, 2) / key; }

std::string LintCache::encode(const LintCacheEntry& entry) {
  const std::string payload = std::to_string(entry.exit_code) + "\n" + entry.output;
  return std::string(entry_magic) + " " + util::sha256_hex(payload) + "\n" + payload;
}

std::optional<LintCacheEntry> LintCache::decode(std::string_view bytes) {
  const std::size_t header_end = bytes.find('\n');
  if (header_end == std::string_view::npos) return std::nullopt;
  const std::string_view header = bytes.substr(0, header_end);
  const std::string_view payload = bytes.substr(header_end + 1);
  if (header.size() != entry_magic.size() + 1 + 64 || !starts_with(header, entry_magic) ||
      header[entry_magic.size()] != ' ')
    return std::nullopt;
  if (header.substr(entry_magic.size() + 1) != util::sha256_hex(payload)) return std::nullopt;
  const std::size_t code_end = payload.find('\n');
  if (code_end == std::string_view::npos || code_end == 0 || code_end > 11) return std::nullopt;
  const std::string code(payload.substr(0, code_end));
  char* end = nullptr;
  const long value = std::strtol(code.c_str(), &end, 10);
  if (end != code.c_str() + code.size()) return std::nullopt;
  LintCacheEntry entry;
  entry.exit_code = static_cast<int>(value);
  entry.output = std::string(payload.substr(code_end + 1));
  return entry;
}

std::optional<LintCacheEntry> LintCache::load(const std::string& key) const {
  if (held_) {
    std::lock_guard lock(held_->mutex);
    if (const auto found = held_->entries.find(key); found != held_->entries.end()) return decode(found->second);
  }
  const fs::path file = file_of(key);
  std::error_code error;
  if (fs::is_regular_file(file, error)) {
    std::string bytes;
    try {
      bytes = util::read_file(file);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (auto entry = decode(bytes)) {
      fs::last_write_time(file, fs::file_time_type::clock::now(), error);
      return entry;
    }
    fs::remove(file, error);  // corrupt: a miss, and the next store replaces it
  }
  if (!shared_) return std::nullopt;
  // The shared cache's entries verify twice: as shared entries (their
  // digest), and as lint entries (decode).
  const auto bytes = shared_->get("lint/" + key);
  if (!bytes) return std::nullopt;
  auto entry = decode(*bytes);
  if (entry) store_locally(key, *bytes);
  return entry;
}

bool LintCache::store_locally(const std::string& key, const std::string& bytes) const {
  try {
    const fs::path file = file_of(key);
    fs::create_directories(file.parent_path());
    util::write_file_atomic(file, bytes);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

bool LintCache::store(const std::string& key, const LintCacheEntry& entry) const {
  std::string bytes = encode(entry);
  if (held_) {
    std::lock_guard lock(held_->mutex);
    held_->entries[key] = std::move(bytes);
    return true;
  }
  if (shared_) shared_->put("lint/" + key, bytes);  // nothing for a reader
  return store_locally(key, bytes);
}

void LintCache::hold_stores(std::shared_ptr<HeldStores> held) const { held_ = std::move(held); }

void LintCache::release_stores(bool keep) const {
  if (!held_) return;
  std::map<std::string, std::string> entries;
  {
    std::lock_guard lock(held_->mutex);
    entries.swap(held_->entries);
  }
  held_.reset();
  if (!keep) return;
  for (const auto& [key, bytes] : entries) {
    if (shared_) shared_->put("lint/" + key, bytes);
    store_locally(key, bytes);
  }
}

std::size_t LintCache::trim() const { return util::trim_oldest_files(directory_, max_bytes_); }

}  // namespace hydra::capture
