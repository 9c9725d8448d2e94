#!/usr/bin/env python3
"""Checks the package lists against what the build really uses.

  check_packages.py build CMAKELISTS CMAKECACHE LIST...
      every find_package() and pkg_check_modules() of CMAKELISTS resolves (as
      configured in CMAKECACHE) to files of a Debian package that one of the
      LISTs (scripts/packages/*.txt) installs, directly or as a dependency
  check_packages.py runtime BINARY DEB
      every shared library BINARY loads (ldd) belongs to a package DEB's
      Depends names, or one they depend on in turn

Prints one line per requirement; exit status 0 when all hold, 1 when one
does not (naming it), 2 on bad input.
"""
import glob
import re
import subprocess
import sys
from pathlib import Path

# Part of the C library: no package of its own to name.
C_LIBRARY = {"Threads"}
KEYWORDS = {"REQUIRED", "QUIET", "IMPORTED_TARGET", "GLOBAL", "NO_CMAKE_PATH", "NO_CMAKE_ENVIRONMENT_PATH"}


def read_list(path: Path) -> set:
    return {n for line in path.read_text().splitlines() for n in re.sub(r"#.*", "", line).split()}


def owners(path: str) -> set:
    variants = {path, str(Path(path).resolve())}
    for v in list(variants):
        if v.startswith("/usr/lib/"):
            variants.add(v[4:])
        elif v.startswith("/lib/"):
            variants.add("/usr" + v)
    found = set()
    for v in variants:
        result = subprocess.run(["dpkg-query", "-S", v], capture_output=True, text=True)
        if result.returncode == 0:
            for line in result.stdout.splitlines():
                if ": " + v == line[line.index(":"):] or line.endswith(": " + v):
                    found |= {p.strip().split(":")[0] for p in line[:line.rindex(": ")].split(",")}
    return found


def depends(package: str) -> set:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Depends}, ${Pre-Depends}", package],
                            capture_output=True, text=True)
    names = set()
    for relation in result.stdout.split(","):
        for alternative in relation.split("|"):
            name = alternative.strip().split(" ")[0].split(":")[0]
            if name:
                names.add(name)
    return names


def closure(packages: set, depth: int = 3) -> set:
    seen, frontier = set(packages), set(packages)
    for _ in range(depth):
        frontier = {d for p in frontier for d in depends(p)} - seen
        seen |= frontier
    return seen


def requirements(cmakelists: str):
    text = re.sub(r"#[^\n]*", "", cmakelists)
    for name, rest in re.findall(r"find_package\(\s*(\w+)([^)]*)\)", text):
        yield "find_package", name, rest
    for prefix, rest in re.findall(r"pkg_check_modules\(\s*(\w+)([^)]*)\)", text):
        for module in rest.split():
            if module not in KEYWORDS:
                yield "pkg_check_modules", module, prefix


def files_of(kind: str, name: str, cache: dict) -> list:
    if kind == "pkg_check_modules":
        result = subprocess.run(["pkg-config", "--variable=pcfiledir", name], capture_output=True, text=True)
        pc = Path(result.stdout.strip()) / f"{name}.pc"
        return [str(pc)] if result.returncode == 0 and pc.is_file() else []
    files = []
    for key, value in cache.items():
        # <Name>_DIR of a config package; <NAME>_* of a find module (PKG_CONFIG_* of PkgConfig).
        if not key.replace("_", "").upper().startswith(name.replace("_", "").upper()):
            continue
        if Path(value).is_dir() and key.endswith("_DIR"):
            files += glob.glob(f"{value}/*[Cc]onfig.cmake")
        elif Path(value).is_file():
            files.append(value)
    return files


def check_build(cmakelists: Path, cache_file: Path, lists: list) -> int:
    cache = {}
    for line in cache_file.read_text().splitlines():
        match = re.match(r"([\w.+-]+):\w+=(.*)", line)
        if match:
            cache[match.group(1)] = match.group(2)
    listed = set().union(*(read_list(p) for p in lists))
    available = closure(listed)
    failures = 0
    for kind, name, _ in requirements(cmakelists.read_text()):
        if name in C_LIBRARY:
            print(f"ok   {kind}({name}): the C library")
            continue
        files = files_of(kind, name, cache)
        packages = set().union(*(owners(f) for f in files)) if files else set()
        if packages & available:
            print(f"ok   {kind}({name}): {', '.join(sorted(packages & available))}")
        else:
            failures += 1
            where = f"files of {', '.join(sorted(packages))}" if packages else "no file found"
            print(f"FAIL {kind}({name}): {where}; none installed by {', '.join(str(p) for p in lists)}")
    return 1 if failures else 0


def check_runtime(binary: Path, deb: Path) -> int:
    fields = subprocess.run(["dpkg-deb", "-f", str(deb), "Depends"], capture_output=True, text=True, check=True)
    named = {a.strip().split(" ")[0] for r in fields.stdout.split(",") for a in r.split("|") if a.strip()}
    # What those packages depend on in turn comes with them: a library the
    # tool loads only through another (libcurl's libnghttp2) is covered by
    # its package's own Depends.
    closure, pending = set(), list(named)
    while pending:
        package = pending.pop()
        if package in closure:
            continue
        closure.add(package)
        query = subprocess.run(["dpkg-query", "-W", "-f=${Depends}, ${Pre-Depends}", package],
                               capture_output=True, text=True)
        if query.returncode == 0:
            pending += [a.strip().split(" ")[0].split(":")[0] for r in query.stdout.split(",")
                        for a in r.split("|") if a.strip()]
    ldd = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=True).stdout
    failures = 0
    libraries = re.findall(r"=>\s+(/\S+)", ldd) + re.findall(r"^\s+(/\S+)\s+\(", ldd, re.M)
    if not libraries:
        print(f"FAIL {binary}: ldd names no library")
        return 1
    for library in libraries:
        packages = owners(library)
        if packages & named:
            print(f"ok   {library}: {', '.join(sorted(packages & named))}")
        elif packages & closure:
            print(f"ok   {library}: {', '.join(sorted(packages & closure))} (through Depends)")
        else:
            failures += 1
            print(f"FAIL {library}: {', '.join(sorted(packages)) or 'no package'} not in Depends of {deb.name}")
    return 1 if failures else 0


def main(argv) -> int:
    try:
        if len(argv) >= 4 and argv[0] == "build":
            return check_build(Path(argv[1]), Path(argv[2]), [Path(a) for a in argv[3:]])
        if len(argv) == 3 and argv[0] == "runtime":
            return check_runtime(Path(argv[1]), Path(argv[2]))
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"check_packages.py: {error}", file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
