#!/usr/bin/env python3
"""Every function a .cpp of the folders given defines outside an anonymous
namespace is declared in the header of its own file (x.cpp: x.hpp), and in no
other header of its namespace; every function a header of those folders
declares is defined in its own .cpp. Needs Universal Ctags (CTAGS names it;
default: ctags on the PATH).

  scripts/check_declarations.py src/hydra/capture src/hydra/apply
"""
import collections
import json
import os
import pathlib
import re
import subprocess
import sys


def tags(paths):
    out = subprocess.run([os.environ.get('CTAGS') or 'ctags', '--output-format=json', '--fields=+S+s+K+n+e', '--c++-kinds=+p', '-f', '-',
                          '--language-force=c++'] + [str(p) for p in paths],
                         capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith('{')]


def free(tag):
    """A function (or prototype) at namespace scope, outside anonymous namespaces."""
    return tag.get('scopeKind', 'namespace') == 'namespace' and '__anon' not in tag.get('scope', '')


folders = [pathlib.Path(a) for a in sys.argv[1:]] or [pathlib.Path('src/hydra/capture'), pathlib.Path('src/hydra/apply')]
library = pathlib.Path('src/hydra')
declared = collections.defaultdict(set)  # (namespace, name) -> headers
for tag in tags(sorted(library.rglob('*.hpp'))):
    if tag.get('kind') == 'prototype' and free(tag):
        declared[(tag.get('scope', ''), tag['name'])].add(tag['path'])
defined = collections.defaultdict(set)  # (namespace, name) -> sources
for tag in tags(sorted(library.rglob('*.cpp'))):
    if tag.get('kind') == 'function' and free(tag):
        defined[(tag.get('scope', ''), tag['name'])].add(tag['path'])

problems = []
for folder in folders:
    for cpp in sorted(folder.rglob('*.cpp')):
        own = str(cpp.with_suffix('.hpp'))
        for tag in tags([cpp]):
            if tag.get('kind') != 'function' or not free(tag):
                continue
            if re.match(r'\s*static\b', tag.get('pattern', '/^')[2:]):
                continue
            key = (tag.get('scope', ''), tag['name'])
            where = declared.get(key, set())
            if own not in where:
                problems.append(f'{cpp}:{tag["line"]}: {tag["name"]} is not declared in {own}')
            for other in sorted(where - {own}):
                problems.append(f'{cpp}:{tag["line"]}: {tag["name"]} is declared in {other}, not only in {own}')
    for hpp in sorted(folder.rglob('*.hpp')):
        own = str(hpp.with_suffix('.cpp'))
        for tag in tags([hpp]):
            if tag.get('kind') == 'prototype' and free(tag):
                where = defined.get((tag.get('scope', ''), tag['name']), set())
                if own not in where:
                    problems.append(f'{hpp}:{tag["line"]}: {tag["name"]} is defined in '
                                    f'{", ".join(sorted(where)) or "no source"}, not in {own}')
for problem in problems:
    print(problem)
print(f'{len(problems)} problem(s)')
sys.exit(1 if problems else 0)
