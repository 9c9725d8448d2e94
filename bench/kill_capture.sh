#!/usr/bin/env bash
# Kills `hydra-score capture` with SIGKILL at random moments and checks what
# it leaves behind, on a copy of example-project:
#  - orphans: one second after each kill, no process whose command line
#    mentions the work directory may still run (clang-tidy, cmake, ninja,
#    the compilers, ctest, the tests, bwrap);
#  - litter: at most one hidden staging directory (.run.capture-XXXXXX) may
#    exist after a kill (the killed capture's own; the one before it must have
#    been removed by the next capture), and none after a final capture that
#    runs to the end, whose run directory must then verify.
# Each kill point is uniform in [0, D], D being the wall time of a full cold
# capture measured first (lowered when a capture finishes before its kill
# point); every attempt starts from an empty build tree, so the kills land in
# configure, build, test, lint and publishing alike.
#
# Usage: bench/kill_capture.sh [KILLS] [SEED] [path/to/hydra-score]
#        (defaults: 20 kills, seed 18, build/hydra-score)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
kills="${1:-20}"
RANDOM="${2:-18}"
tool="${3:-$here/build/hydra-score}"
work="$(mktemp -d /tmp/hydra-kill-XXXXXX)"
trap 'rm -rf "$work"' EXIT

# Processes (not zombies) whose command line mentions the work directory.
leftovers() {
  local dir status cmdline
  for dir in /proc/[0-9]*; do
    [[ "${dir#/proc/}" == "$$" || "${dir#/proc/}" == "$BASHPID" ]] && continue
    status="$(awk '{print $3}' "$dir/stat" 2>/dev/null || true)"
    [[ -z "$status" || "$status" == Z ]] && continue
    cmdline="$( { tr '\0' ' ' < "$dir/cmdline"; } 2>/dev/null || true)"
    [[ "$cmdline" == *"$work"* && "$cmdline" != *"kill_capture.sh"* ]] && echo "${dir#/proc/}: $cmdline"
  done
  return 0
}
staging_dirs() { find "$work" -maxdepth 1 -name '.run.capture-*' | wc -l; }
capture_argv=("$tool" capture --quiet --source "$work/src" --out "$work/run" --build-dir "$work/tree"
              --generator Ninja)

mkdir -p "$work/src"
(cd "$here/example-project" && tar --exclude=./candidates -cf - .) | (cd "$work/src" && tar -xf -)
git -C "$work/src" init --quiet --initial-branch=main
git -C "$work/src" add --all
git -C "$work/src" -c user.name=kill -c user.email=kill@example.invalid commit --quiet -m baseline

start=$(date +%s%N)
"${capture_argv[@]}"
full_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "a full cold capture takes ${full_ms} ms; killing at uniform points in [0, ${full_ms}] ms"

orphaned=0
littered=0
landed=0
for ((i = 1; landed < kills && i <= 3 * kills; i++)); do
  rm -rf "$work/tree"
  at_ms=$(( (RANDOM * 32768 + RANDOM) % full_ms ))
  "${capture_argv[@]}" > /dev/null 2>&1 &
  pid=$!
  sleep "$(printf '%d.%03d' $((at_ms / 1000)) $((at_ms % 1000)))"
  # A capture that already finished (a quicker run than the measured one, the
  # machine being less busy) is not a kill point: it is reported, not
  # counted, and D shrinks to that moment.
  if ps -o stat= -p "$pid" 2>/dev/null | grep -qv Z; then landed=$((landed + 1)); else
    wait "$pid" || true
    printf '    at %6d ms the capture had already finished; not counted; D = %d ms from now on\n' "$at_ms" "$at_ms"
    full_ms=$((at_ms > 1000 ? at_ms : 1000))
    continue
  fi
  # The step running at the kill: the capture's child that is not its watchdog
  # (for a sandboxed step, the command bwrap runs).
  in_step="$(ps -o comm=,args= --ppid "$pid" 2>/dev/null | awk '$1 != "hydra-watchdog"' | head -1 |
             sed -e 's/^[^ ]* *//' -e 's/^.*bwrap .* -- //' | cut -c1-70 || true)"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  sleep 1
  left="$(leftovers)"
  staged="$(staging_dirs)"
  verdict=ok
  if [[ -n "$left" ]]; then verdict="ORPHANS"; orphaned=$((orphaned + 1)); fi
  if (( staged > 1 )); then verdict="$verdict LITTER($staged)"; littered=$((littered + 1)); fi
  printf '%2d: kill at %6d ms  staging dirs %d  %-8s step: %s\n' "$landed" "$at_ms" "$staged" "$verdict" "${in_step:-none}"
  if [[ -n "$left" ]]; then
    echo "$left" | sed 's/^/      /' | cut -c1-160
    # Do not let this attempt's orphans disturb the next one.
    for pid_left in $(echo "$left" | cut -d: -f1); do kill -KILL "$pid_left" 2>/dev/null || true; done
  fi
done

"${capture_argv[@]}"
final_staged="$(staging_dirs)"
"$tool" replay "$work/run" > /dev/null
echo "after a final capture: $final_staged staging dirs; the run directory verifies"
echo "kills without orphans: $((landed - orphaned))/$landed; without litter: $((landed - littered))/$landed"
[[ "$landed" -eq "$kills" && "$orphaned" -eq 0 && "$littered" -eq 0 && "$final_staged" -eq 0 ]]
