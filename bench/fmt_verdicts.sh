#!/usr/bin/env bash
# HydraScore's verdicts against real labels: real upstream fmt bugs with
# fmt's own tests. Each instance is the commit before an upstream fix
# (`main`), with three candidate branches ranked by `hydra_score` through
# the CMake drop-in (HYDRA_SCORE_CANDIDATES='agent/*'):
#   agent/fix         the upstream fix of the non-test files (expected: resolved,
#                     mergeable, ranked first)
#   agent/noop        one comment line added to src/format.cc (expected:
#                     unresolved, not mergeable)
#   agent/incomplete  a deliberately incomplete fix that leaves the upstream
#                     test change failing (expected: unresolved, not mergeable)
# and the upstream test change (every test/ path of the fix commit) as the
# private test patch. A test-only instance has no acceptance test by
# construction: its expected verdict is "no resolution" for every candidate.
#
# Usage: bench/fmt_verdicts.sh [options] [INSTANCE...]     (default: all)
#   --tool PATH        hydra-score to run (default: build/hydra-score of this repository)
#   --fmt PATH         a clone of github.com/fmtlib/fmt (default: $HYDRA_BENCH_FMT,
#                      else /work/.mirror/fmtlib+fmt/repo)
#   --work DIR         work directory, kept (default: a new /tmp/hydra-fmt-verdicts-XXXXXX)
#   --cache DIR        the caches shared by every instance (default: $HYDRA_BENCH_CACHE,
#                      else /tmp/hydra-fmt-verdicts-cache); kept between runs
#   --summary FILE     machine-readable summary, JSON (default: $HYDRA_BENCH_SUMMARY,
#                      else WORK/summary.json)
#   --jobs N           HYDRA_SCORE_JOBS (default: $HYDRA_BENCH_JOBS, else 2)
#   --build-timeout S  [scoring.timeouts] build (default 1800); --test-timeout S (default 900)
#   --list             print the instances and exit
#   --report-only      run nothing: report the runs already in --work
# Exit status: 0 when every instance was scored (whatever the agreement),
# 1 when some instance could not be set up or scored (no score.json), 2 on usage errors.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

# name|fix commit|where the fix sits|non-test paths of the fix|incomplete fix|test change compiles before the fix
#   incomplete fix: hunks:I,J  (only those hunks of the non-test diff, 1-based in `git diff` order)
#                   paths:P,Q  (the fix of those paths only)
#                   edit:NAME  (the whole fix, then the python edit NAME below)
#                   noop2      (test-only instance: a comment line in the header the test exercises)
instances=(
  "std-path|b87ea22e29913b5a71c02b772f303b9bf441c14b|include/fmt/std.h|include/fmt/std.h|hunks:1|yes"
  "chrono-doy|71bd51e6c20d1674b67c3089fecfac98ce3f9169|include/fmt/chrono.h|include/fmt/chrono.h|hunks:1|yes"
  "chrono-ymd|71144eeaff2199dbf70a2dc1675f21c731da47f7|include/fmt/chrono.h|include/fmt/chrono.h|edit:ymd_month_off_by_one|no"
  "std-complex|73f2b344b2033b609ebde341650c88bfffe3af82|include/fmt/std.h|include/fmt/std.h|edit:complex_real_twice|no"
  "ranges-deref|b81761068b5cc346b30a023cc6077d34afba1e01|include/fmt/ranges.h|include/fmt/ranges.h|hunks:2,3|no"
  "xchar-format-to|ee0c3351a4d47ca89090b8a7458846288b18efca|include/fmt/xchar.h|include/fmt/xchar.h|hunks:1|no"
  "os-pipe|c14238503392f42586ad79ad312446d9262881ff|src/os.cc|include/fmt/os.h,src/os.cc|hunks:1,2,4|no"
  "format-cc-locale|64e29893cfd3a603b79e38d75384e12336e8b980|src/format.cc|include/fmt/format-inl.h,include/fmt/format.h,include/fmt/locale.h,src/format.cc|paths:include/fmt/format-inl.h,include/fmt/format.h,include/fmt/locale.h|no"
  "test-only-timeout|365c3fbd258fb3df69007fc7a22c0472dd31dcbb|test/ only|-|noop2:include/fmt/os.h|yes"
)

