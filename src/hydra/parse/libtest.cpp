#include <hydra/parse/libtest.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <optional>

#include <hydra/parse/cargo_targets.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/mapped_file.hpp>
#include <hydra/util/text.hpp>
#include <hydra/util/utf8.hpp>

// cargo test's output, line by line. cargo prints a header per test binary
// ("     Running unittests src/lib.rs (target/debug/deps/x-hash)",
// "   Doc-tests x"); the binary (libtest) prints "running N tests", a result
// line per test, the failures section and "test result: ...". The tests run
// in the same process and may write anything to stdout, so every section is
// cross-checked against libtest's own counts.
namespace hydra::parse {
namespace {

using model::TestCase;
using model::TestStatus;

/// Longest message kept on a test case, in bytes.
constexpr std::size_t max_message_bytes = 500;

using util::ends_with;
using util::starts_with;

using util::trim;

/// `text` cut to at most max_message_bytes, on a UTF-8 character boundary.
std::string message_text(std::string_view text) {
  text = trim(text);
  if (text.size() > max_message_bytes) {
    std::size_t cut = max_message_bytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text = text.substr(0, cut);
  }
  return std::string(text);
}

/// `line` in quotes for a problem, cut to 200 bytes (a forged line may be long).
std::string quoted(std::string_view line) {
  constexpr std::size_t max_bytes = 200;
  if (line.size() > max_bytes) {
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
    return "\"" + std::string(line.substr(0, cut)) + "...\"";
  }
  return "\"" + std::string(line) + "\"";
}

/// The length of the UTF-8 character at `line[i]` (1 for ASCII or an invalid byte).
std::size_t character_length(std::string_view line, std::size_t i) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(line.data());
  if (bytes[i] < 0x80) return 1;
  const std::size_t length = util::utf8_sequence_length(bytes, i, line.size());
  return length == 0 ? 1 : length;
}

/// `line` without ANSI escape sequences, into `scratch`: CSI (`ESC [ ... m`,
/// as cargo colours its headers), a character set designation (`ESC ( B`, as
/// libtest ends a coloured outcome with through terminfo), or ESC and one
/// character (a whole UTF-8 character, never part of one).
std::string_view without_ansi(std::string_view line, std::string& scratch) {
  scratch.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] != '\x1b') {
      scratch += line[i++];
      continue;
    }
    ++i;
    if (i == line.size()) break;
    if (line[i] == '[') {
      ++i;
      while (i < line.size() && !(line[i] >= '@' && line[i] <= '~')) ++i;
      if (i < line.size()) ++i;
    } else if (line[i] == '(' || line[i] == ')' || line[i] == '*' || line[i] == '+') {
      ++i;
      if (i < line.size()) i += character_length(line, i);
    } else {
      i += character_length(line, i);
    }
  }
  return scratch;
}

bool parse_count(std::string_view digits, std::uint64_t& value) {
  if (digits.empty()) return false;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return error == std::errc() && end == digits.data() + digits.size();
}

/// N of "running N tests" / "running 1 test".
std::optional<std::uint64_t> running_line(std::string_view line) {
  if (!starts_with(line, "running ")) return std::nullopt;
  std::string_view rest = line.substr(8);
  const auto space = rest.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const std::string_view word = rest.substr(space + 1);
  if (word != "tests" && word != "test") return std::nullopt;
  std::uint64_t count = 0;
  if (!parse_count(rest.substr(0, space), count)) return std::nullopt;
  return count;
}

/// "test NAME ... OUTCOME": NAME (without libtest's mode suffix) and OUTCOME, or false.
bool result_line(std::string_view line, std::string_view& name, std::string_view& outcome) {
  if (!starts_with(line, "test ")) return false;
  const auto dots = line.find(" ... ", 5);
  if (dots == std::string_view::npos || dots == 5) return false;
  name = line.substr(5, dots - 5);
  outcome = line.substr(dots + 5);
  // libtest names the test's mode after its name: "tests::x - should panic",
  // a doc test's "src/lib.rs - f (line 3) - compile fail" or "- compile" (no_run).
  for (const std::string_view mode : {" - should panic", " - compile fail", " - compile"}) {
    if (ends_with(name, mode) && name.size() > mode.size()) {
      name.remove_suffix(mode.size());
      break;
    }
  }
  return true;
}

/// The status an outcome means, and a skip reason ("ignored, needs a network").
std::optional<TestStatus> status_of(std::string_view outcome, std::string_view& reason) {
  reason = {};
  if (outcome == "ok") return TestStatus::passed;
  if (outcome == "FAILED") return TestStatus::failed;
  if (outcome == "ignored") return TestStatus::skipped;
  if (starts_with(outcome, "ignored, ")) {
    reason = outcome.substr(9);
    return TestStatus::skipped;
  }
  return std::nullopt;
}

/// The counts of "test result: ok. 2 passed; 1 failed; 1 ignored; 0 measured; ...".
struct Summary {
  std::uint64_t passed = 0;
  std::uint64_t failed = 0;
  std::uint64_t ignored = 0;
};

