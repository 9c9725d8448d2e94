"""Runs a GitHub Actions workflow's jobs on simulated runners: `run:` steps
as bash scripts with the variables a runner sets, `uses:` steps of the
actions the templates use done as local copies."""
import itertools
import json
import os
import re
import shutil
from pathlib import Path

import sim_common as sim
from sim_common import SimulationError

TOKEN = re.compile(r"\s+|'(?:[^']|'')*'|==|!=|&&|\|\||!|\(|\)|,|[A-Za-z_][\w.\-*]*|\d+(?:\.\d+)?")


def key_values(file: Path) -> dict:
    """NAME=value lines of a GITHUB_OUTPUT or GITHUB_ENV file."""
    return dict(line.split("=", 1) for line in file.read_text().splitlines() if "=" in line)


class Expressions:
    """GitHub's expression language, as much as the templates use: contexts,
    literals, ! && || == !=, and the status and hashFiles functions."""

    def __init__(self, contexts: dict, workspace: Path, job_failed: bool = False):
        self.contexts, self.workspace, self.job_failed = contexts, workspace, job_failed

    def lookup(self, name: str):
        value = self.contexts
        for part in name.split("."):
            if not isinstance(value, dict) or part not in value:
                return None
            value = value[part]
        return value

    def hash_files(self, *patterns):
        files = [f for p in patterns for f in sim.expand_files(self.workspace, p)]
        return "hash-of-" + str(len(files)) if files else ""

    def evaluate(self, expression: str):
        tokens = [t for t in TOKEN.findall(expression) if not t.isspace()]
        if "".join(tokens).replace(" ", "") != re.sub(r"\s+", "", expression):
            raise SimulationError(f"expression not understood: {expression}")
        functions = {"success": lambda: not self.job_failed, "failure": lambda: self.job_failed,
                     "always": lambda: True, "cancelled": lambda: False, "hashFiles": self.hash_files}
        python = []
        for i, token in enumerate(tokens):
            following = tokens[i + 1] if i + 1 < len(tokens) else ""
            if token == "&&":
                python.append(" and ")
            elif token == "||":
                python.append(" or ")
            elif token == "!":
                python.append(" not ")
            elif token.startswith("'"):
                python.append(repr(token[1:-1].replace("''", "'")))
            elif token in ("true", "false", "null"):
                python.append({"true": "True", "false": "False", "null": "None"}[token])
            elif re.match(r"[A-Za-z_]", token):
                python.append(f"_f[{token!r}]" if following == "(" else f"_l({token!r})")
            else:
                python.append(token)
        return eval("".join(python), {"__builtins__": {}}, {"_f": functions, "_l": self.lookup})

    def substitute(self, text: str) -> str:
        def value(match):
            result = self.evaluate(match.group(1))
            return "" if result is None else str(result).lower() if isinstance(result, bool) else str(result)
        return re.sub(r"\$\{\{(.*?)\}\}", value, text)

    def condition(self, expression) -> bool:
        if expression is None:
            return not self.job_failed
        text = str(expression).strip()
        if text.startswith("${{") and text.endswith("}}"):
            text = text[3:-2]
        if not re.search(r"\b(success|failure|always|cancelled)\(", text):
            text = f"success() && ({text})"
        return bool(self.evaluate(text))


