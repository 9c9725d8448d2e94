// Where a child's merged output goes (process.hpp): the tail kept in
// memory, the full file, and whole lines to a callback. Used by run_process.
#pragma once

#include <string>
#include <string_view>

#include <hydra/util/file_descriptor.hpp>
#include <hydra/util/process.hpp>

namespace hydra::util {

class OutputSink {
 public:
  /// Opens (truncates) `request.output_file` when one is set; the tail of
  /// the output goes to `tail`.
  OutputSink(const ProcessRequest& request, std::string& tail);

  /// Takes `bytes` of output: to the file, the tail and, line by line, on_line.
  void append(std::string_view bytes);
  /// Delivers a last line that had no '\n' and trims the tail to its limit.
  void finish();

 private:
  void write_to_file(std::string_view bytes);
  void keep_tail(std::string_view bytes);

  const ProcessRequest& request_;
  std::string& tail_;
  FileDescriptor file_;
  std::string partial_line_;
};

}  // namespace hydra::util
