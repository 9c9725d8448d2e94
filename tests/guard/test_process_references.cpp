// Tests for guard/process_references.hpp: the catalogue's matching of an
// object's symbols and strings, and the comparison with the baseline.
#include <catch2/catch.hpp>

#include <hydra/error.hpp>
#include <hydra/guard/process_references.hpp>

namespace guard = hydra::guard;
using Set = std::set<std::string>;

TEST_CASE("exit, signal and terminate handlers are found among undefined symbols", "[guard]") {
  const auto found = guard::catalogue_references(
      {"atexit", "_exit", "std::set_terminate(void (*)())", "sigaction", "on_exit@GLIBC_2.2.5", "getppid",
       "program_invocation_short_name"},
      {});
  CHECK(found == Set{"_exit", "atexit", "getppid", "on_exit", "program_invocation_short_name", "sigaction",
                     "std::set_terminate"});
}

TEST_CASE("ending the process past main, lookups by name and the own thread's name are references", "[guard]") {
  const auto found = guard::catalogue_references(
      {"pthread_exit@GLIBC_2.2.5", "thrd_exit", "dlopen", "dlsym", "dlvsym", "dlmopen", "pthread_getname_np",
       "pthread_kill", "pthread_create", "pthread_self", "dlerror"},
      {});
  CHECK(found == Set{"dlmopen", "dlopen", "dlsym", "dlvsym", "pthread_exit", "pthread_getname_np", "pthread_kill",
                     "thrd_exit"});
  CHECK(guard::reference_category("pthread_exit") == "process end");
  CHECK(guard::reference_category("dlsym") == "dynamic lookup");
  CHECK(guard::reference_category("pthread_getname_np") == "self-inspection");
}

TEST_CASE("a C++ static's destructor and common calls are not references", "[guard]") {
  CHECK(guard::catalogue_references({"__cxa_atexit", "__cxa_thread_atexit_impl", "getenv", "abort", "getpid",
                                     "std::terminate()", "printf", "std::exit_code_helper()", "operator new(unsigned long)"},
                                    {})
            .empty());
}

TEST_CASE("procfs, control groups and mount tables are found in strings, machine descriptions are not", "[guard]") {
  CHECK(guard::catalogue_references({}, {"/proc/self/mountinfo"}) == Set{"/proc/self/mountinfo"});
  CHECK(guard::catalogue_references({}, {"/proc/1/comm"}) == Set{"/proc/1/comm"});
  CHECK(guard::catalogue_references({}, {"/proc/%d/cmdline"}) == Set{"/proc/%d/cmdline"});
  CHECK(guard::catalogue_references({}, {"cat /sys/fs/cgroup/cgroup.procs"}) == Set{"/sys/fs/cgroup/cgroup.procs"});
  CHECK(guard::catalogue_references({}, {"/etc/mtab"}) == Set{"/etc/mtab"});
  CHECK(guard::catalogue_references({}, {"/proc/cpuinfo", "/proc/meminfo", "/proc/sys/kernel/pid_max"}).empty());
  CHECK(guard::catalogue_references({}, {"/processing/queue", "see /procedures"}).empty());
}

TEST_CASE("a harness's variables and names are found in strings", "[guard]") {
  CHECK(guard::catalogue_references({}, {"GTEST_OUTPUT", "XML_OUTPUT_FILE", "TEST_PREMATURE_EXIT_FILE"}) ==
        Set{"GTEST_OUTPUT", "TEST_PREMATURE_EXIT_FILE", "XML_OUTPUT_FILE"});
  CHECK(guard::catalogue_references({}, {".HydraScore-held-out"}) == Set{"hydra"});
  CHECK(guard::catalogue_references({}, {"/usr/bin/bwrap"}) == Set{"bwrap"});
  // The files a build tree and ctest keep where tests run.
  CHECK(guard::catalogue_references({}, {"CTestTestfile.cmake", "../../CMakeCache.txt"}) ==
        Set{"ctesttestfile", "cmakecache.txt"});
  CHECK(guard::catalogue_references({}, {"Testing/Temporary/LastTest.log", "DartConfiguration.tcl"}) ==
        Set{"testing/temporary", "dartconfiguration"});
  CHECK(guard::reference_category("ctesttestfile") == "test harness");
  // A word that merely contains a generic prefix is not a harness variable.
  CHECK(guard::catalogue_references({}, {"MY_TEST_FLAG", "UNIT_TEST_MODE"}).empty());
}

