#!/usr/bin/env python3
"""docs/reference.md from the manual pages in the sources: the /*@ ... @*/ comments of the public functions and
the /*MC ... M*/ ones of the types, as PETSc writes them. `make reference` writes it; `--check FILE` prints a suite
line and a counts line (as make check's suites do) saying whether FILE is current."""
import os
import re
import sys

ROOTS = ('include', 'src')
OPEN = re.compile(r'^/\*(@C?|MC)\s*$')
CLOSE = {'@': '@*/', '@C': '@*/', 'MC': 'M*/'}


def pages():
    """(name, summary, path, text) of every manual page, sorted by name"""
    found = []
    for root in ROOTS:
        for d, _, files in os.walk(root):
            for f in sorted(files):
                if not f.endswith(('.c', '.h')):
                    continue
                path = os.path.join(d, f)
                lines = open(path, encoding='utf-8').read().split('\n')
                i = 0
                while i < len(lines):
                    m = OPEN.match(lines[i])
                    if not m:
                        i += 1
                        continue
                    end, body = CLOSE[m.group(1)], []
                    j = i + 1
                    while j < len(lines) and lines[j].strip() != end:
                        body.append(lines[j][3:] if lines[j].startswith('   ') else lines[j].strip())
                        j += 1
                    head = ' '.join(l.strip() for l in body[:body.index('')] if l) if '' in body else body[0]
                    name, _, summary = head.partition(' - ')
                    if name.startswith('MAT') and ' - ' in summary:  # MATELLG - MATELLG = "ellg" - ...
                        summary = summary.partition(' - ')[2]
                    found.append((name.strip(), summary.strip(), path.replace(os.sep, '/'), '\n'.join(body).strip()))
                    i = j + 1
    return sorted(found, key=lambda p: p[0].lower())


def reference():
    out = ['# Reference', '',
           '[Back to the README](../README.md) · [Options](options.md) · [Usage](usage.md)', '',
           'The manual pages of the public functions and types, as the comments in the sources give them '
           '(`/*@ ... @*/`, `/*MC ... M*/`, PETSc\'s form). This file is made from them by `make reference`; '
           '`make check` fails when it is not current.', '',
           '| name | what | source |', '| --- | --- | --- |']
    ps = pages()
    for name, summary, path, _ in ps:
        cell = summary.replace('|', '\\|')
        out.append(f'| [{name}](#{name.lower()}) | {cell} | [{path}](../{path}) |')
    for name, summary, path, text in ps:
        out += ['', f'## {name}', '', f'[{path}](../{path})', '', '```text', text, '```']
    return '\n'.join(out) + '\n'


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--check':
        current = os.path.exists(sys.argv[2]) and open(sys.argv[2], encoding='utf-8').read() == reference()
        print(f"{'reference:':<26} {int(current):4d} ok, {int(not current)} not ok, 0 skipped")
        if not current:
            print(f'    not ok: {sys.argv[2]} is not what the manual pages give: run make reference')
        print(f'counts {int(current)} {int(not current)} 0')
        sys.exit(0 if current else 1)
    sys.stdout.write(reference())


if __name__ == '__main__':
    main()
