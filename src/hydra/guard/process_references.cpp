#include <hydra/guard/process_references.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <tuple>

#include <cxxabi.h>

#include <hydra/util/regex.hpp>
#include <hydra/util/text.hpp>

namespace hydra::guard {

namespace {

using M = ReferenceMatch;

constexpr std::string_view kExitHandler = "exit handler";
constexpr std::string_view kProcessEnd = "process end";
constexpr std::string_view kSignal = "signal or terminate handler";
constexpr std::string_view kProcess = "process control";
constexpr std::string_view kSelf = "self-inspection";
constexpr std::string_view kMounts = "mount table";
constexpr std::string_view kHarness = "test harness";
constexpr std::string_view kLookup = "dynamic lookup";
constexpr std::string_view kNone = "";
constexpr std::string_view kInterposition = "interposes a C or C++ runtime function";

/// An identifier-like character of a variable name, a path character.
bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool path_char(char c) { return word_char(c) || c == '/' || c == '.' || c == '-' || c == '%'; }

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// "std::set_terminate(void (*)())" -> "std::set_terminate"; "atexit@GLIBC_2.2.5" -> "atexit".
std::string symbol_name(std::string_view symbol) {
  const std::size_t first = symbol.find_first_not_of(' ');
  std::string name(first == std::string_view::npos ? std::string_view() : symbol.substr(first));
  while (!name.empty() && name.back() == ' ') name.pop_back();
  const std::size_t cut = std::min(name.find('('), name.find('@'));
  if (cut != std::string::npos) name.erase(cut);
  return name;
}

const CatalogueEntry* find_entry(std::string_view reference) {
  const CatalogueEntry* best = nullptr;
  for (const auto& entry : process_reference_catalogue()) {
    if (entry.match == M::definition) continue;
    const bool hit = entry.match == M::symbol ? reference == entry.text
                     : entry.match == M::word ? lower(reference) == entry.text
                                              : util::starts_with(reference, entry.text);
    if (hit && (!best || entry.text.size() > best->text.size())) best = &entry;
  }
  return best;
}

void match_string(std::string_view text, std::set<std::string>& found) {
  for (const auto& entry : process_reference_catalogue()) {
    switch (entry.match) {
      case M::symbol:
      case M::definition:
        break;
      case M::path:
        for (std::size_t at = text.find(entry.text); at != std::string_view::npos;
             at = text.find(entry.text, at + 1)) {
          std::size_t end = at + entry.text.size();
          if (end < text.size() && word_char(text[end]) && word_char(text[end - 1])) continue;  // "/process"
          while (end < text.size() && path_char(text[end])) ++end;
          const std::string path(text.substr(at, end - at));
          // The longest entry decides (/proc/cpuinfo describes the machine).
          const CatalogueEntry* decides = find_entry(path);
          if (decides && !decides->category.empty()) found.insert(path);
        }
        break;
      case M::variable:
        // Anywhere a word starts (past a leading character: "~CTEST_..."
        // read from its second character on), or inside a word for a
        // distinctive entry.
        for (std::size_t at = text.find(entry.text); at != std::string_view::npos;
             at = text.find(entry.text, at + 1)) {
          if (at > 0 && word_char(text[at - 1]) && !entry.inside_words) continue;
          std::size_t end = at;
          while (end < text.size() && word_char(text[end])) ++end;
          found.insert(std::string(text.substr(at, end - at)));
        }
        break;
      case M::word:
        if (lower(text).find(entry.text) != std::string::npos) found.insert(std::string(entry.text));
        break;
    }
  }
}

/// What the compiler emits for a class or a variable: "vtable for ", "guard
/// variable for ", ...; empty for anything else.
std::string_view special_prefix(std::string_view name) {
  for (const std::string_view special : {"guard variable for ", "typeinfo name for ", "typeinfo for ", "vtable for ",
                                         "VTT for ", "construction vtable for ", "TLS init function for ",
                                         "TLS wrapper function for "})
    if (util::starts_with(name, special)) return special;
  return {};
}

/// Whether `text` is what __DATE__ ("Nov 28 2026"), __TIME__ ("10:37:12",
/// the whole string) or __TIMESTAMP__ leave in an object.
bool compile_time_string(const std::string& text) {
  static const util::Regex date("(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ 123][0-9] (19|20)[0-9][0-9]");
  static const util::Regex time("^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$");
  static const util::Regex stamp("(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ 123][0-9] "
                                 "([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9] (19|20)[0-9][0-9]");
  return date.search(text) || time.search(text) || stamp.search(text);
}

/// What the object scan names besides symbols (an object's own system-call
/// instructions and constructors), and the program's own image: the
/// linker's bounds of its sections, read to
/// scan the test program's memory for a framework's strings or to reset
/// what the harness counted. Only loaders, allocators and collectors need
/// them. The bare `end`, `etext`, `edata` are left out (a C function may be
/// called so).
std::vector<CatalogueEntry> image_entries() {
  return {
      // Not a symbol: the object scan names an object whose own instructions
      // enter the kernel (inline assembly), past every symbol of this table.
      {M::symbol, "system call instruction", kProcess,
       "a syscall, sysenter, int $0x80 or svc instruction of its own: any system call, past every symbol of this "
       "table"},
      // Not a symbol either: the object scan names an object with an entry
      // of its own in .init_array (and the like), which the C library calls
      // with argc, argv and envp before main.
      {M::symbol, "constructor of its own", kProcess,
       "a function of its own in .init_array, .preinit_array or .fini_array: runs before or after main, and "
       "before main receives (and may rewrite) the program's arguments and environment"},
      {M::symbol, "sigqueue", kSignal, "signals a process, as kill does"},
      {M::symbol, "pthread_kill", kSignal, "signals a thread: the main thread among them"},
      {M::symbol, "__executable_start", kSelf, "where the program's image starts: a scan of its own memory"},
      {M::symbol, "__ehdr_start", kSelf, "the program's own ELF header: a scan of its own image"},
      {M::symbol, "_etext", kSelf, "where the program's code ends: a scan of its own image"},
      {M::symbol, "__etext", kSelf, "where the program's code ends: a scan of its own image"},
      {M::symbol, "_edata", kSelf, "where the program's data ends: a scan of its own image"},
      {M::symbol, "__data_start", kSelf, "where the program's data starts: a scan of its own image"},
      {M::symbol, "__bss_start", kSelf, "where the program's zeroed data starts: the harness's counters"},
      {M::symbol, "_end", kSelf, "where the program's image ends: a scan of its own memory"},
      {M::symbol, "__init_array_start", kSelf, "the program's own static constructors"},
      {M::symbol, "__init_array_end", kSelf, "the program's own static constructors"},
      {M::symbol, "__preinit_array_start", kSelf, "the program's own early constructors"},
      {M::symbol, "__fini_array_start", kSelf, "the program's own static destructors"},
      {M::symbol, "mincore", kSelf, "which pages are mapped: a scan of the program's own memory"},
      {M::symbol, "__libc_stack_end", kSelf,
       "the stack the C library started with: argv, envp and the aux vector, past getauxval and .init_array"},
      {M::symbol, "_environ", kSelf, "the whole environment"},
      // Not symbols: the object scan names a resolver of the object's own
      // (an IFUNC, run by the loader before any constructor), and the
      // strings __DATE__, __TIME__ and __TIMESTAMP__ leave.
      {M::symbol, "resolver of its own (ifunc)", kProcess,
       "a function the dynamic loader calls to pick an implementation, before any constructor or main"},
      {M::symbol, "compile time (__DATE__, __TIME__)", kSelf,
       "the time the object was compiled: code comparing it with the clock behaves one way soon after the build "
       "and another later"},
  };
}

}  // namespace

const std::vector<CatalogueEntry>& process_reference_catalogue() {
  static const std::vector<CatalogueEntry> catalogue = [] {
    std::vector<CatalogueEntry> all = {
      // Exit handlers: run after the test decided, they can rewrite the exit
      // status or the report written a moment before.
      {M::symbol, "atexit", kExitHandler, "registers code that runs after main returned"},
      {M::symbol, "at_quick_exit", kExitHandler, "registers code for quick_exit"},
      {M::symbol, "on_exit", kExitHandler, "registers code that sees the exit status"},
      {M::symbol, "__cxa_atexit", kNone, "every C++ static with a destructor registers it"},
      {M::symbol, "__cxa_thread_atexit", kNone, "every thread_local with a destructor"},
      {M::symbol, "__cxa_thread_atexit_impl", kNone, "every thread_local with a destructor"},
      // Ending the process from library code: an exit status of its choice.
      {M::symbol, "exit", kProcessEnd, "ends the test program with a status of the code's choice"},
      {M::symbol, "_exit", kProcessEnd, "ends the process at once, skipping what follows"},
      {M::symbol, "_Exit", kProcessEnd, "ends the process at once"},
      {M::symbol, "quick_exit", kProcessEnd, "ends the process with quick_exit handlers only"},
      {M::symbol, "pthread_exit", kProcessEnd,
       "from the main thread, libc ends the process with status 0 once the other threads ended: neither main's "
       "return nor an exit call"},
      {M::symbol, "thrd_exit", kProcessEnd, "C11's pthread_exit: the same from the main thread"},
      {M::symbol, "__libc_start_main", kProcessEnd, "libc's entry point that calls main: only the startup file needs it"},
      {M::symbol, "abort", kNone, "ends the process as failed: never helps a test pass"},
      {M::symbol, "std::terminate", kNone, "aborts: never helps a test pass"},
      // Signal and terminate handlers: catch the test's failure and exit otherwise.
      {M::symbol, "signal", kSignal, "installs a signal handler"},
      {M::symbol, "sigaction", kSignal, "installs a signal handler"},
      {M::symbol, "sigset", kSignal, "installs a signal handler"},
      {M::symbol, "sysv_signal", kSignal, "installs a signal handler"},
      {M::symbol, "__sysv_signal", kSignal, "installs a signal handler (what signal() may compile to)"},
      {M::symbol, "bsd_signal", kSignal, "installs a signal handler"},
      {M::symbol, "std::set_terminate", kSignal, "replaces what an uncaught exception does"},
      {M::symbol, "std::set_unexpected", kSignal, "replaces what an unexpected exception does"},
      {M::symbol, "kill", kSignal, "signals another process (the test's launcher among them)"},
      {M::symbol, "killpg", kSignal, "signals a process group"},
      {M::symbol, "tgkill", kSignal, "signals a thread of any process"},
      {M::symbol, "raise", kNone, "signals the process itself: a handler needs signal or sigaction"},
      // Processes: children outlive or replace the test, tracing reads and writes others.
      {M::symbol, "fork", kProcess, "starts a child process"},
      {M::symbol, "vfork", kProcess, "starts a child process"},
      {M::symbol, "clone", kProcess, "starts a child process or thread of its own making"},
      {M::symbol, "clone3", kProcess, "starts a child process"},
      {M::symbol, "execve", kProcess, "replaces the test program"},
      {M::symbol, "execv", kProcess, "replaces the test program"},
      {M::symbol, "execvp", kProcess, "replaces the test program"},
      {M::symbol, "execvpe", kProcess, "replaces the test program"},
      {M::symbol, "execl", kProcess, "replaces the test program"},
      {M::symbol, "execlp", kProcess, "replaces the test program"},
      {M::symbol, "execle", kProcess, "replaces the test program"},
      {M::symbol, "fexecve", kProcess, "replaces the test program"},
      {M::symbol, "execveat", kProcess, "replaces the test program"},
      {M::symbol, "posix_spawn", kProcess, "starts a program"},
      {M::symbol, "posix_spawnp", kProcess, "starts a program"},
      {M::symbol, "system", kProcess, "runs a shell command"},
      {M::symbol, "popen", kProcess, "runs a shell command"},
      {M::symbol, "daemon", kProcess, "leaves the test's process group"},
      {M::symbol, "setsid", kProcess, "leaves the test's session"},
      {M::symbol, "setpgid", kProcess, "leaves the test's process group"},
      {M::symbol, "prctl", kProcess, "renames the process, changes its parent-death signal, ..."},
      {M::symbol, "ptrace", kProcess, "reads and writes another process"},
      {M::symbol, "process_vm_writev", kProcess, "writes another process's memory"},
      {M::symbol, "syscall", kProcess, "any system call, past every symbol of this table"},
      // Dynamic lookup: a function found by a name built at run time, past
      // every symbol of this table and past interposed functions (libc's own
      // exit beside a preloaded library's). Plugin loaders use them too: an
      // allowlist entry (anti_gaming) silences a known one.
      {M::symbol, "dlopen", kLookup, "loads a library, or finds one already loaded (RTLD_NOLOAD)"},
      {M::symbol, "dlmopen", kLookup, "loads a library into a namespace of its own"},
      {M::symbol, "dlsym", kLookup, "a function by a name that may be built at run time"},
      {M::symbol, "dlvsym", kLookup, "a function of one version, by a name that may be built at run time"},
      {M::symbol, "dlinfo", kLookup, "what a loaded library is, where it lies"},
      // Self-inspection: the program's own name, its parent, its mapping.
      {M::symbol, "getppid", kSelf, "the parent: ctest, a launcher, the sandbox"},
      {M::symbol, "program_invocation_name", kSelf, "the program's own name"},
      {M::symbol, "program_invocation_short_name", kSelf, "the program's own name"},
      {M::symbol, "__progname", kSelf, "the program's own name"},
      {M::symbol, "__progname_full", kSelf, "the program's own path"},
      {M::symbol, "getauxval", kSelf, "AT_EXECFN: the program's own path"},
      {M::symbol, "dl_iterate_phdr", kSelf, "the program's own file and libraries"},
      {M::symbol, "dladdr", kSelf, "the file holding an address: the program's own"},
      {M::symbol, "dladdr1", kSelf, "the file holding an address: the program's own"},
      {M::symbol, "pthread_getname_np", kSelf, "a thread's name: the main thread's is the program's own"},
      {M::symbol, "getprogname", kSelf, "the program's own name"},
      {M::symbol, "environ", kSelf, "the whole environment, to look for a harness's variables"},
      {M::symbol, "__environ", kSelf, "the whole environment"},
      {M::symbol, "getenv", kNone, "common; the variables a harness sets are matched as strings"},
      {M::symbol, "getpid", kNone, "common (temporary names); /proc/<pid> paths are matched as strings"},
      // The process's session, group and limits: what tells a sandbox or a
      // harness's process tree from a shell's.
      {M::symbol, "getsid", kSelf, "the session: a sandbox's or a harness's own"},
      {M::symbol, "getpgid", kSelf, "the process group: the launcher's"},
      {M::symbol, "getpgrp", kSelf, "the process group: the launcher's"},
      {M::symbol, "getrlimit", kSelf, "the resource limits a harness sets (open files, address space, CPU time)"},
      {M::symbol, "getrlimit64", kSelf, "the resource limits a harness sets"},
      {M::symbol, "prlimit", kSelf, "reads or sets resource limits"},
      {M::symbol, "prlimit64", kSelf, "reads or sets resource limits"},
      {M::symbol, "sysconf", kNone, "common (page size, processor count); a weak fingerprint"},
      {M::symbol, "sched_getaffinity", kNone, "common (sizing a thread pool); a weak fingerprint"},
      {M::symbol, "getmntent", kMounts, "reads the mount table"},
      {M::symbol, "getmntent_r", kMounts, "reads the mount table"},
      {M::symbol, "setmntent", kMounts, "opens the mount table"},
      {M::symbol, "statfs", kNone, "common (free space); a file system's type is weak evidence"},
      // Paths: procfs (the process, PID 1, the mount table, control groups),
      // control groups, container markers.
      {M::path, "/proc", kSelf, "procfs: /proc/self, /proc/1, mounts, mountinfo, cmdline, comm, cgroup, environ, status"},
      {M::path, "/proc/cpuinfo", kNone, "describes the machine, not the process"},
      {M::path, "/proc/meminfo", kNone, "describes the machine, not the process"},
      {M::path, "/proc/loadavg", kNone, "describes the machine, not the process"},
      {M::path, "/proc/sys/", kNone, "kernel settings, not the process"},
      {M::path, "/sys/fs/cgroup", kSelf, "control groups: where the process is confined"},
      {M::path, "/etc/mtab", kMounts, "the mount table"},
      {M::path, "/.dockerenv", kSelf, "a container's marker"},
      {M::path, "/run/.containerenv", kSelf, "a container's marker"},
      // The harness's environment and names.
      // Matched where a word starts anywhere in a string; the distinctive
      // ones inside longer words too.
      {M::variable, "GTEST_", kHarness, "GoogleTest's variables (its report path among them)", true},
      {M::variable, "CTEST_", kHarness, "CTest's variables", true},
      {M::variable, "DASHBOARD_TEST_FROM_CTEST", kHarness, "set by ctest for every test", true},
      {M::variable, "XML_OUTPUT_FILE", kHarness, "a harness's report path", true},
      {M::variable, "TEST_", kHarness, "test runners' variables (TEST_TMPDIR, TEST_PREMATURE_EXIT_FILE, ...)"},
      {M::variable, "HYDRA", kHarness, "HydraScore's own variables", true},
      {M::word, "hydra", kHarness, "HydraScore's name and folders"},
      {M::word, "bwrap", kHarness, "the sandbox's program"},
      {M::word, "bubblewrap", kHarness, "the sandbox's program"},
      // The files a build tree and its test harness hold where tests run:
      // code looking for them asks whether it runs under ctest in a build
      // tree (a test's working directory is its own, so a plain run has them too).
      {M::word, "ctesttestfile", kHarness, "CTestTestfile.cmake: ctest's listing in a test's working directory"},
      {M::word, "dartconfiguration", kHarness, "DartConfiguration.tcl: ctest's configuration in a build tree"},
      {M::word, "ctestcostdata", kHarness, "CTestCostData.txt: ctest's record of test times"},
      {M::word, "testing/temporary", kHarness, "ctest's logs in a build tree"},
      {M::word, "cmakecache.txt", kHarness, "CMakeCache.txt: the top of a CMake build tree"},
      // Definitions of what a runtime library exports: interposing libc's
      // or the C++ runtime's function changes what every caller (the test
      // program, the harness) gets. Replacing the allocation functions is a
      // standard feature.
      {M::definition, "operator new", kNone, "a standard replacement of the global allocation function"},
      {M::definition, "operator new[]", kNone, "a standard replacement of the global allocation function"},
      {M::definition, "operator delete", kNone, "a standard replacement of the global deallocation function"},
      {M::definition, "operator delete[]", kNone, "a standard replacement of the global deallocation function"},
    };
    const auto image = image_entries();
    all.insert(all.end(), image.begin(), image.end());
    return all;
  }();
  return catalogue;
}

std::set<std::string> catalogue_references(const std::vector<std::string>& symbols,
                                           const std::vector<std::string>& strings) {
  std::set<std::string> found;
  for (const auto& symbol : symbols) {
    const std::string name = symbol_name(symbol);
    for (const auto& entry : process_reference_catalogue())
      if (entry.match == M::symbol && name == entry.text && !entry.category.empty()) found.insert(name);
  }
  for (const auto& text : strings) match_string(text, found);
  if (std::any_of(strings.begin(), strings.end(), compile_time_string)) found.insert(std::string(kCompileTime));
  return found;
}

std::string reference_category(const std::string& reference) {
  if (util::starts_with(reference, kInterposes)) return std::string(kInterposition);
  if (util::starts_with(reference, kDefines)) return std::string(kHarness);
  const CatalogueEntry* entry = find_entry(reference);
  if (!entry) {
    // A word entry matches anywhere in the string it was found in.
    for (const auto& candidate : process_reference_catalogue())
      if (candidate.match == M::word && lower(reference).find(candidate.text) != std::string::npos) entry = &candidate;
  }
  // No entry names it: the object scan found it as a symbol only test
  // objects define, or one of a test framework's namespace.
  return entry ? std::string(entry->category) : std::string(kHarness);
}

std::string demangle(const std::string& mangled) {
  if (!util::starts_with(mangled, "_Z")) return mangled;
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                                   std::free);
  return status == 0 && text ? std::string(text.get()) : mangled;
}

