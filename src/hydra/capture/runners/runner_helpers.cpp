// The js-node test runners' helper files (runner_helpers.hpp).
#include <hydra/capture/runners/runner_helpers.hpp>

#include <hydra/util/files.hpp>

namespace hydra::capture {

namespace {

// jest-junit requires this module and writes what it returns as the
// testcase's <properties> (JEST_JUNIT_TEST_CASE_PROPERTIES_DIR/_JSON_FILE).
constexpr const char* kJestStatus = R"(// Written by HydraScore: marks jest's todo tests, which jest-junit writes like passing ones.
module.exports = (testCase) => (testCase.status === 'todo' ? { status: 'todo' } : {});
)";

// node's own JUnit reporter (node:test/reporters, node 20.11 and later),
// fed events whose classname is the test's file relative to the working
// directory (node's reporter writes `classname ?? "test"`).
constexpr const char* kNodeJunit = R"(// Written by HydraScore: node's JUnit reporter, each test's classname its file.
import { junit } from 'node:test/reporters';
import path from 'node:path';

async function* withFiles(source) {
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.file)
      event.data.classname = path.relative(process.cwd(), event.data.file).split(path.sep).join('/');
    yield event;
  }
}

export default async function* hydraJunit(source) {
  yield* junit(withFiles(source));
}
)";

}  // namespace

void write_runner_helpers(const std::filesystem::path& directory) {
  std::filesystem::create_directories(directory);
  util::write_file_atomic(directory / kJestStatusModule, kJestStatus);
  util::write_file_atomic(directory / kNodeJunitReporter, kNodeJunit);
}

}  // namespace hydra::capture