TEST_CASE("a harness's variable is found past a leading character or inside a word", "[guard]") {
  // getenv(&"~CTEST_INTERACTIVE_DEBUG_MODE"[1]): the name from its second character on.
  CHECK(guard::catalogue_references({}, {"~CTEST_INTERACTIVE_DEBUG_MODE"}) == Set{"CTEST_INTERACTIVE_DEBUG_MODE"});
  CHECK(guard::catalogue_references({}, {"the GTEST_OUTPUT is"}) == Set{"GTEST_OUTPUT"});
  CHECK(guard::catalogue_references({}, {"=TEST_TMPDIR"}) == Set{"TEST_TMPDIR"});
  // Distinctive names inside a longer word too; a generic one only where a word starts.
  CHECK(guard::catalogue_references({}, {"xCTEST_OUTPUT_ON_FAILURE"}) == Set{"CTEST_OUTPUT_ON_FAILURE"});
  CHECK(guard::catalogue_references({}, {"xTEST_TMPDIR"}).empty());
  CHECK(guard::reference_category("CTEST_INTERACTIVE_DEBUG_MODE") == "test harness");
}

TEST_CASE("process groups, sessions and limits are self-inspection but sysconf is not flagged", "[guard]") {
  CHECK(guard::catalogue_references({"getsid", "getpgid", "getpgrp", "getrlimit", "prlimit64", "sysconf",
                                     "sched_getaffinity"},
                                    {}) == Set{"getpgid", "getpgrp", "getrlimit", "getsid", "prlimit64"});
  CHECK(guard::reference_category("getrlimit") == "self-inspection");
}

TEST_CASE("a definition of what the C or C++ runtime exports interposes it but operator new is a replacement",
          "[guard]") {
  const std::set<std::string> exports = {"strlen", "write", "memcmp", "_Znwm", "_ZdlPv", "_ZSt9terminatev",
                                         "_ZNSt6vectorIiSaIiEE9push_backERKi", "environ"};
  const auto found = guard::interposed_definitions(
      {{"strlen", true},
       {"memcmp", false},                                   // a weak C definition interposes too
       {"_Znwm", true},                                     // operator new(unsigned long): a replacement
       {"_ZdlPv", true},                                    // operator delete(void*)
       {"_ZSt9terminatev", true},                           // std::terminate(), strong
       {"_ZNSt6vectorIiSaIiEE9push_backERKi", true},        // a template: headers instantiate it
       {"_Z5writeiPKvm", true},                             // a C++ function named write: no interposer
       {"count_lines", true}},
      exports);
  CHECK(found == Set{"interposes memcmp", "interposes std::terminate()", "interposes strlen"});
  CHECK(guard::interposed_definitions({{"_ZSt9terminatev", false}}, exports).empty());
  CHECK(guard::reference_category("interposes strlen") == "interposes a C or C++ runtime function");
  CHECK(guard::demangle("_Znwm") == "operator new(unsigned long)");
  CHECK(guard::demangle("strlen") == "strlen");
}

TEST_CASE("code defining what the tests define is named, unless the toolchain's or its own namespace shares it",
          "[guard]") {
  CHECK(guard::top_scope("void textstats_test::check_equal<unsigned long, unsigned int>") == "textstats_test");
  CHECK(guard::top_scope("guard variable for harness::tally") == "harness");
  CHECK(guard::top_scope("unsigned long const& std::max<unsigned long>") == "std");
  CHECK(guard::top_scope("operator new") == "");
  const std::set<std::string> tests = {"void harness::check<int, int>",
                                       "harness::failed_checks",
                                       "lib::Counts::~Counts",
                                       "std::vector<int, std::allocator<int> >::push_back",
                                       "operator new",
                                       "global_tally",
                                       "main"};
  const auto found = guard::harness_definitions({{"void harness::check<int, int>", true, false},  // an override
                                                 {"harness::failed_checks", false, true},         // shared inline variable
                                                 {"lib::Counts::~Counts", false, false},          // its own namespace
                                                 {"std::vector<int, std::allocator<int> >::push_back", false, false},
                                                 {"operator new", false, false},  // placement new, from <new>
                                                 {"global_tally", false, true},   // a global inline variable
                                                 {"main", true, false},           // a tool's own entry
                                                 {"lib::count", true, false}},
                                                tests, {"lib"});
  CHECK(found == Set{"defines global_tally", "defines harness::failed_checks", "defines void harness::check<int, int>"});
  CHECK(guard::reference_category("defines harness::failed_checks") == "test harness");
  CHECK(guard::harness_definitions({{"harness::failed_checks", false, true}}, tests, {"harness"}).empty());
}