std::set<std::string> interposed_definitions(const std::vector<Definition>& defined,
                                             const std::set<std::string>& runtime_exports) {
  std::set<std::string> found;
  for (const auto& definition : defined) {
    const std::string name = definition.mangled.substr(0, definition.mangled.find('@'));
    if (!runtime_exports.count(name)) continue;
    const bool cxx = util::starts_with(name, "_Z");
    const std::string shown = demangle(name);
    if (cxx && (!definition.strong || shown.find('<') != std::string::npos)) continue;
    const std::string bare = shown.substr(0, shown.find('('));
    const bool quiet = std::any_of(process_reference_catalogue().begin(), process_reference_catalogue().end(),
                                   [&](const CatalogueEntry& entry) {
                                     return entry.match == M::definition && bare == entry.text;
                                   });
    if (!quiet) found.insert(std::string(kInterposes) + shown);
  }
  return found;
}

std::string top_scope(const std::string& name) {
  std::string_view rest(name);
  rest.remove_prefix(special_prefix(name).size());
  // Template arguments and parameters out: the first word holding "::"
  // names the scope ("void ns::f<std::string>" -> "ns").
  std::string flat;
  int depth = 0;
  for (const char c : rest) {
    if (c == '<' || c == '(') ++depth;
    if (depth == 0) flat += c;
    if ((c == '>' || c == ')') && depth > 0) --depth;
  }
  for (const std::string_view word : util::split(flat, ' ')) {
    const std::size_t colons = word.find("::");
    if (colons != std::string_view::npos) return std::string(word.substr(0, colons));
  }
  return "";
}

