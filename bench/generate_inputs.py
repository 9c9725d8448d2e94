#!/usr/bin/env python3
"""Generates the parser benchmark's inputs (never committed):

- ctest_junit_200k.xml: 200,000 testcases in the shape of CTest's
  --output-junit (tests/fixtures/parse/ctest_junit.xml), about 45 MB;
- clang_tidy_1m.log: 1,000,000 diagnostics in the shape of clang-tidy's
  output (tests/fixtures/parse/clang_tidy.log), about 150 MB; one in ten
  repeats an earlier header finding, as a header seen from several
  translation units does.

Usage: generate_inputs.py OUT_DIR [--tests N] [--diagnostics N]
"""
import argparse
import os


def write_junit(path, count):
    statuses = [
        ('run', None, 'ok: all %d checks passed\n'),
        ('run', None, 'ok: all %d checks passed\n'),
        ('run', None, 'ok: all %d checks passed\n'),
        ('run', None, 'ok: all %d checks passed\n'),
        ('run', None, 'ok: all %d checks passed\n'),
        ('run', None, 'ok: all %d checks passed\n'),
        ('fail', '<failure message=""/>', 'expected 1, got %d\n'),
        ('notrun', '<skipped message="SKIP_RETURN_CODE=77"/>', 'no GPU here (%d)\n'),
        ('notrun', '<skipped message="Unable to find executable"/>',
         'Unable to find executable: /home/ci/build/missing-tool-%d'),
        ('disabled', None, 'Disabled %d'),
    ]
    with open(path, 'w', encoding='utf-8') as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<testsuite name="ci-runner-07"\n\ttests="%d"\n\tfailures="0"\n\tdisabled="0"\n'
                  '\tskipped="0"\n\thostname=""\n\ttime="0"\n\ttimestamp="2024-05-01T12:00:00"\n\t>\n' % count)
        chunk = []
        for i in range(count):
            status, child, output = statuses[i % len(statuses)]
            name = 'module%03d.case_%06d&lt;int&gt;' % (i % 500, i)
            chunk.append('\t<testcase name="%s" classname="%s" time="0.00%06d" status="%s">\n'
                         % (name, name, i % 1000000, status))
            if child:
                chunk.append('\t\t%s\n' % child)
            chunk.append('\t\t<system-out>%s</system-out>\n\t</testcase>\n' % (output % i))
            if len(chunk) > 30000:
                out.write(''.join(chunk))
                chunk = []
        out.write(''.join(chunk))
        out.write('</testsuite>\n')


def write_tidy_log(path, count):
    checks = ['readability-braces-around-statements', 'bugprone-branch-clone',
              'cppcoreguidelines-avoid-magic-numbers,readability-magic-numbers',
              'modernize-use-nullptr', 'bugprone-integer-division,-warnings-as-errors']
    messages = ['statement should be inside braces', 'if with identical then and else branches',
                '42 is a magic number; consider replacing it with a named constant', 'use nullptr',
                'result of integer division used in a floating point context; possible loss of precision']
    with open(path, 'w', encoding='utf-8') as out:
        chunk = []
        for i in range(count):
            if i % 10 == 9:
                # A header finding seen again from another translation unit.
                n = i - 9
                file = '/ci/include/geometry_%04d.hpp' % (n % 2000)
            else:
                n = i
                file = '/ci/src/m%04d/file_%02d.cpp' % (n % 2000, (n // 2000) % 50)
            kind = n % len(checks)
            severity = 'error' if kind == 4 else 'warning'
            line, column = 10 + n // 100000 + 7 * (n % 3), 3 + n % 16
            if i % 1000 == 0:
                chunk.append('%d warnings generated.\n' % (1000 + i % 997))
            chunk.append('%s:%d:%d: %s: %s [%s]\n' % (file, line, column, severity, messages[kind], checks[kind]))
            chunk.append('  if (v%d > 42) return;\n' % n)
            chunk.append('%s^\n' % (' ' * (column - 1)))
            if len(chunk) > 30000:
                out.write(''.join(chunk))
                chunk = []
        chunk.append('Suppressed 9731 warnings (9731 in non-user code).\n')
        out.write(''.join(chunk))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('out_dir')
    parser.add_argument('--tests', type=int, default=200000)
    parser.add_argument('--diagnostics', type=int, default=1000000)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    write_junit(os.path.join(args.out_dir, 'ctest_junit_%dk.xml' % (args.tests // 1000)), args.tests)
    write_tidy_log(os.path.join(args.out_dir, 'clang_tidy_%dk.log' % (args.diagnostics // 1000)),
                   args.diagnostics)


if __name__ == '__main__':
    main()
