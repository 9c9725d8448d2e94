#!/usr/bin/env python3
"""Prints, from a CTest log (Testing/Temporary/LastTest.log), each failed
test's failed checks in a few lines: the line that failed and its expansion,
without the long messages a test attaches. A CI log that shows only its end
then still tells which check failed.

Usage: failure_digest.py LOG [MAX_LINES]
"""
import re
import sys

WIDTH = 160


def failed_tests(text):
    """(name, output) of every test whose section ends in 'Test Failed.'."""
    sections = re.split(r"\n(?=\d+/\d+ Testing: )", text)
    for section in sections:
        header = re.match(r"\d+/\d+ Testing: (.*)", section)
        if not header or "\nTest Failed." not in section:
            continue
        output = section.split("\n----------------------------------------------------------\n", 1)
        body = output[1] if len(output) > 1 else section
        yield header.group(1), body.split("<end of output>", 1)[0]


def digest(output):
    """The lines naming a failed check (Catch2's FAILED:, GoogleTest's Failure)
    and the two or three lines after each, cut to WIDTH."""
    lines = output.splitlines()
    kept = []
    for index, line in enumerate(lines):
        if re.search(r"(FAILED:|Failure$|: error:|Timeout|Exception)", line):
            for follow in lines[index - 1 : index + 5]:
                if follow.strip() and follow.strip() not in ("with expansion:", "with message:", "with messages:"):
                    kept.append("    " + follow.strip()[:WIDTH])
            kept.append("")
    return kept or ["    " + line[:WIDTH] for line in lines[-6:]]


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 90
    try:
        with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
            text = log.read()
    except OSError as error:
        print(f"failure_digest.py: {sys.argv[1]}: {error.strerror}", file=sys.stderr)
        return 1
    out = []
    for name, output in failed_tests(text):
        out.append(f"FAILED {name}")
        out.extend(digest(output))
    if not out:
        out = ["no failed test in " + sys.argv[1]]
    print("\n".join(out[:limit]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