std::set<std::string> harness_definitions(const std::vector<NamedDefinition>& defined,
                                          const std::set<std::string>& test_defined,
                                          const std::set<std::string>& own_scopes) {
  static const std::set<std::string> toolchain = {"std", "__gnu_cxx", "__cxxabiv1", "__gnu_debug", "__pstl"};
  std::set<std::string> found;
  for (const auto& definition : defined) {
    // main: every program's own entry point, a tool's beside the tests'.
    if (!test_defined.count(definition.name) || util::starts_with(definition.name, "DW.ref.") ||
        definition.name == "main")
      continue;
    const std::string scope = top_scope(definition.name);
    const bool shared_scope = scope.empty() ? !definition.object || !special_prefix(definition.name).empty()
                                            : toolchain.count(scope) || util::starts_with(scope, "__") || own_scopes.count(scope);
    if (definition.strong || !shared_scope) found.insert(std::string(kDefines) + definition.name);
  }
  return found;
}

std::vector<NewReference> new_references(const ObjectReferences& baseline, const ObjectReferences& candidate,
                                         const std::vector<std::string>& allowed) {
  const auto is_allowed = [&](const std::string& reference) {
    return std::any_of(allowed.begin(), allowed.end(), [&](const std::string& entry) {
      if (!entry.empty() && entry.back() == '*') return util::starts_with(reference, entry.substr(0, entry.size() - 1));
      return entry == reference;
    });
  };
  std::vector<NewReference> fresh;
  for (const auto& [source, references] : candidate) {
    const auto known = baseline.find(source);
    for (const auto& reference : references) {
      if (known != baseline.end() && known->second.count(reference)) continue;
      if (is_allowed(reference)) continue;
      fresh.push_back({source, reference, reference_category(reference)});
    }
  }
  std::sort(fresh.begin(), fresh.end(), [](const NewReference& left, const NewReference& right) {
    return std::tie(left.source, left.reference) < std::tie(right.source, right.reference);
  });
  return fresh;
}

std::string unread_objects_reason(bool baseline_read, const std::string& candidate_problem) {
  if (!baseline_read || candidate_problem.empty()) return {};
  return "the change's objects could not be read, though the baseline's were: " + candidate_problem;
}

}  // namespace hydra::guard