die() { echo "fmt_verdicts: $*" >&2; exit 2; }
tool="$here/build/hydra-score"
fmt="${HYDRA_BENCH_FMT:-/work/.mirror/fmtlib+fmt/repo}"
work=""
cache="${HYDRA_BENCH_CACHE:-/tmp/hydra-fmt-verdicts-cache}"
summary="${HYDRA_BENCH_SUMMARY:-}"
jobs="${HYDRA_BENCH_JOBS:-2}"
build_timeout=1800
test_timeout=900
selected=()
report_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tool) tool="$2"; shift 2 ;;
    --fmt) fmt="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --cache) cache="$2"; shift 2 ;;
    --summary) summary="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --build-timeout) build_timeout="$2"; shift 2 ;;
    --test-timeout) test_timeout="$2"; shift 2 ;;
    --report-only) report_only=1; shift ;;
    --list) for i in "${instances[@]}"; do IFS='|' read -r n c w p inc comp <<<"$i";
              printf '%-18s %s  fix in %-22s incomplete %-28s test change compiles before the fix: %s\n' \
                "$n" "${c:0:8}" "$w" "$inc" "$comp"; done; exit 0 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) selected+=("$1"); shift ;;
  esac
done
[ -x "$tool" ] || die "no hydra-score at $tool (--tool PATH)"
tool="$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")"
git -C "$fmt" rev-parse -q --verify b87ea22e29913b5a71c02b772f303b9bf441c14b^{commit} >/dev/null ||
  die "$fmt is not a clone of fmt holding the instances' commits (--fmt PATH)"
fmt="$(cd "$fmt" && pwd)"
if [ ${#selected[@]} -eq 0 ]; then
  for i in "${instances[@]}"; do selected+=("${i%%|*}"); done
fi
for s in "${selected[@]}"; do
  printf '%s\n' "${instances[@]}" | grep -q "^$s|" || die "no instance $s (--list)"
done
[ -n "$work" ] || { [ $report_only -eq 0 ] || die "--report-only needs --work"; work="$(mktemp -d /tmp/hydra-fmt-verdicts-XXXXXX)"; }
mkdir -p "$work" "$cache"
work="$(cd "$work" && pwd)"; cache="$(cd "$cache" && pwd)"
[ -n "$summary" ] || summary="$work/summary.json"
# A copy of the tool: the CMake module pins the tool's SHA-256 at the first
# configure, and a tool rebuilt during a long bench would stop the later instances.
[ $report_only -eq 1 ] || { cp "$tool" "$work/hydra-score"; tool="$work/hydra-score"; }

# Keeps the hunks listed (1-based, over the whole diff in order) of a unified diff.
hunks_py='
import sys
keep = {int(x) for x in sys.argv[1].split(",")}
files, cur = [], None
for line in sys.stdin.read().splitlines(True):
    if line.startswith("diff --git"):
        cur = [[line], []]; files.append(cur); continue
    if cur is None: continue
    if line.startswith("@@"): cur[1].append([line]); continue
    (cur[1][-1] if cur[1] else cur[0]).append(line)
n, out = 0, []
for head, hunks in files:
    sel = []
    for h in hunks:
        n += 1
        if n in keep: sel.append(h)
    if sel: out += head + [l for h in sel for l in h]
assert n >= max(keep), "the diff has %d hunks" % n
sys.stdout.write("".join(out))
'
# The named edits of an incomplete fix, applied to the fixed tree (argv[1]).
edits_py='
import os, sys
root, name = sys.argv[1], sys.argv[2]
edits = {
  # the month formatter of the year_month_day change shows the next month
  "ymd_month_off_by_one": ("include/fmt/chrono.h",
    "time.tm_mon = static_cast<int>(static_cast<unsigned>(m)) - 1;",
    "time.tm_mon = static_cast<int>(static_cast<unsigned>(m));"),
  # the std::complex formatter writes the real part twice
  "complex_real_twice": ("include/fmt/std.h",
    "f->nested(c.imag())", "f->nested(c.real())"),
}
path, old, new = edits[name]
path = os.path.join(root, path)
text = open(path).read()
assert text.count(old) == 1, (name, old)
open(path, "w").write(text.replace(old, new))
'

run_instance() {  # name commit where paths incomplete compiles
  local name="$1" fix="$2" where="$3" paths="$4" incomplete="$5"
  local dir="$work/$name"
  rm -rf "$dir"; mkdir -p "$dir"
  git clone -q --shared "$fmt" "$dir/fmt"
  g() { git -C "$dir/fmt" -c user.name=bench -c user.email=bench@example.invalid -c commit.gpgsign=false "$@"; }
  g checkout -q -B main "$fix^"
  # The private test patch: the fix commit's test change (all of it).
  g diff "$fix^" "$fix" -- test/ > "$dir/private-tests.patch"
  [ -s "$dir/private-tests.patch" ] || { echo "$name: the fix has no test change" >&2; return 1; }
  local -a nontest=()
  [ "$paths" = "-" ] || IFS=',' read -r -a nontest <<<"$paths"

  g checkout -q -b agent/fix main
  if [ ${#nontest[@]} -gt 0 ]; then
    g diff "$fix^" "$fix" -- "${nontest[@]}" | g apply --whitespace=nowarn
    g add -A
  fi
  g commit -q --allow-empty -m "the upstream fix"

  g checkout -q -b agent/noop main
  printf '// no change\n' >> "$dir/fmt/src/format.cc"
  g commit -qam "a comment"

  g checkout -q -b agent/incomplete main
  case "$incomplete" in
    hunks:*) g diff "$fix^" "$fix" -- "${nontest[@]}" | python3 -c "$hunks_py" "${incomplete#hunks:}" |
               g apply --whitespace=nowarn ;;
    paths:*) local -a some; IFS=',' read -r -a some <<<"${incomplete#paths:}"
             g diff "$fix^" "$fix" -- "${some[@]}" | g apply --whitespace=nowarn ;;
    edit:*) g diff "$fix^" "$fix" -- "${nontest[@]}" | g apply --whitespace=nowarn
            python3 -c "$edits_py" "$dir/fmt" "${incomplete#edit:}" ;;
    noop2:*) printf '// no change\n' >> "$dir/fmt/${incomplete#noop2:}" ;;
    *) echo "$name: unknown incomplete fix $incomplete" >&2; return 1 ;;
  esac
  g add -A
  g commit -q -m "an incomplete fix"
  g checkout -q main

  cat > "$dir/hydra.toml" <<EOF