/// The summary of a "test result:" line; nullopt when the counts cannot be read.
std::optional<Summary> summary_line(std::string_view line) {
  std::string_view rest = line.substr(12);  // after "test result:"
  const auto dot = rest.find(". ");
  if (dot == std::string_view::npos) return std::nullopt;
  rest.remove_prefix(dot + 2);
  Summary summary;
  bool passed = false;
  bool failed = false;
  bool ignored = false;
  for (const std::string_view field : util::split(rest, ';')) {
    const std::string_view item = trim(field);
    const auto space = item.find(' ');
    if (space == std::string_view::npos) continue;
    const std::string_view word = item.substr(space + 1);
    std::uint64_t value = 0;
    if (!parse_count(item.substr(0, space), value)) continue;
    if (word == "passed") passed = (summary.passed = value, true);
    if (word == "failed") failed = (summary.failed = value, true);
    if (word == "ignored") ignored = (summary.ignored = value, true);
  }
  if (!passed || !failed || !ignored) return std::nullopt;
  return summary;
}

/// The failure message of a `---- NAME stdout ----` block: the panic's message
/// (the line after "thread '...' panicked at FILE:LINE:COL:", or an older
/// libtest's "panicked at 'MESSAGE', FILE:LINE:COL", first line), else the
/// block's first line that says something ("Error: ..." of a test returning Err).
std::string failure_message(const std::vector<std::string>& block) {
  for (std::size_t i = 0; i < block.size(); ++i) {
    const std::string_view line = block[i];
    // "thread 'NAME' panicked at ...", or with a thread id (cargo 1.95): "thread 'NAME' (ID) panicked at ...".
    const auto panicked = line.find(" panicked at ");
    if (!starts_with(line, "thread '") || panicked == std::string_view::npos) continue;
    std::string_view rest = line.substr(panicked + 13);
    if (starts_with(rest, "'")) {
      rest.remove_prefix(1);
      // "MESSAGE', FILE:LINE:COL" on one line, or the message's first line.
      if (const auto close = rest.rfind("', "); close != std::string_view::npos) rest = rest.substr(0, close);
      return message_text(rest);
    }
    for (std::size_t next = i + 1; next < block.size(); ++next)
      if (!trim(block[next]).empty()) return message_text(block[next]);
    return {};
  }
  for (const std::string& line : block) {
    const std::string_view text = trim(line);
    if (text.empty() || starts_with(text, "note: ") || text == "stack backtrace:") continue;
    return message_text(text);
  }
  return {};
}

/// One test binary's output, from "running N tests" on.
struct Section {
  std::string suite;   ///< as cargo's header names it
  std::uint64_t announced = 0;
  std::uint64_t results = 0;
  Summary seen;
  std::map<std::string, std::size_t, std::less<>> names;  ///< name -> index of its test in the result
  /// After libtest's first "failures:" line: captured output and the list of
  /// failed tests, no result lines.
  bool in_failures = false;
};

class LibtestReader {
 public:
  LibtestReader(std::string_view log, const std::string& source_name) : log_(log), source_name_(source_name) {}

