// What binutils read of each object, kept by content (object_readings.hpp).
#include <hydra/capture/cmake/object_readings.hpp>

#include <array>
#include <chrono>
#include <future>
#include <set>

#include <hydra/capture/cmake/own_constructors.hpp>
#include <hydra/capture/cmake/system_calls.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

/// In every key and entry: a new number whenever what is read changes (a
/// tool's options, a reading added), so older entries are never taken.
constexpr const char* kFormat = "object readings 1";

using Lines = std::map<std::string, std::vector<std::string>>;

/// Runs `argv` + `files`, in batches; each output line "<file>: <rest>" -> rest.
Lines per_file(const std::vector<std::string>& argv, const std::vector<std::string>& files, bool& failed) {
  Lines lines;
  const std::set<std::string> known(files.begin(), files.end());
  constexpr std::size_t batch = 128;
  for (std::size_t from = 0; from < files.size(); from += batch) {
    util::ProcessRequest request;
    request.argv = argv;
    request.argv.insert(request.argv.end(), files.begin() + long(from),
                        files.begin() + long(std::min(files.size(), from + batch)));
    request.separate_stderr = true;
    request.keep_output_bytes = std::size_t(1) << 30;
    request.timeout = std::chrono::seconds(300);
    const auto ran = util::run_process(request);
    if (!ran.started || ran.exit_code != 0) failed = true;
    for (const std::string_view line : util::split(ran.output, '\n')) {
      // The file name is the longest known prefix followed by ": ".
      for (std::size_t at = line.find(": "); at != std::string_view::npos; at = line.find(": ", at + 1)) {
        const std::string file(line.substr(0, at));
        if (!known.count(file)) continue;
        lines[file].emplace_back(line.substr(at + 2));
        break;
      }
    }
  }
  return lines;
}

/// Every reading of `files`, each process on a thread of its own: none needs another.
std::map<std::string, ObjectReading> read_with_tools(const std::vector<std::string>& files, const ObjectTools& tools,
                                                     bool& failed) {
  std::array<bool, 6> part{};
  const auto lines = [&](std::vector<std::string> argv, bool& one) {
    return std::async(std::launch::async, [argv = std::move(argv), &files, &one] { return per_file(argv, files, one); });
  };
  auto symbols = lines({tools.nm.string(), "-P", "-C", "-A"}, part[0]);
  auto texts = lines({tools.strings.string(), "-d", "-f", "-n", "4"}, part[1]);
  auto mangled = lines({tools.nm.string(), "-g", "--defined-only", "-P", "-A"}, part[2]);
  auto definitions = lines({tools.nm.string(), "-g", "--defined-only", "-P", "-C", "-A"}, part[3]);
  auto issuing = std::async(std::launch::async,
                            [&] { return objects_issuing_system_calls(files, tools.objdump, part[4]); });
  const std::set<std::string> constructing = objects_with_own_constructors(files, tools.objdump, part[5]);
  Lines read_symbols = symbols.get(), read_texts = texts.get(), read_mangled = mangled.get(),
        read_definitions = definitions.get();
  const std::set<std::string> read_issuing = issuing.get();
  std::map<std::string, ObjectReading> read;
  for (const std::string& file : files) {
    ObjectReading& reading = read[file];
    reading.symbols = std::move(read_symbols[file]);
    reading.texts = std::move(read_texts[file]);
    reading.mangled = std::move(read_mangled[file]);
    reading.definitions = std::move(read_definitions[file]);
    reading.issuing = read_issuing.count(file) > 0;
    reading.constructing = constructing.count(file) > 0;
  }
  for (const bool one : part) failed = failed || one;
  return read;
}

/// The tools' identities, or empty when one cannot be identified (nothing is then kept).
std::string tools_identity(const ObjectTools& tools) {
  std::string identity = std::string(kFormat) + "\n";
  for (const fs::path& tool : {tools.nm, tools.strings, tools.objdump}) {
    const std::string one = util::file_identity(tool);
    if (one.empty()) return {};
    identity += one + "\n";
  }
  return identity;
}

void encode_lines(std::string& text, const char* name, const std::vector<std::string>& lines) {
  text += std::string(name) + " " + std::to_string(lines.size()) + "\n";
  for (const std::string& line : lines) text += line + "\n";
}

