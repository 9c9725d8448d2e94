// Test levels (docs/formulas.md, "Test cases"): a framework program's results
// are its cases, unless its cases could not be read on that side (it did not
// build, wrote no report): then it is one test named after the program. Two
// runs are compared at the level each program has on the reference side, so
// a program built on one side only is one program on both, never "added"
// cases beside a program "not run". Pure.
#pragma once

#include <string>
#include <vector>

#include <hydra/model/run.hpp>

namespace hydra::guard {

/// `tests` at the level `reference` has for each framework program:
///  - a program `reference` holds as one test (no case of it) while `tests`
///    holds its cases: the cases become one test named after the program,
///    passed when every case that ran passed and at least one did, failed
///    (the first failing case named) when one did not, skipped when none ran;
///  - a program `reference` holds as cases while `tests` holds it as one
///    test: that test stands for each of the reference's cases (its status
///    and message), as a program that fails as a whole fails each case.
/// Everything else is kept as it is, in order.
std::vector<model::TestCase> align_levels(const std::vector<model::TestCase>& reference,
                                          std::vector<model::TestCase> tests);

/// The acceptance tests' identities, as tests are labelled in evidence (a
/// ctest test by its name, any other by its identity), from the CTest tests
/// the private test patch added or touched (`run.held_out.private_tests`,
/// by program): a program whose cases the baseline's held-out run read
/// stands for its cases that the patch added (absent from the baseline's own
/// run) or changed (a result other than in the baseline's own run, on the
/// same code); a program the held-out run holds as one test (it did not
/// build with the patch, or wrote no report) and a plain ctest test stand
/// for themselves. Empty when the run has no private tests.
std::vector<std::string> private_test_identities(const model::Run& run);

/// How a test is named in evidence: ctest's by its name, others by identity.
std::string test_label(const model::TestCase& test);

}  // namespace hydra::guard
