// The output sink of run_process (process_output.hpp).
#include <hydra/util/process_output.hpp>

namespace hydra::util {

OutputSink::OutputSink(const ProcessRequest& request, std::string& tail) : request_(request), tail_(tail) {
  if (request.output_file) {
    file_ = FileDescriptor(::open(request.output_file->c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!file_.valid()) throw Error(system_message("cannot write " + request.output_file->string(), errno));
  }
}

void OutputSink::append(std::string_view bytes) {
  write_to_file(bytes);
  keep_tail(bytes);
  if (request_.on_line) {
    partial_line_.append(bytes);
    std::size_t start = 0;
    for (std::size_t newline = partial_line_.find('\n'); newline != std::string::npos;
         newline = partial_line_.find('\n', start)) {
      request_.on_line(std::string_view(partial_line_).substr(start, newline - start));
      start = newline + 1;
    }
    partial_line_.erase(0, start);
  }
}

void OutputSink::finish() {
  if (request_.on_line && !partial_line_.empty()) request_.on_line(partial_line_);
  partial_line_.clear();
  if (tail_.size() > request_.keep_output_bytes) tail_.erase(0, tail_.size() - request_.keep_output_bytes);
}

void OutputSink::write_to_file(std::string_view bytes) {
  if (!file_.valid()) return;
  while (!bytes.empty()) {
    ssize_t written = ::write(file_.get(), bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      throw Error(system_message("cannot write " + request_.output_file->string(), errno));
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
}

void OutputSink::keep_tail(std::string_view bytes) {
  std::size_t limit = request_.keep_output_bytes;
  if (limit == 0) return;
  if (bytes.size() >= limit) {
    tail_.assign(bytes.substr(bytes.size() - limit));
    return;
  }
  tail_.append(bytes);
  // Trim in batches so long outputs do not move the buffer on every read.
  if (tail_.size() > 2 * limit) tail_.erase(0, tail_.size() - limit);
}

}  // namespace hydra::util
