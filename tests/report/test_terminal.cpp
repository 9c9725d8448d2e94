// The terminal table: golden output, alignment, width, colour and NO_COLOR.
#include "report/report_fixtures.hpp"

#include <hydra/error.hpp>
#include <hydra/report/report.hpp>
#include <hydra/report/text.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

using hydra::report::render_terminal;
using hydra::report::TerminalOptions;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  for (const char c : text) {
    if (c == '\n') {
      lines.push_back(line);
      line.clear();
    } else {
      line += c;
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

/// `line` split into UTF-8 code points (one terminal column each).
std::vector<std::string> code_points(const std::string& line) {
  std::vector<std::string> points;
  for (const char c : line) {
    if ((static_cast<unsigned char>(c) & 0xC0) == 0x80 && !points.empty()) {
      points.back() += c;
    } else {
      points.emplace_back(1, c);
    }
  }
  return points;
}

/// The text starting at display column `column` of `line`.
std::string from_column(const std::string& line, std::size_t column) {
  const auto points = code_points(line);
  std::string rest;
  for (std::size_t index = column; index < points.size(); ++index) rest += points[index];
  return rest;
}

std::string strip_ansi(const std::string& text) {
  std::string out;
  for (std::size_t index = 0; index < text.size(); ++index) {
    if (text[index] == '\x1b' && index + 1 < text.size() && text[index + 1] == '[') {
      index += 2;
      while (index < text.size() && text[index] != 'm') ++index;
    } else {
      out += text[index];
    }
  }
  return out;
}

/// Sets or unsets an environment variable for one scope, restoring it after.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value == nullptr) {
      unsetenv(name);
    } else {
      setenv(name, value, 1);
    }
  }
  ~ScopedEnvironment() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

/// A pseudo-terminal pair: `terminal()` is a descriptor for which isatty() is true.
class PseudoTerminal {
 public:
  PseudoTerminal() {
    controller_ = posix_openpt(O_RDWR | O_NOCTTY);
    if (controller_ >= 0 && grantpt(controller_) == 0 && unlockpt(controller_) == 0) {
      if (const char* name = ptsname(controller_)) terminal_ = open(name, O_RDWR | O_NOCTTY);
    }
  }
  ~PseudoTerminal() {
    if (terminal_ >= 0) close(terminal_);
    if (controller_ >= 0) close(controller_);
  }
  PseudoTerminal(const PseudoTerminal&) = delete;
  PseudoTerminal& operator=(const PseudoTerminal&) = delete;
  int terminal() const { return terminal_; }

 private:
  int controller_ = -1;
  int terminal_ = -1;
};

}  // namespace

TEST_CASE("render_terminal matches the golden table", "[report][golden]") {
  const auto contract = report_test::real_contract();
  SECTION("valid input") {
    // Totals come from the contract: protected-lint
    // (100*30 + 100*30 + 96*15 + 30*15) / (30 + 30 + 15 + 15) = 7890 / 90 = 87.67;
    // the table shows them as they are, with "-" for the inactive speed.
    const std::string plain = render_terminal(contract, TerminalOptions{});
    report_test::check_golden("terminal.txt", plain);
    CHECK(render_terminal(contract, TerminalOptions{}) == plain);  // deterministic
    TerminalOptions colored;
    colored.color = true;
    report_test::check_golden("terminal-color.txt", render_terminal(contract, colored));
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(render_terminal(nlohmann::json::array(), TerminalOptions{}), hydra::Error);
    CHECK_THROWS_AS(render_terminal(nlohmann::json("text"), TerminalOptions{}), hydra::Error);
  }
}

