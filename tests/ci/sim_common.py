"""What a simulated CI runner shares between GitHub Actions and GitLab CI:
runner directories (own workspace, HOME, temp and caches), the stand-ins for
sudo, sysctl and apt-get, artifact and cache stores kept as local copies."""
import fnmatch
import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


class SimulationError(Exception):
    """The template cannot run as written on a runner."""


FAKE_SUDO = """#!/bin/sh
# The runner's sudo: the simulated runner already runs as the user that may.
while [ $# -gt 0 ]; do case "$1" in -E|-n|-H) shift ;; *) break ;; esac; done
exec "$@"
"""
FAKE_SYSCTL = """#!/bin/sh
# The runner's sysctl: logged, not applied to this machine.
echo "sysctl $*" >> "$SIM_LOG"
"""
FAKE_APT = """#!/bin/sh
exec "{python}" "{harness}" fake-apt-get "$@"
"""


class Runner:
    """One simulated runner: a directory of its own with a workspace, HOME,
    temporary folder, the stand-in tools and the packages 'installed' there."""

    def __init__(self, root: Path, name: str):
        self.dir = root / "runners" / name
        if self.dir.exists():
            shutil.rmtree(self.dir)
        self.home = self.dir / "home"
        self.temp = self.dir / "temp"
        self.bin = self.dir / "bin"
        # What apt-get installs lands at one path for every runner, as /usr
        # is one path on every real runner: a run directory records the
        # tool's path in its test commands, and the scorer compares them.
        self.sysroot = root / "sysroot"
        self.log = self.dir / "runner.log"
        for d in (self.home, self.temp, self.bin):
            d.mkdir(parents=True)
        self.sysroot.mkdir(exist_ok=True)
        self.log.touch()
        scripts = {"sudo": FAKE_SUDO, "sysctl": FAKE_SYSCTL,
                   "apt-get": FAKE_APT.format(python=sys.executable, harness=HERE / "simulate_runner.py")}
        for tool, text in scripts.items():
            path = self.bin / tool
            path.write_text(text)
            path.chmod(0o755)

    def environment(self, extra: dict) -> dict:
        env = {
            "PATH": f"{self.bin}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME": str(self.home), "USER": os.environ.get("USER", "runner"), "LANG": "C.UTF-8",
            "TMPDIR": str(self.temp), "CI": "true", "DEBIAN_FRONTEND": "noninteractive",
            "SIM_LOG": str(self.log), "SIM_BIN": str(self.bin), "SIM_SYSROOT": str(self.sysroot),
        }
        env.update({k: str(v) for k, v in extra.items()})
        return env

    def run_script(self, script: str, cwd: Path, env: dict, label: str) -> int:
        path = self.temp / f"step-{label}.sh"
        path.write_text(script)
        with open(self.log, "a") as log:
            log.write(f"\n=== {label}\n")
            log.flush()
            result = subprocess.run(["/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", str(path)],
                                    cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        return result.returncode

    def note(self, text: str):
        with open(self.log, "a") as log:
            log.write(text + "\n")


def git(*args, cwd=None):
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise SimulationError(f"git {' '.join(args)}: {result.stderr.strip()}")
    return result.stdout


def checkout(origin: Path, destination: Path, ref: str, depth: int):
    """A runner's checkout of `ref` (a branch of the origin, or a commit)."""
    destination.mkdir(parents=True, exist_ok=True)
    url = origin.resolve().as_uri()
    branches = git("for-each-ref", "--format=%(refname:short)", "refs/heads", cwd=origin).split()
    if depth > 0 and ref in branches:
        git("clone", "--quiet", f"--depth={depth}", "--single-branch", "--branch", ref, url, str(destination))
    else:
        git("clone", "--quiet", "--no-checkout", url, str(destination))
        target = f"origin/{ref}" if ref in branches else ref
        git("checkout", "--quiet", "--detach", target, cwd=destination)


def copy_tree(source: Path, destination: Path):
    for item in source.iterdir():
        target = destination / item.name
        if item.is_dir():
            shutil.copytree(item, target, symlinks=True, dirs_exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(item, target, follow_symlinks=False)


def store_files(store: Path, root: Path, files: list):
    """Copies `files` (under `root`) into `store`, keeping their paths below `root`."""
    for file in files:
        target = store / file.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(file, target, follow_symlinks=False)


def expand_files(base: Path, pattern: str, hidden: bool = True) -> list:
    """Files matched by a path or glob below `base` (directories recursively)."""
    files = []
    for match in sorted(glob.glob(str(base / pattern), recursive=True)):
        path = Path(match)
        candidates = [p for p in path.rglob("*") if p.is_file() or p.is_symlink()] if path.is_dir() else [path]
        for file in candidates:
            if not hidden and any(part.startswith(".") for part in file.relative_to(base).parts):
                continue
            files.append(file)
    return files


class Stores:
    """The artifact, cache and published-report stores of one simulated
    pipeline: folders below `work` (artifacts/NAME, caches/KEY, published/)."""

    def __init__(self, work: Path):
        self.artifacts = work / "artifacts"
        self.caches = work / "caches"
        self.published = work / "published"
        for d in (self.artifacts, self.caches, self.published):
            d.mkdir(parents=True, exist_ok=True)

    def artifact(self, name: str) -> Path:
        return self.artifacts / name

    def has_artifact(self, name: str) -> bool:
        return self.artifact(name).is_dir()

    def artifact_names(self, pattern: str = "*") -> list:
        return [store.name for store in sorted(self.artifacts.iterdir()) if matches(store.name, pattern)]

    def stand_in_tool(self, name: str, files: list, folder: Path = Path()):
        """The artifact `name` of the job that builds the tool: `files`
        (made beforehand from this checkout, cpack) in `folder` of it."""
        store = self.artifact(name) / folder
        store.mkdir(parents=True)
        for file in files:
            shutil.copy2(file, store / Path(file).name)

    def upload(self, name: str, root: Path, files: list, once: bool = False):
        """Keeps `files` (below `root`, with their paths below it) as the
        artifact `name`; `once`: a second upload of the name is an error."""
        store = self.artifact(name)
        if once and store.exists():
            raise SimulationError(f"artifact {name} uploaded twice")
        store.mkdir(parents=True, exist_ok=not once)
        store_files(store, root, files)

    def download(self, name: str, destination: Path):
        """Copies the artifact `name` into `destination` (made when missing)."""
        if not self.has_artifact(name):
            raise SimulationError(f"no artifact {name}")
        destination.mkdir(parents=True, exist_ok=True)
        copy_tree(self.artifact(name), destination)

    def cache(self, key: str) -> Path:
        return self.caches / key

    def publish(self, kind: str, file: Path, name: str = ""):
        """A report the CI system shows (JUnit, SARIF): kept as published/KIND-NAME."""
        shutil.copy2(file, self.published / f"{kind}-{name or file.name}")


def check_sarif(path: Path):
    document = json.loads(path.read_text())
    if document.get("version") != "2.1.0" or not isinstance(document.get("runs"), list):
        raise SimulationError(f"{path}: not a SARIF 2.1.0 log")


def check_junit(path: Path):
    import xml.etree.ElementTree as ElementTree
    root = ElementTree.parse(path).getroot()
    if root.tag not in ("testsuites", "testsuite"):
        raise SimulationError(f"{path}: not a JUnit report")


def installed_on_this_machine(package: str) -> bool:
    name = package.split(":")[0]
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", name], capture_output=True, text=True)
    return result.returncode == 0 and "install ok installed" in result.stdout


def satisfied(relation: str) -> bool:
    """A Depends/Recommends relation ('a (>= 1) | b') holds on this machine."""
    return any(installed_on_this_machine(alt.strip().split(" ")[0]) for alt in relation.split("|"))


def fake_apt_get(argv: list) -> int:
    """apt-get on a simulated runner: `update` does nothing; `install` checks
    that each named package is one this machine has (so the real runner gets
    it from the archive), and unpacks a local .deb into the simulation's root
    (DIR/sysroot) after checking that its Depends (and, unless --no-install-recommends, its
    Recommends) are packages this machine has."""
    log = Path(os.environ["SIM_LOG"])
    sysroot = Path(os.environ["SIM_SYSROOT"])
    bin_dir = Path(os.environ["SIM_BIN"])
    with open(log, "a") as out:
        out.write("apt-get " + " ".join(argv) + "\n")
    if not argv or argv[0] in ("update",):
        return 0
    if argv[0] != "install":
        print(f"simulated apt-get: unsupported command {argv[0]}", file=sys.stderr)
        return 100
    options = [a for a in argv[1:] if a.startswith("-")]
    names = [a for a in argv[1:] if not a.startswith("-")]
    recommends = "--no-install-recommends" not in options
    for name in names:
        if "/" in name or name.endswith(".deb"):
            deb = Path(name)
            if not deb.is_file():
                print(f"E: Unsupported file {name} given on commandline", file=sys.stderr)
                return 100
            fields = {f: subprocess.run(["dpkg-deb", "-f", str(deb), f], capture_output=True, text=True).stdout
                      for f in ("Package", "Depends", "Recommends")}
            relations = [r for r in fields["Depends"].replace("\n", " ").split(",") if r.strip()]
            if recommends:
                relations += [r for r in fields["Recommends"].replace("\n", " ").split(",") if r.strip()]
            missing = [r.strip() for r in relations if not satisfied(r)]
            if missing:
                print(f"simulated apt-get: {deb.name} needs {', '.join(missing)}, which this machine lacks",
                      file=sys.stderr)
                return 100
            subprocess.run(["dpkg-deb", "-x", str(deb), str(sysroot)], check=True)
            for tool in (sysroot / "usr" / "bin").glob("*"):
                link = bin_dir / tool.name
                if not link.exists():
                    link.symlink_to(tool)
            with open(log, "a") as out:
                out.write(f"installed {fields['Package'].strip()} from {deb.name}"
                          f"{' with its Recommends' if recommends else ''}\n")
        elif not installed_on_this_machine(name):
            print(f"simulated apt-get: this machine has no package {name} to stand for the runner's", file=sys.stderr)
            return 100
    return 0


def matches(name: str, pattern: str) -> bool:
    return fnmatch.fnmatchcase(name, pattern)