TEST_CASE("each flagged catalogue entry has a category and every entry says why", "[guard]") {
  for (const auto& entry : guard::process_reference_catalogue()) {
    INFO(std::string(entry.text));
    CHECK_FALSE(entry.why.empty());
  }
  CHECK(guard::reference_category("atexit") == "exit handler");
  CHECK(guard::reference_category("/proc/self/exe") == "self-inspection");
  CHECK(guard::reference_category("GTEST_OUTPUT") == "test harness");
  // A symbol only test objects define, or of a framework (no entry names it).
  CHECK(guard::reference_category("harness::failed_checks") == "test harness");
}

TEST_CASE("only references the baseline's object of the same source lacks are new", "[guard]") {
  const guard::ObjectReferences baseline = {{"src/lib.cpp", {"atexit"}}, {"src/io.cpp", {"/proc/self/exe"}}};
  const guard::ObjectReferences candidate = {{"src/lib.cpp", {"atexit", "_exit"}},
                                             {"src/io.cpp", {"/proc/self/exe"}},
                                             {"src/new.cpp", {"atexit"}}};
  const auto fresh = guard::new_references(baseline, candidate, {});
  REQUIRE(fresh.size() == 2);
  CHECK(fresh[0].source == "src/lib.cpp");
  CHECK(fresh[0].reference == "_exit");
  CHECK(fresh[0].category == "process end");
  CHECK(fresh[1].source == "src/new.cpp");
  CHECK(fresh[1].reference == "atexit");
  CHECK(guard::new_references(baseline, baseline, {}).empty());
}

TEST_CASE("the allowlist silences a reference, exactly or by a prefix ending in a star", "[guard]") {
  const guard::ObjectReferences candidate = {{"src/lib.cpp", {"atexit", "/proc/self/exe", "/proc/1/comm"}}};
  const auto fresh = guard::new_references({}, candidate, {"atexit", "/proc/self/*"});
  REQUIRE(fresh.size() == 1);
  CHECK(fresh[0].reference == "/proc/1/comm");
  CHECK(guard::new_references({}, candidate, {"atexi"}).size() == 3);
}

TEST_CASE("the program's own image, its start-up stack and the time it was compiled are references", "[guard]") {
  const auto found = guard::catalogue_references({"__executable_start", "_end", "__libc_stack_end", "mincore", "end"},
                                                 {});
  // The bare `end` is left out: a C function may be called so.
  CHECK(found == Set{"__executable_start", "__libc_stack_end", "_end", "mincore"});
  CHECK(guard::reference_category("__libc_stack_end") == "self-inspection");
  // What __DATE__ (anywhere in a string), __TIME__ (the whole string) and
  // __TIMESTAMP__ leave; a date in another form, or a time inside a longer
  // text, is not one.
  for (const std::string text : {"Nov 28 2026", "built Jan  3 2025 at", "Sat Nov 28 10:37:12 2026", "23:59:07"}) {
    INFO(text);
    CHECK(guard::catalogue_references({}, {text}) == Set{guard::kCompileTime});
  }
  for (const std::string text : {"2026-11-28", "at 10:37:12 sharp", "24:00:00", "Month 28 2026", "%H:%M:%S"})
    CHECK(guard::catalogue_references({}, {text}).empty());
  CHECK(guard::reference_category(guard::kCompileTime) == "self-inspection");
  CHECK(guard::reference_category(guard::kOwnResolver) == "process control");
}

TEST_CASE("a change whose objects could not be read, where the baseline's were, is no clean result", "[guard]") {
  const std::string problem = "nm could not read the objects of /build";
  CHECK(guard::unread_objects_reason(true, problem) ==
        "the change's objects could not be read, though the baseline's were: " + problem);
  // Read, or never scanned: nothing to say here.
  CHECK(guard::unread_objects_reason(true, "").empty());
  // The baseline's could not be read either: the project's, not the change's.
  CHECK(guard::unread_objects_reason(false, problem).empty());
}
