// Files HydraScore gives the js-node profile's test runners so that their
// JUnit names every test fully (docs/parsers.md, "JUnit XML"): a
// test-case-properties module for jest-junit that marks jest's `test.todo`
// tests (jest-junit otherwise writes them as passing), and a node --test
// reporter that is node's own JUnit reporter with each test's file as its
// classname (node's writes "test" for every test).
#pragma once

#include <filesystem>

namespace hydra::capture {

/// The file names of the helpers inside their folder.
inline constexpr const char* kJestStatusModule = "hydra-jest-status.js";
inline constexpr const char* kNodeJunitReporter = "hydra-node-junit.mjs";

/// Writes both helpers into `directory` (created when missing). Throws
/// hydra::Error when they cannot be written.
void write_runner_helpers(const std::filesystem::path& directory);

}  // namespace hydra::capture
