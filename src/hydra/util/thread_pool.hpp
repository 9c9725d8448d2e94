// Running independent pieces of work on a few threads: the one worker pool
// of the tool (parallel captures, clang-tidy per translation unit).
#pragma once

#include <cstddef>
#include <functional>

namespace hydra::util {

/// Calls `body(i)` for every i in [0, `count`), on at most `threads` threads
/// (the calling thread is one of them; 0 counts as 1). Each index is taken
/// once, in increasing order of start. When calls throw, every other call
/// still runs, and the exception of the lowest index is rethrown after all
/// have finished. When no thread can be started, the calling thread does it all.
void parallel_for(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body);

}  // namespace hydra::util
