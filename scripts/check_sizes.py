#!/usr/bin/env python3
"""Functions over 150 lines and files over 500 lines in the folders given
(scripts/check_sizes.py src/hydra; -v lists every function).

A function counts from the first line of its signature to its closing brace,
braces matched in the code with comments, strings and character literals
blanked out; lambdas and local classes count with the function around them."""
import re, sys, pathlib
LIMIT, FILE_LIMIT = 150, 500

def blank(text):
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i); j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i-1].isalnum() or text[i-1] == '_')):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(')' + m.group(1) + '"', i)
            j = end + len(m.group(1)) + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + ' ' * (j - i - 1) + c); i = j + 1
        else:
            out.append(c); i += 1
    return ''.join(out)

def functions(path):
    code = blank(path.read_text())
    lines = code.split('\n')
    depth, stack, found = 0, [], []
    for ln, line in enumerate(lines, 1):
        for col, ch in enumerate(line):
            if ch == '{':
                before = code_before(lines, ln, col)
                is_fn = depth_is_scope(stack) and re.search(r'\)\s*(const|noexcept|override|final|->[^{;]*|\s|:[^;{]*)*$', before) and not re.search(r'\b(if|for|while|switch|catch)\s*\(.*\)\s*$', before.split('\n')[-1]) and not re.search(r'(=|return|\[[^\]]*\]\s*\([^)]*\)\s*(mutable\s*)?(->[^{]*)?)\s*$', before)
                start = signature_start(lines, ln) if is_fn else ln
                stack.append((is_fn, start, before))
                depth += 1
            elif ch == '}':
                if stack:
                    is_fn, start, before = stack.pop()
                    if is_fn:
                        name = re.findall(r'([~\w:]+)\s*\(', before.replace('\n', ' '))
                        found.append((ln - start + 1, start, name[0] if name else '?'))
                depth -= 1
    return found

def depth_is_scope(stack):
    # functions are defined at namespace scope (or in a class at namespace scope)
    return all(not fn for fn, _, b in stack)

def code_before(lines, ln, col):
    text = '\n'.join(lines[max(0, ln - 8):ln - 1] + [lines[ln - 1][:col]])
    # keep only what follows the last ; { or }
    cut = max(text.rfind(';'), text.rfind('{'), text.rfind('}'))
    return text[cut + 1:].strip()

def signature_start(lines, ln):
    s = ln
    while s > 1 and lines[s - 2].strip() and not re.search(r'[;{}]\s*$', lines[s - 2]) and not lines[s - 2].strip().startswith('#'):
        s -= 1
    return s

bad = 0
for folder in sys.argv[1:]:
    for path in sorted(pathlib.Path(folder).rglob('*')):
        if path.suffix not in ('.cpp', '.hpp'):
            continue
        count = len(path.read_text().split('\n')) - 1
        if count > FILE_LIMIT:
            print(f'{path}: {count} lines (over {FILE_LIMIT})'); bad += 1
        for size, start, name in functions(path):
            if size > LIMIT or '-v' in sys.argv:
                print(f'{path}:{start}: {name}: {size} lines' + (f' (over {LIMIT})' if size > LIMIT else '')); bad += size > LIMIT
sys.exit(1 if bad else 0)