[anti_gaming]
private_test_patch = "$dir/private-tests.patch"

[scoring.timeouts]
build = $build_timeout
test = $test_timeout

[cache]
directory = "$cache"
EOF
  nice -n 10 cmake -S "$dir/fmt" -B "$dir/build" -G Ninja \
    "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=$here/cmake/HydraScore.cmake" \
    "-DHYDRA_SCORE_EXECUTABLE=$tool" "-DHYDRA_SCORE_CANDIDATES=agent/*" "-DHYDRA_SCORE_JOBS=$jobs" \
    "-DHYDRA_SCORE_CONFIG=$dir/hydra.toml" -DHYDRA_SCORE_FAIL_ON_GATE=OFF \
    -DHYDRA_SCORE_CLANG_TIDY=/nonexistent/clang-tidy > "$dir/configure.log" 2>&1 ||
    { echo "$name: configure failed ($dir/configure.log)" >&2; return 1; }
  local start end
  start=$(date +%s)
  nice -n 10 cmake --build "$dir/build" --target hydra_score > "$dir/score.log" 2>&1 || true
  end=$(date +%s)
  echo "$((end - start))" > "$dir/seconds"
  [ -f "$dir/build/hydra/score.json" ] ||
    { echo "$name: no score.json ($dir/score.log)" >&2; tail -n 15 "$dir/score.log" >&2; return 1; }
}

export CCACHE_DIR="$cache/ccache"   # HydraScore sets its own ([cache] directory above); for anything else
echo "tool $tool; fmt $fmt; work $work; cache $cache; --jobs $jobs; nproc $(nproc); load $(cut -d' ' -f1-3 /proc/loadavg)"
broken=()
for s in "${selected[@]}"; do
  line="$(printf '%s\n' "${instances[@]}" | grep "^$s|")"
  IFS='|' read -r n c w p inc comp <<<"$line"
  if [ $report_only -eq 1 ]; then
    [ -f "$work/$n/build/hydra/score.json" ] || broken+=("$n")
    continue
  fi
  echo "== $n: fmt ${c:0:8}^ (fix in $w; test change compiles before the fix: $comp) ..."
  run_instance "$n" "$c" "$w" "$p" "$inc" || broken+=("$n")
done

python3 - "$work" "$summary" "${#broken[@]}" "${selected[@]}" <<PY
import json, os, sys
work, summary_path, nbroken = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = sys.argv[4:]
meta = {}
for line in """$(printf '%s\n' "${instances[@]}")""".strip().splitlines():
    n, c, w, p, inc, comp = line.split("|")
    meta[n] = dict(commit=c, where=w, paths=p, incomplete=inc, test_compiles_before_fix=comp)

def yn(b):
    return "-" if b is None else ("yes" if b else "no")

