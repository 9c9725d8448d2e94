#!/usr/bin/env python3
"""The Python reference the parser benchmark compares against: the obvious
Python implementation of the same job, timed the same way (best of N runs of
reading and parsing the file).

- junit: xml.etree.ElementTree.parse, then iterate the testcases and read
  name, time, status and the <skipped>/<failure> children;
- tidy: re over the log's lines for "path:line:col: warning|error: message [checks]".

Usage: reference_parsers.py junit|tidy FILE [repeats]
Prints: "<parser> <items> <best seconds>"
"""
import re
import sys
import time
import xml.etree.ElementTree as ElementTree

DIAGNOSTIC = re.compile(r'^(.+?):(\d+):(\d+): (warning|error): (.*?)(?: \[([^\] ]+)\])?$')


def parse_junit(path):
    tests = []
    for case in ElementTree.parse(path).getroot().iter('testcase'):
        skipped = case.find('skipped')
        tests.append((case.get('name'), float(case.get('time', '0')), case.get('status'),
                      skipped.get('message') if skipped is not None else None,
                      case.find('failure') is not None))
    return len(tests)


def parse_tidy(path):
    seen = set()
    findings = []
    with open(path, encoding='utf-8') as log:
        for line in log:
            match = DIAGNOSTIC.match(line.rstrip('\n'))
            if not match:
                continue
            key = match.group(1, 2, 3, 5, 6)
            if key in seen:
                continue
            seen.add(key)
            findings.append(match.groups())
    return len(findings)


def main():
    parser, path = sys.argv[1], sys.argv[2]
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    parse = {'junit': parse_junit, 'tidy': parse_tidy}[parser]
    best = float('inf')
    items = 0
    for _ in range(repeats):
        start = time.perf_counter()
        items = parse(path)
        best = min(best, time.perf_counter() - start)
    print('%s %d %.4f' % (parser, items, best))


if __name__ == '__main__':
    main()
