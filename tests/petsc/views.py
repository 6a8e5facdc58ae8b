#!/usr/bin/env python3
"""The :type-names rule of tests/petsc/report.py against what our types' views print.

make check-petsc counts a PETSc test whose output shows the matrix or vector type as passed when its
output, with our type names read as PETSc's and the info lines of our formats left out
(report.type_names(), report.INFO_LINE), is PETSc's expected output. This checks that rule on the
views themselves: PETSc's ksp ex2 (built by check-petsc-ci in its aij folder) runs with -ksp_view,
-mat_view ::ascii_info and each preconditioner below, first plainly (aij), then with each of our types
put in as make check-petsc puts them in (--options, with {type} for the type); the output of each type,
read through the rule, must be aij's. A line of a view the rule does not know, a type name it does not
read, fails the case with the lines that differ. Numbers compare to a relative 1e-5 (eigenvalue
estimates that a view prints come from products in another order).

Prints a suite line "views, :type-names rule:  N ok, M not ok, K skipped", the failures, then
"counts N M K" for make check's total.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

# (name, processes, options of ksp ex2): views of every kind our types add lines to: the matrix's info
# view, factors (ILU, ICC: the factor package), SOR (the MatSOR line), multigrid levels made by
# products (GAMG), and the parallel types' blocks (block Jacobi, ASM, at 2 and 3 processes)
CASES = [
    ('ilu', 1, '-pc_type ilu -mat_view ::ascii_info'),
    ('icc', 1, '-pc_type icc'),
    ('sor', 1, '-pc_type sor'),
    ('gamg', 1, '-pc_type gamg -m 16 -n 16'),
    ('bjacobi', 2, '-pc_type bjacobi -mat_view ::ascii_info'),
    ('asm', 3, '-pc_type asm -sub_pc_type ilu'),
]
COMMON = '-ksp_view -m 8 -n 8'
NUMBER = re.compile(r'[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?')


def run(cmd):
    """the output of a run, or None and why it failed"""
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300,
                           errors='replace')
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    if r.returncode:
        last = r.stdout.strip().splitlines()
        return None, 'exit status %d: %s' % (r.returncode, last[-1] if last else 'no output')
    return r.stdout, ''


def through_rule(text, names):
    """the output as the rule reads it (report.normalize on lines)"""
    out = []
    for line in text.splitlines():
        if report.INFO_LINE.match(line):
            continue
        for pat, rep in names:
            line = pat.sub(rep, line)
        out.append(line)
    return out


def same_line(a, b):
    """equal, numbers to a relative 1e-5"""
    if a == b:
        return True
    if NUMBER.sub('#', a) != NUMBER.sub('#', b):
        return False
    for x, y in zip(NUMBER.findall(a), NUMBER.findall(b)):
        x, y = float(x), float(y)
        if abs(x - y) > 1e-5 * max(abs(x), abs(y)):
            return False
    return True


def differences(ref, got):
    """the first lines that differ (at most 6), empty when none"""
    out = []
    for k in range(max(len(ref), len(got))):
        a = ref[k] if k < len(ref) else '<none>'
        b = got[k] if k < len(got) else '<none>'
        if not same_line(a, b):
            out.append('line %d: aij "%s", read from the type "%s"' % (k + 1, a.strip(), b.strip()))
            if len(out) == 6:
                break
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--program', required=True, help="PETSc's ksp/ksp/tutorials ex2, built")
    ap.add_argument('--types', required=True)
    ap.add_argument('--options', required=True, help='the options that put a type in, with {type}')
    ap.add_argument('--mpiexec', default='mpiexec')
    a = ap.parse_args()
    types = a.types.split()
    names = report.type_names(types)
    ok, bad, skipped, notes = 0, 0, 0, []
    if not os.access(a.program, os.X_OK):
        skipped = len(CASES) * len(types)
        notes.append('    skipped: %s is not built (make check-petsc-ci builds it)' % a.program)
    else:
        for case, nproc, opts in CASES:
            launch = shlex.split(a.mpiexec) + ['-n', str(nproc), a.program] + shlex.split(COMMON + ' ' + opts)
            ref, why = run(launch + ['-options_left', 'no'])
            if ref is None:
                bad += len(types)
                notes.append('    not ok: %s with aij: %s' % (case, why))
                continue
            ref = [l for l in ref.splitlines() if not l.startswith('Norm of error')]
            for t in types:
                got, why = run(launch + shlex.split(a.options.replace('{type}', t)))
                diff = differences(ref, [l for l in through_rule(got, names) if not l.startswith('Norm of error')]) if got is not None else [why]
                if diff:
                    bad += 1
                    notes.append('    not ok: %s with %s:\n%s' % (case, t, '\n'.join('      ' + d for d in diff)))
                else:
                    ok += 1
    print('%-26s %4d ok, %d not ok, %d skipped' % ('views, :type-names rule:', ok, bad, skipped))
    for n in notes:
        print(n)
    print('counts %d %d %d' % (ok, bad, skipped))


if __name__ == '__main__':
    main()