rows, inst_out = [], []
agree_c = total_c = agree_i = 0
for name in names:
    m = meta[name]
    d = os.path.join(work, name)
    score_path = os.path.join(d, "build", "hydra", "score.json")
    test_only = m["paths"] == "-"
    inst = dict(name=name, **m, broken=False, candidates=[], acceptance_tests=None, private_tests=None)
    try:
        seconds = int(open(os.path.join(d, "seconds")).read())
    except Exception:
        seconds = None
    inst["seconds"] = seconds
    if not os.path.exists(score_path):
        inst["broken"] = True
        inst_out.append(inst)
        print("\n%s: BROKEN RUN (no score.json; see %s)" % (name, os.path.join(d, "score.log")))
        continue
    score = json.load(open(score_path))
    base_manifest = os.path.join(d, "build", "hydra", "baseline", "manifest.json")
    if os.path.exists(base_manifest):
        held = json.load(open(base_manifest)).get("held_out", {})
        inst["private_tests"] = held.get("private_tests")
    by_agent = {r["agent"]: r for r in score.get("rankings", [])}
    acceptance = None
    for r in score.get("rankings", []):
        if r.get("resolution") is not None:
            acceptance = r["resolution"].get("acceptance_tests")
            break
    inst["acceptance_tests"] = acceptance
    print("\n%s: fmt %s^, fix in %s, test change compiles before the fix: %s; %s s" % (
        name, m["commit"][:8], m["where"], m["test_compiles_before_fix"], "-" if seconds is None else seconds))
    print("  private tests: %s" % (", ".join(inst["private_tests"]) if inst["private_tests"] else "none recorded"))
    if acceptance:
        print("  acceptance tests (fail on the base with the patch): %s" % ", ".join(acceptance))
    else:
        print("  !!! NO ACCEPTANCE TEST: the base passes its private tests (or there are none);"
              " no candidate is resolved or unresolved !!!")
    print("  %-12s %4s %7s %9s %-10s %-40s %-32s %s" % ("candidate", "rank", "total", "mergeable", "resolved",
                                                       "still failing / gate failures", "expected", "agree"))
    ok_all = True
    for cand in ("fix", "noop", "incomplete"):
        agent = "agent-" + cand
        r = by_agent.get(agent)
        if test_only:
            exp = dict(resolved=None, mergeable=True, first=False)
            exp_text = "no resolution, mergeable"
        elif cand == "fix":
            exp = dict(resolved=True, mergeable=True, first=True)
            exp_text = "resolved, mergeable, first"
        else:
            exp = dict(resolved=False, mergeable=False, first=False)
            exp_text = "unresolved, not mergeable"
        if r is None:
            got = dict(rank=None, total=None, mergeable=None, resolved=None, still_failing=None, gate_failures=None)
            agree = False
        else:
            res = r.get("resolution")
            got = dict(rank=r.get("rank"), total=r.get("total"), mergeable=r.get("mergeable"),
                       resolved=None if res is None else res.get("resolved"),
                       still_failing=None if res is None else res.get("still_failing"),
                       gate_failures=[g["gate"] for g in r.get("gate_failures", [])])
            agree = (got["resolved"] == exp["resolved"] and got["mergeable"] == exp["mergeable"]
                     and (not exp["first"] or got["rank"] == 1))
        ok_all = ok_all and agree
        total_c += 1
        agree_c += agree
        detail = ""
        if got["still_failing"]:
            detail = "failing: " + ",".join(got["still_failing"])
        if got["gate_failures"]:
            detail += ("; " if detail else "") + "gates: " + ",".join(got["gate_failures"])
        print("  %-12s %4s %7s %9s %-10s %-40s %-32s %s" % (
            cand, got["rank"] if got["rank"] is not None else "-",
            "-" if got["total"] is None else "%.2f" % got["total"], yn(got["mergeable"]),
            "n/a" if got["resolved"] is None else yn(got["resolved"]), detail[:40] or "-", exp_text,
            "yes" if agree else "NO"))
        inst["candidates"].append(dict(candidate=cand, agent=agent, expected=exp, got=got, agree=agree))
    agree_i += ok_all
    inst["agree"] = ok_all
    inst_out.append(inst)

n_inst = len(names)
print("\nagreement: %d/%d candidates, %d/%d instances%s" % (
    agree_c, total_c, agree_i, n_inst, (" (%d broken runs)" % nbroken) if nbroken else ""))
json.dump(dict(schema="hydra-bench/fmt-verdicts/1", work=work, instances=inst_out,
               agreement=dict(candidates=agree_c, candidates_total=total_c,
                              instances=agree_i, instances_total=n_inst, broken=nbroken)),
          open(summary_path, "w"), indent=2, sort_keys=True)
print("summary: %s" % summary_path)
PY
[ ${#broken[@]} -eq 0 ] || { echo "broken runs: ${broken[*]}" >&2; exit 1; }