/// Reads "<name> <count>\n" and that many lines from `text` at `at`.
bool decode_lines(const std::string& text, std::size_t& at, const char* name, std::vector<std::string>& lines) {
  const std::size_t end = text.find('\n', at);
  if (end == std::string::npos) return false;
  const std::string header = text.substr(at, end - at);
  const std::string prefix = std::string(name) + " ";
  if (header.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string count_text = header.substr(prefix.size());
  if (count_text.empty() || count_text.size() > 9 ||
      count_text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  const std::size_t count = std::stoul(count_text);
  at = end + 1;
  for (std::size_t index = 0; index < count; ++index) {
    const std::size_t line_end = text.find('\n', at);
    if (line_end == std::string::npos) return false;
    lines.push_back(text.substr(at, line_end - at));
    at = line_end + 1;
  }
  return true;
}

/// The kept readings: one file per key, "<format> <sha256 of payload>\n"
/// then the payload, written atomically; a hit refreshes its time.
class KeptReadings {
 public:
  KeptReadings(fs::path directory, std::uint64_t max_bytes) : directory_(std::move(directory)), max_bytes_(max_bytes) {}

  std::optional<ObjectReading> load(const std::string& key) const {
    const fs::path file = file_of(key);
    std::error_code error;
    if (!fs::is_regular_file(file, error)) return std::nullopt;
    std::string bytes;
    try {
      bytes = util::read_file(file);
    } catch (const Error&) {
      return std::nullopt;
    }
    const std::size_t header_end = bytes.find('\n');
    const std::string header = std::string(kFormat) + " ";
    std::optional<ObjectReading> reading;
    if (header_end == header.size() + 64 && bytes.compare(0, header.size(), header) == 0) {
      const std::string payload = bytes.substr(header_end + 1);
      if (bytes.compare(header.size(), 64, util::sha256_hex(payload)) == 0) reading = decode_object_reading(payload);
    }
    if (reading) fs::last_write_time(file, fs::file_time_type::clock::now(), error);
    else fs::remove(file, error);  // corrupt: a miss, and the next store replaces it
    return reading;
  }

  /// Never throws: a reading not kept is read again next time.
  void store(const std::string& key, const ObjectReading& reading) const {
    const std::string payload = encode_object_reading(reading);
    try {
      const fs::path file = file_of(key);
      fs::create_directories(file.parent_path());
      util::write_file_atomic(file, std::string(kFormat) + " " + util::sha256_hex(payload) + "\n" + payload);
    } catch (const std::exception&) {
    }
  }

  void trim() const { util::trim_oldest_files(directory_, max_bytes_); }

 private:
  fs::path file_of(const std::string& key) const { return directory_ / key.substr(0, 2) / key; }
  fs::path directory_;
  std::uint64_t max_bytes_;
};

}  // namespace

bool ObjectReading::operator==(const ObjectReading& other) const {
  return symbols == other.symbols && texts == other.texts && mangled == other.mangled &&
         definitions == other.definitions && issuing == other.issuing && constructing == other.constructing;
}

std::string encode_object_reading(const ObjectReading& reading) {
  std::string text = std::string(kFormat) + "\n";
  text += std::string("issuing ") + (reading.issuing ? "1" : "0") + "\n";
  text += std::string("constructing ") + (reading.constructing ? "1" : "0") + "\n";
  encode_lines(text, "symbols", reading.symbols);
  encode_lines(text, "texts", reading.texts);
  encode_lines(text, "mangled", reading.mangled);
  encode_lines(text, "definitions", reading.definitions);
  return text;
}

std::optional<ObjectReading> decode_object_reading(const std::string& text) {
  ObjectReading reading;
  const auto flag = [&](std::size_t& at, const std::string& name, bool& value) {
    for (const char* digit : {"0", "1"}) {
      const std::string line = name + " " + digit + "\n";
      if (text.compare(at, line.size(), line) == 0) {
        value = digit[0] == '1';
        at += line.size();
        return true;
      }
    }
    return false;
  };
  const std::string format = std::string(kFormat) + "\n";
  if (text.compare(0, format.size(), format) != 0) return std::nullopt;
  std::size_t at = format.size();
  if (!flag(at, "issuing", reading.issuing) || !flag(at, "constructing", reading.constructing) ||
      !decode_lines(text, at, "symbols", reading.symbols) || !decode_lines(text, at, "texts", reading.texts) ||
      !decode_lines(text, at, "mangled", reading.mangled) ||
      !decode_lines(text, at, "definitions", reading.definitions) || at != text.size())
    return std::nullopt;
  return reading;
}

std::map<std::string, ObjectReading> read_object_files(const std::vector<std::string>& objects,
                                                       const ObjectTools& tools,
                                                       const std::optional<fs::path>& cache_dir, bool& failed,
                                                       std::uint64_t max_bytes) {
  const std::string identity = cache_dir ? tools_identity(tools) : std::string();
  std::optional<KeptReadings> kept;
  if (!identity.empty()) kept.emplace(*cache_dir / "object-readings", max_bytes);
  if (!kept) return read_with_tools(objects, tools, failed);

  std::map<std::string, ObjectReading> read;
  std::vector<std::string> missed;
  std::map<std::string, std::pair<std::string, std::string>> keys;  // object -> its identity before, key
  for (const std::string& object : objects) {
    const std::string before = util::file_identity(object);
    std::string digest;
    try {
      digest = util::sha256_file(object);
    } catch (const Error&) {
      failed = true;  // as a tool that cannot read it
      continue;
    }
    const std::string key = util::sha256_hex(identity + digest);
    if (auto reading = kept->load(key)) {
      read[object] = std::move(*reading);
      continue;
    }
    missed.push_back(object);
    keys[object] = {before, key};
  }
  if (missed.empty()) return read;
  bool tools_failed = false;
  std::map<std::string, ObjectReading> fresh = read_with_tools(missed, tools, tools_failed);
  for (auto& [object, reading] : fresh) {
    const auto& [before, key] = keys.at(object);
    // Kept only when every tool read every object, and this one is the file
    // it was when hashed (no write since: its identity holds the status-change time).
    if (!tools_failed && !before.empty() && util::file_identity(object) == before) kept->store(key, reading);
    read[object] = std::move(reading);
  }
  if (!tools_failed) kept->trim();
  failed = failed || tools_failed;
  return read;
}

}  // namespace hydra::capture