class GitHubSimulation:
    def __init__(self, workflow: dict, work: Path, origin: Path, tool_jobs: dict, matrix_override: dict):
        self.workflow, self.work, self.origin = workflow, work, origin
        self.tool_jobs, self.matrix_override = tool_jobs, matrix_override
        self.stores = sim.Stores(work)
        self.results = {}
        self.report = []
        base = {"base_ref": "main", "head_ref": "hydra-task", "event_name": "pull_request", "run_id": "4242",
                "run_attempt": "1", "repository": "example/project", "ref": "refs/pull/7/merge",
                "server_url": "https://github.invalid", "actor": "ci"}
        self.github = base
        env_expressions = Expressions({"github": base, "inputs": {}, "vars": {}}, work)
        self.env = {k: env_expressions.substitute(str(v)) for k, v in (workflow.get("env") or {}).items()}

    def order(self):
        jobs = self.workflow["jobs"]
        done, ordered = set(), []
        while len(ordered) < len(jobs):
            ready = [j for j in jobs if j not in done and set(self.needs(j)) <= done]
            if not ready:
                raise SimulationError("jobs' needs form a cycle")
            for job in ready:
                done.add(job)
                ordered.append(job)
        return ordered

    def needs(self, job):
        needs = self.workflow["jobs"][job].get("needs") or []
        return [needs] if isinstance(needs, str) else needs

    def run(self) -> bool:
        for name in self.order():
            job = self.workflow["jobs"][name]
            needs = {n: {"result": self.results[n]} for n in self.needs(name)}
            if name in self.tool_jobs:
                self.stand_in_tool_job(name, job)
                continue
            expressions = Expressions({"github": self.github, "needs": needs, "env": self.env}, self.work,
                                      job_failed=any(n["result"] != "success" for n in needs.values()))
            if not expressions.condition(job.get("if")):
                self.results[name] = "skipped"
                continue
            outcomes = [self.run_job(name, job, needs, values) for values in self.matrix(name, job)]
            self.results[name] = "success" if all(outcomes) else "failure"
        return all(r in ("success", "skipped") for r in self.results.values())

    def matrix(self, name, job):
        matrix = dict((job.get("strategy") or {}).get("matrix") or {})
        for key in ("include", "exclude"):
            if key in matrix:
                raise SimulationError(f"{name}: matrix {key} is not simulated")
        matrix.update({k: v for k, v in self.matrix_override.items() if k in matrix})
        keys = list(matrix)
        return [dict(zip(keys, values)) for values in itertools.product(*(matrix[k] for k in keys))] or [{}]

    def stand_in_tool_job(self, name, job):
        """The job that builds the tool is replaced by its artifact, made
        beforehand from this checkout the same way (cpack)."""
        uploads = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/upload-artifact")]
        if len(uploads) != 1:
            raise SimulationError(f"{name}: expected one upload-artifact step for the tool")
        self.stores.stand_in_tool(uploads[0]["with"]["name"], self.tool_jobs[name])
        self.results[name] = "success"
        self.report.append({"job": name, "result": "stand-in", "artifact": uploads[0]["with"]["name"]})

    def run_job(self, name, job, needs, matrix) -> bool:
        label = name + "".join(f"-{v}" for v in matrix.values())
        runner = sim.Runner(self.work, label)
        workspace = runner.dir / "work" / "project" / "project"
        workspace.mkdir(parents=True)
        steps_context = {}
        contexts = {"github": dict(self.github, workspace=str(workspace), job=name), "needs": needs,
                    "matrix": matrix, "inputs": {}, "vars": {}, "steps": steps_context,
                    "runner": {"temp": str(runner.temp), "os": "Linux", "arch": "X64",
                               "tool_cache": str(runner.dir / "toolcache")}}
        expressions = Expressions(contexts, workspace)
        job_env = dict(self.env)
        contexts["env"] = job_env
        for key, value in (job.get("env") or {}).items():
            job_env[key] = expressions.substitute(str(value))
        path_prepend = []
        failed = False
        for index, step in enumerate(job.get("steps") or []):
            expressions.job_failed = failed
            if not expressions.condition(step.get("if")):
                runner.note(f"=== step {index} skipped")
                continue
            files = {n: runner.temp / f"{n}-{index}" for n in ("GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT")}
            for file in files.values():
                file.touch()
            step_env = dict(job_env)
            step_env.update({k: expressions.substitute(str(v)) for k, v in (step.get("env") or {}).items()})
            variables = dict(step_env, GITHUB_ACTIONS="true", GITHUB_WORKSPACE=workspace, RUNNER_TEMP=runner.temp,
                             RUNNER_OS="Linux", GITHUB_JOB=name, GITHUB_STEP_SUMMARY=runner.dir / "summary.md",
                             GITHUB_RUN_ID=self.github["run_id"], GITHUB_RUN_ATTEMPT=self.github["run_attempt"],
                             GITHUB_REPOSITORY=self.github["repository"], GITHUB_BASE_REF=self.github["base_ref"],
                             GITHUB_HEAD_REF=self.github["head_ref"], GITHUB_EVENT_NAME=self.github["event_name"],
                             GITHUB_REF=self.github["ref"], **files)
            env = runner.environment(variables)
            env["PATH"] = ":".join(path_prepend[::-1] + [env["PATH"]])
            try:
                if "run" in step:
                    ok = runner.run_script(expressions.substitute(step["run"]), workspace /
                                           (step.get("working-directory") or ""), env, f"{index}") == 0
                else:
                    ok = self.action(step, expressions, workspace, runner)
            except SimulationError as error:
                runner.note(f"error: {error}")
                ok = False
            outputs = key_values(files["GITHUB_OUTPUT"])
            if step.get("id"):
                steps_context[step["id"]] = {"outputs": outputs, "outcome": "success" if ok else "failure"}
            path_prepend += [line for line in files["GITHUB_PATH"].read_text().splitlines() if line]
            job_env.update(key_values(files["GITHUB_ENV"]))
            if not ok:
                runner.note(f"=== step {index} ({step.get('name', step.get('uses', 'run'))}) failed")
                failed = True
        self.report.append({"job": label, "result": "failure" if failed else "success", "runner": str(runner.dir)})
        return not failed

    def action(self, step, expressions, workspace: Path, runner) -> bool:
        uses = step["uses"].split("@")[0]
        given = {k: expressions.substitute(str(v)) for k, v in (step.get("with") or {}).items()}
        if uses == "actions/checkout":
            if given.get("repository"):
                raise SimulationError(f"checkout of another repository {given['repository']} is not simulated")
            sim.checkout(self.origin, workspace / given.get("path", ""), given.get("ref") or self.github["base_ref"],
                         int(given.get("fetch-depth", "1")))
        elif uses == "actions/upload-artifact":
            if self.stores.has_artifact(given["name"]):
                raise SimulationError(f"artifact {given['name']} uploaded twice")
            patterns = [p.strip() for p in given["path"].splitlines() if p.strip()]
            hidden = given.get("include-hidden-files", "false") == "true"
            files = [f for p in patterns for f in sim.expand_files(workspace, p, hidden)]
            if not files:
                if given.get("if-no-files-found", "warn") == "error":
                    raise SimulationError(f"artifact {given['name']}: no files found at {patterns}")
                return True
            bases = [workspace / re.split(r"[*?\[]", p)[0] for p in patterns]
            bases = [b if (b.is_dir() and len(patterns) == 1 and not re.search(r"[*?\[]", patterns[0])) else b.parent
                     for b in bases]
            root = Path(os.path.commonpath([str(b) for b in bases]))
            self.stores.upload(given["name"], root, files, once=True)
        elif uses == "actions/download-artifact":
            destination = Path(given.get("path") or workspace)
            destination = destination if destination.is_absolute() else workspace / destination
            if "name" in given:
                self.stores.download(given["name"], destination)
            else:
                for name in self.stores.artifact_names(given.get("pattern", "*")):
                    self.stores.download(name, destination / name)
        elif uses in ("actions/cache/restore", "actions/cache/save"):
            paths = [p.strip() for p in given["path"].splitlines() if p.strip()]
            if uses.endswith("save"):
                store = self.stores.cache(given["key"])
                if store.exists():
                    runner.note(f"cache {given['key']} exists; not saved again")
                    return True
                store.mkdir(parents=True)
                # A path outside the workspace (the runner's temporary folder)
                # is kept by its position in the list and restored to where
                # the same path names on the restoring runner.
                for index, path in enumerate(paths):
                    if Path(path).is_absolute():
                        if Path(path).is_dir():
                            shutil.copytree(path, store / f".absolute-{index}", symlinks=True)
                    else:
                        sim.store_files(store, workspace, sim.expand_files(workspace, path))
            else:
                keys = [given["key"]] + [k.strip() for k in given.get("restore-keys", "").splitlines() if k.strip()]
                for key in keys:
                    hits = sorted((s for s in self.stores.caches.iterdir() if s.name.startswith(key)),
                                  key=lambda s: s.stat().st_mtime, reverse=True)
                    if hits:
                        for index, path in enumerate(paths):
                            kept = hits[0] / f".absolute-{index}"
                            if Path(path).is_absolute() and kept.is_dir():
                                shutil.copytree(kept, path, symlinks=True, dirs_exist_ok=True)
                        relative = [item for item in hits[0].iterdir() if not item.name.startswith(".absolute-")]
                        for item in relative:
                            target = workspace / item.name
                            if item.is_dir():
                                shutil.copytree(item, target, symlinks=True, dirs_exist_ok=True)
                            else:
                                shutil.copy2(item, target, follow_symlinks=False)
                        runner.note(f"cache restored from {hits[0].name}")
                        break
        elif uses == "github/codeql-action/upload-sarif":
            file = workspace / given["sarif_file"]
            sim.check_sarif(file)
            self.stores.publish("code-scanning", file, f"{given.get('category', 'default')}.sarif")
        elif uses == "mikepenz/action-junit-report":
            for file in sim.expand_files(workspace, given["report_paths"]):
                sim.check_junit(file)
                self.stores.publish("checks", file)
        else:
            raise SimulationError(f"action {uses} is not simulated")
        runner.note(f"=== {uses} done")
        return True

    def summary(self):
        return {"results": self.results, "jobs": self.report}


def main(workflow: dict, work: Path, origin: Path, tool_jobs: dict, matrix: dict) -> int:
    simulation = GitHubSimulation(workflow, work, origin, tool_jobs, matrix)
    ok = simulation.run()
    (work / "report.json").write_text(json.dumps(simulation.summary(), indent=2))
    return 0 if ok else 1
