#!/usr/bin/env python3
"""Runs a CI template's jobs on simulated runners on this machine.

  simulate_runner.py github|gitlab TEMPLATE --origin REPO --work DIR
      [--tool JOB=FILE]... [--matrix NAME=a,b]...

Each job (each matrix entry) gets a runner of its own under DIR/runners/:
a checkout of REPO, its own HOME, temporary folder and caches, and the
variables the CI system sets. Artifacts and caches travel as local copies
(DIR/artifacts, DIR/caches); what the jobs publish (SARIF to code scanning,
JUnit reports) is checked and kept in DIR/published. `--tool JOB=FILE`
replaces the job that builds the tool with FILE as its artifact; apt-get on
the runners checks package names against this machine and unpacks a .deb
into DIR/sysroot (one path for every runner, as /usr is).  Writes DIR/report.json; exit status 0 when every
job succeeded, 1 when one failed, 2 when the template cannot be simulated.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sim_common  # noqa: E402


def main(argv) -> int:
    if argv and argv[0] == "fake-apt-get":
        return sim_common.fake_apt_get(argv[1:])
    import yaml
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("system", choices=["github", "gitlab"])
    parser.add_argument("template", type=Path)
    parser.add_argument("--origin", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--tool", action="append", default=[])
    parser.add_argument("--matrix", action="append", default=[])
    args = parser.parse_args(argv)
    tool_jobs = {}
    for entry in args.tool:
        job, _, file = entry.partition("=")
        tool_jobs.setdefault(job, []).append(Path(file).resolve())
    matrix = {k: v.split(",") for k, _, v in (m.partition("=") for m in args.matrix)}
    try:
        document = yaml.safe_load(args.template.read_text())
    except (OSError, yaml.YAMLError) as error:
        print(f"{args.template}: {error}", file=sys.stderr)
        return 2
    args.work.mkdir(parents=True, exist_ok=True)
    try:
        if args.system == "github":
            import sim_github as simulation
        else:
            import sim_gitlab as simulation
        status = simulation.main(document, args.work.resolve(), args.origin.resolve(), tool_jobs, matrix)
    except sim_common.SimulationError as error:
        print(f"{args.template}: {error}", file=sys.stderr)
        return 2
    print((args.work / "report.json").read_text())
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
