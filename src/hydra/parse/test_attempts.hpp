// Several runs of the same tests on the same code, merged into one result per
// test (docs/formulas.md, "Flaky tests"): a test that passed in every attempt
// passed, one that failed in every attempt failed, and one that failed in one
// attempt and passed in another is *flaky*. Pure. The same rule serves every
// level a test has an identity at: a ctest test, a test of another runner, a
// case of a test program (each rerun of a program is an attempt of its cases).
#pragma once

#include <vector>

#include <hydra/model/test.hpp>

namespace hydra::parse {

/// Whether `status` counts as a failure in an attempt (failed or error).
/// Skipped and disabled attempts neither pass nor fail.
bool failed_attempt(model::TestStatus status) noexcept;

/// Whether `test` passed in one attempt and failed in another on the same
/// code (TestCase::attempts).
bool is_flaky(const model::TestCase& test) noexcept;

/// The attempts of `test` as a list: TestCase::attempts, or its own result
/// when it ran once.
std::vector<model::TestAttempt> attempts_of(const model::TestCase& test);

/// The tests of `first` (the run's first attempt: every test it ran) with the
/// results of the `later` attempts merged in, per identity (`id()`; the k-th
/// occurrence of an identity in an attempt is the k-th of `first`). A test
/// `later` attempts ran that `first` did not is not a test of the run and is
/// left out. A test run more than once gets every attempt in `attempts`, in
/// order, and the status:
///  - passed in some attempt and failed (or errored) in another: `passed`,
///    with the first failure's message (flaky: is_flaky() is true);
///  - otherwise: the first attempt's status and message, except that a test
///    skipped first and passed later passed.
/// Durations stay the first attempt's.
std::vector<model::TestCase> merge_attempts(std::vector<model::TestCase> first,
                                            const std::vector<std::vector<model::TestCase>>& later);

/// The tests of `merged` (merge_attempts' result) that failed or errored in
/// every attempt so far: the ones a rerun runs again.
std::vector<const model::TestCase*> never_passed(const std::vector<model::TestCase>& merged);

}  // namespace hydra::parse