  LibtestResult read() {
    util::require_text(log_, source_name_);
    std::string scratch;
    for (std::string_view line : util::split(log_, '\n')) {
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.find('\x1b') != std::string_view::npos) line = without_ansi(line, scratch);
      read_line(line);
    }
    if (section_) unfinished();
    return std::move(result_);
  }

 private:
  void read_line(std::string_view line) {
    if (const auto header = cargo_header(line)) {
      if (section_) unfinished();
      suite_ = packages_.suite_of(*header);
      seen_header_ = true;
      return;
    }
    // cargo's JSON messages (--message-format=json) come before it runs any
    // test binary; later lines are the tests' own output.
    if (!seen_header_ && !line.empty() && line.front() == '{') {
      packages_.read_message(line);
      return;
    }
    if (const auto announced = running_line(line)) {
      if (section_) unfinished();
      section_.emplace();
      section_->suite = suite_;
      section_->announced = *announced;
      return;
    }
    if (starts_with(line, "test result:")) {
      summary(line);
      return;
    }
    if (!section_) {
      std::string_view name;
      std::string_view outcome;
      if (result_line(line, name, outcome))
        problem(suite_, quoted(line) + " outside a test binary's output");
      return;
    }
    if (section_->in_failures) {
      failures_line(line);
      return;
    }
    if (line == "failures:") {
      section_->in_failures = true;
      return;
    }
    std::string_view name;
    std::string_view outcome;
    if (!result_line(line, name, outcome)) return;
    std::string_view reason;
    const auto status = status_of(outcome, reason);
    if (!status) {
      problem(section_->suite, quoted(line) + " is not a result libtest prints");
      return;
    }
    ++section_->results;
    if (*status == TestStatus::passed) ++section_->seen.passed;
    if (*status == TestStatus::failed) ++section_->seen.failed;
    if (*status == TestStatus::skipped) ++section_->seen.ignored;
    if (!section_->names.emplace(name, result_.tests.size()).second) {
      problem(section_->suite, quoted(name) + " has more than one result");
      return;
    }
    TestCase test;
    test.suite = section_->suite;
    test.name = std::string(name);
    test.status = *status;
    test.message = message_text(reason);
    result_.tests.push_back(std::move(test));
  }

  /// A line of the failures section: "---- NAME stdout ----" starts a
  /// failure's captured output; the list of failed tests follows a second
  /// "failures:" line.
  void failures_line(std::string_view line) {
    if (starts_with(line, "---- ") && ends_with(line, " stdout ----") && line.size() > 17) {
      finish_block();
      block_name_ = std::string(line.substr(5, line.size() - 17));
      in_block_ = true;
      return;
    }
    if (line == "failures:") {
      finish_block();
      return;
    }
    if (in_block_ && block_.size() < max_block_lines) block_.emplace_back(line);
  }

  /// Gives the failed test the message of the block just read.
  void finish_block() {
    if (!in_block_) return;
    in_block_ = false;
    if (const auto found = section_->names.find(block_name_); found != section_->names.end()) {
      TestCase& test = result_.tests[found->second];
      if (test.status == TestStatus::failed && test.message.empty()) test.message = failure_message(block_);
    }
    block_.clear();
  }

  void summary(std::string_view line) {
    if (!section_) {
      problem(suite_, quoted(line) + " without \"running N tests\" before it");
      return;
    }
    finish_block();
    Section& section = *section_;
    if (section.results != section.announced)
      problem(section.suite, std::to_string(section.results) + " results for " + running_text(section.announced));
    const auto said = summary_line(line);
    if (!said) {
      problem(section.suite, quoted(line) + " is not a summary libtest prints");
    } else if (said->passed != section.seen.passed || said->failed != section.seen.failed ||
               said->ignored != section.seen.ignored) {
      problem(section.suite, "\"test result:\" says " + counts(*said) + ", the result lines say " + counts(section.seen));
    }
    without_lines(section);
    section_.reset();
  }

  /// "running N tests" as libtest prints it.
  static std::string running_text(std::uint64_t count) {
    return "\"running " + std::to_string(count) + (count == 1 ? " test\"" : " tests\"");
  }

  static std::string counts(const Summary& summary) {
    return std::to_string(summary.passed) + " passed, " + std::to_string(summary.failed) + " failed, " +
           std::to_string(summary.ignored) + " ignored";
  }

  /// The open section ends without "test result:" (the binary crashed or
  /// exited, or a line was forged).
  void unfinished() {
    finish_block();
    problem(section_->suite, "no \"test result:\" line after " + running_text(section_->announced) +
                                 " (the test binary crashed or exited early)");
    without_lines(*section_);
    section_.reset();
  }

  /// A doc test's name carries its line ("src/lib.rs - add (line 3)"), which
  /// moves when lines are added above it: its identity leaves the line out.
  /// The doc tests of one item keep apart in line order: the first is
  /// "src/lib.rs - add", the next "src/lib.rs - add #2", and so on. The name
  /// as printed stays the test's `selector` (what a rerun selects it by).
  void without_lines(const Section& section) {
    std::map<std::string, std::vector<std::pair<unsigned long, std::size_t>>> items;  // name without line -> (line, test)
    for (const auto& [name, index] : section.names) {
      unsigned long line = 0;
      const std::string_view item = without_doc_test_line(name, line);
      if (item.size() != name.size()) items[std::string(item)].emplace_back(line, index);
    }
    for (auto& [item, tests] : items) {
      std::sort(tests.begin(), tests.end());
      for (std::size_t k = 0; k < tests.size(); ++k) {
        TestCase& test = result_.tests[tests[k].second];
        test.selector = test.name;
        test.name = k == 0 ? item : item + " #" + std::to_string(k + 1);
      }
    }
  }

  void problem(const std::string& suite, std::string text) {
    result_.problems.push_back((suite.empty() ? source_name_ : suite) + ": " + std::move(text));
  }

  std::string_view log_;
  const std::string& source_name_;
  LibtestResult result_;
  std::string suite_;  ///< the suite the last cargo header named
  CargoPackages packages_;    ///< the test binaries' packages, from cargo's JSON messages
  bool seen_header_ = false;  ///< a cargo header was read (JSON messages end before it)
  std::optional<Section> section_;
  bool in_block_ = false;
  std::string block_name_;
  std::vector<std::string> block_;  ///< the first lines of the current failure block
  /// The message is near the top of a block; a test's long output is not kept.
  static constexpr std::size_t max_block_lines = 200;
};

}  // namespace

LibtestResult parse_libtest(std::string_view log, const std::string& source_name) {
  return LibtestReader(log, source_name).read();
}

LibtestResult parse_libtest_file(const std::filesystem::path& file) {
  const util::MappedFile log(file);
  return parse_libtest(log.text(), file.string());
}

}  // namespace hydra::parse