TEST_CASE("render_terminal aligns columns and fits in 100 columns", "[report]") {
  auto contract = report_test::real_contract();
  // A multi-byte name and one longer than the agent column.
  contract["rankings"][0]["agent"] = "cléan-fïx";
  contract["rankings"][2]["agent"] = "breaks-test-with-a-very-long-agent-name-that-goes-on";
  const std::string table = render_terminal(contract, TerminalOptions{});
  const auto lines = lines_of(table);
  std::size_t header_index = lines.size();
  for (std::size_t index = 0; index < lines.size(); ++index) {
    if (lines[index].find("Agent") != std::string::npos && lines[index].find("Mergeable") != std::string::npos) {
      header_index = index;
    }
  }
  const std::size_t rows = contract["rankings"].size();  // 4
  REQUIRE(header_index + rows < lines.size());
  const std::string& header = lines[header_index];
  const std::size_t total_end = hydra::report::display_width(header.substr(0, header.find("Total") + 5));
  const std::size_t mergeable_start = hydra::report::display_width(header.substr(0, header.find("Mergeable")));
  for (std::size_t row = header_index + 1; row <= header_index + rows; ++row) {
    const std::string& line = lines[row];
    CAPTURE(line);
    const auto points = code_points(line);
    REQUIRE(points.size() > mergeable_start);
    // Totals are right-aligned under "Total": a digit ends at the header's last column.
    CHECK(std::isdigit(static_cast<unsigned char>(points[total_end - 1][0])));
    CHECK(points[total_end] == " ");
    // The mergeable mark starts under "Mergeable".
    const std::string mark = from_column(line, mergeable_start);
    CHECK((mark == "yes" || mark == "NO"));
  }
  CHECK(table.find("cléan-fïx") != std::string::npos);
  CHECK(table.find("breaks-test-with-a-ve...") != std::string::npos);  // 24 columns: 21 + "..."
  // The title, the baseline line, the header and the ranking rows.
  for (std::size_t index = 0; index <= header_index + rows; ++index) {
    CAPTURE(lines[index]);
    CHECK(hydra::report::display_width(lines[index]) <= 100);
  }
}

// The real gate details are longer than a line (e.g. deletes-tests' failed
// regression gate); the renderer wraps them under the "x" mark.
TEST_CASE("render_terminal keeps gate failure lines within 100 columns", "[report]") {
  const auto lines = lines_of(render_terminal(report_test::real_contract(), TerminalOptions{}));
  for (const auto& line : lines) {
    CAPTURE(line);
    CHECK(hydra::report::display_width(line) <= 100);
  }
}

TEST_CASE("render_terminal colours only when asked and never passes escapes through", "[report]") {
  auto contract = report_test::real_contract();
  SECTION("valid input") {
    const std::string plain = render_terminal(contract, TerminalOptions{});
    TerminalOptions colored;
    colored.color = true;
    const std::string painted = render_terminal(contract, colored);
    CHECK(plain.find('\x1b') == std::string::npos);
    CHECK(painted.find("\x1b[32myes\x1b[0m") != std::string::npos);
    CHECK(painted.find("\x1b[31mNO\x1b[0m") != std::string::npos);
    CHECK(strip_ansi(painted) == plain);  // colour never changes the layout
  }
  SECTION("bad input") {
    // An agent name and a gate detail (deletes-tests' failed regression
    // gate) that try to recolour the terminal.
    contract["rankings"][1]["agent"] = "evil\x1b[31magent";
    contract["rankings"][1]["gate_failures"][0]["detail"] = "detail\x1b[2J";
    const std::string plain = render_terminal(contract, TerminalOptions{});
    CHECK(plain.find('\x1b') == std::string::npos);
    CHECK(plain.find("evil?[31magent") != std::string::npos);
  }
}

TEST_CASE("use_color follows NO_COLOR and whether the output is a terminal", "[report]") {
  ScopedEnvironment term("TERM", "xterm-256color");
  PseudoTerminal pty;
  REQUIRE(pty.terminal() >= 0);
  REQUIRE(isatty(pty.terminal()) == 1);
  SECTION("valid input") {
    ScopedEnvironment no_color("NO_COLOR", nullptr);
    CHECK(hydra::report::use_color(pty.terminal()));
  }
  SECTION("NO_COLOR set to a non-empty value disables colour") {
    ScopedEnvironment no_color("NO_COLOR", "1");
    CHECK_FALSE(hydra::report::use_color(pty.terminal()));
  }
  SECTION("an empty NO_COLOR is ignored") {
    ScopedEnvironment no_color("NO_COLOR", "");
    CHECK(hydra::report::use_color(pty.terminal()));
  }
  SECTION("TERM=dumb disables colour") {
    ScopedEnvironment no_color("NO_COLOR", nullptr);
    ScopedEnvironment dumb("TERM", "dumb");
    CHECK_FALSE(hydra::report::use_color(pty.terminal()));
  }
  SECTION("bad input") {
    // A pipe is not a terminal; neither is a closed descriptor.
    ScopedEnvironment no_color("NO_COLOR", nullptr);
    int pipe_ends[2] = {-1, -1};
    REQUIRE(pipe(pipe_ends) == 0);
    CHECK_FALSE(hydra::report::use_color(pipe_ends[1]));
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    CHECK_FALSE(hydra::report::use_color(pipe_ends[1]));
  }
}
