"""Runs a GitLab CI pipeline's jobs on simulated runners: each job's
before_script and script as one bash script (as the shell of GitLab Runner
runs them) with the CI_* variables a runner sets, artifacts and caches done
as local copies."""
import itertools
import json
import re
import shutil
from pathlib import Path

import sim_common as sim
from sim_common import SimulationError

KEYWORDS = {"stages", "variables", "default", "workflow", "include", "image", "services", "before_script",
            "after_script", "cache"}


def expand(text: str, variables: dict) -> str:
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: str(variables.get(m.group(1) or m.group(2), "")), str(text))


def flatten(lines) -> list:
    if lines is None:
        return []
    if isinstance(lines, str):
        return [lines]
    return [line for item in lines for line in flatten(item)]


class GitLabSimulation:
    def __init__(self, pipeline: dict, work: Path, origin: Path, tool_jobs: dict, matrix_override: dict):
        if "include" in pipeline:
            raise SimulationError("include: is not simulated")
        self.pipeline, self.work, self.origin = pipeline, work, origin
        self.tool_jobs, self.matrix_override = tool_jobs, matrix_override
        self.stores = sim.Stores(work)
        self.sha = sim.git("rev-parse", "main", cwd=origin).strip()
        self.stages = pipeline.get("stages") or ["build", "test", "deploy"]
        self.jobs = {k: v for k, v in pipeline.items() if k not in KEYWORDS and not k.startswith(".")}
        self.instances = {}  # job -> [instance label]
        self.results = {}
        self.report = []

    def predefined(self, name, label, project_dir: Path) -> dict:
        return {"CI": "true", "GITLAB_CI": "true", "CI_SERVER": "yes", "CI_PROJECT_DIR": str(project_dir),
                "CI_BUILDS_DIR": str(project_dir.parent), "CI_COMMIT_SHA": self.sha, "CI_COMMIT_REF_NAME": "main",
                "CI_COMMIT_BRANCH": "main", "CI_DEFAULT_BRANCH": "main", "CI_JOB_NAME": label,
                "CI_JOB_NAME_SLUG": re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-"), "CI_JOB_ID": "101",
                "CI_JOB_STAGE": self.jobs[name].get("stage", "test"), "CI_PIPELINE_ID": "77",
                "CI_PIPELINE_SOURCE": "push", "CI_PROJECT_NAME": "project", "CI_PROJECT_PATH": "example/project",
                "CI_REPOSITORY_URL": self.origin.resolve().as_uri(), "CI_SERVER_URL": "https://gitlab.invalid"}

    def ordered_jobs(self):
        for job in self.jobs.values():
            if job.get("stage", "test") not in self.stages:
                raise SimulationError(f"stage {job.get('stage')} is not in stages")
        return sorted(self.jobs, key=lambda j: self.stages.index(self.jobs[j].get("stage", "test")))

    def matrix(self, job) -> list:
        parallel = job.get("parallel")
        if parallel is None:
            return [{}]
        if not isinstance(parallel, dict) or "matrix" not in parallel:
            raise SimulationError("only parallel:matrix is simulated")
        combinations = []
        for entry in parallel["matrix"]:
            entry = {k: (self.matrix_override.get(k, v if isinstance(v, list) else [v])) for k, v in entry.items()}
            keys = list(entry)
            combinations += [dict(zip(keys, values)) for values in itertools.product(*(entry[k] for k in keys))]
        return combinations

    def run(self) -> bool:
        for name in self.ordered_jobs():
            job = self.jobs[name]
            if name in self.tool_jobs:
                self.stand_in_tool_job(name, job)
                continue
            needed = [n if isinstance(n, str) else n["job"] for n in job.get("needs", [])]
            if any(self.results.get(n) != "success" for n in needed):
                self.results[name] = "skipped"
                continue
            outcomes = [self.run_job(name, job, values) for values in self.matrix(job)]
            self.results[name] = "success" if all(outcomes) else "failure"
        return all(r == "success" for r in self.results.values())

    def stand_in_tool_job(self, name, job):
        """The job that builds the tool is replaced by its artifact, made
        beforehand from this checkout the same way (cpack)."""
        paths = (job.get("artifacts") or {}).get("paths") or []
        if len(paths) != 1:
            raise SimulationError(f"{name}: expected one artifact path for the tool")
        self.stores.stand_in_tool(name, self.tool_jobs[name], Path(re.split(r"[*?\[]", paths[0])[0]))
        self.instances[name] = [name]
        self.results[name] = "success"
        self.report.append({"job": name, "result": "stand-in"})

    def run_job(self, name, job, matrix) -> bool:
        label = name + (": [" + ", ".join(matrix.values()) + "]" if matrix else "")
        slug = name + "".join(f"-{v}" for v in matrix.values())
        runner = sim.Runner(self.work, slug)
        project_dir = runner.dir / "builds" / "example" / "project"
        variables = self.predefined(name, label, project_dir)
        declared = list((self.pipeline.get("variables") or {}).items()) + list((job.get("variables") or {}).items())
        for key, value in declared:
            variables[key] = expand(value["value"] if isinstance(value, dict) else value, variables)
        variables.update(matrix)
        default = self.pipeline.get("default") or {}
        image = expand(job.get("image", default.get("image", self.pipeline.get("image", ""))), variables)
        if not image.strip():
            raise SimulationError(f"{label}: the image is empty (a variable nothing sets)")
        runner.note(f"image {image}")
        if variables.get("GIT_STRATEGY", "fetch") == "none":
            project_dir.mkdir(parents=True)
        else:
            sim.checkout(self.origin, project_dir, self.sha, int(variables.get("GIT_DEPTH", "0") or 0))
        self.fetch_artifacts(name, job, project_dir)
        cache = job.get("cache", default.get("cache"))
        policy = (cache or {}).get("policy", "pull-push")
        if cache and policy in ("pull", "pull-push"):
            key = expand(cache.get("key", "default"), variables)
            if self.stores.cache(key).is_dir():
                sim.copy_tree(self.stores.cache(key), project_dir)
        lines = flatten(job.get("before_script", default.get("before_script"))) + flatten(job["script"])
        status = runner.run_script("\n".join(lines) + "\n", project_dir, runner.environment(variables), slug)
        ok = status == 0
        if cache and ok and policy in ("push", "pull-push"):
            store = self.stores.cache(expand(cache.get("key", "default"), variables))
            shutil.rmtree(store, ignore_errors=True)
            store.mkdir(parents=True)
            sim.store_files(store, project_dir, [f for p in cache["paths"] for f in sim.expand_files(project_dir, p)])
        artifacts = job.get("artifacts") or {}
        when = artifacts.get("when", "on_success")
        if when == "always" or (when == "on_success") == ok:
            files = [f for p in artifacts.get("paths", []) for f in sim.expand_files(project_dir, expand(p, variables))]
            self.stores.upload(slug, project_dir, files)
            for kind, report in (artifacts.get("reports") or {}).items():
                for file in sim.expand_files(project_dir, report):
                    if kind == "junit":
                        sim.check_junit(file)
                    self.stores.publish(kind, file)
        self.instances.setdefault(name, []).append(slug)
        self.report.append({"job": label, "result": "success" if ok else f"failure ({status})",
                            "runner": str(runner.dir)})
        return ok

    def fetch_artifacts(self, name, job, project_dir: Path):
        if "needs" in job:
            sources = [n if isinstance(n, str) else n["job"] for n in job["needs"]
                       if isinstance(n, str) or n.get("artifacts", True)]
        else:
            stage = self.stages.index(job.get("stage", "test"))
            sources = [j for j in self.instances if self.stages.index(self.jobs[j].get("stage", "test")) < stage]
        for source in sources:
            for slug in self.instances.get(source, []):
                if self.stores.has_artifact(slug):
                    self.stores.download(slug, project_dir)

    def summary(self):
        return {"results": self.results, "jobs": self.report}


def main(pipeline: dict, work: Path, origin: Path, tool_jobs: dict, matrix: dict) -> int:
    simulation = GitLabSimulation(pipeline, work, origin, tool_jobs, matrix)
    ok = simulation.run()
    (work / "report.json").write_text(json.dumps(simulation.summary(), indent=2))
    return 0 if ok else 1
