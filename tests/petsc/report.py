#!/usr/bin/env python3
"""Compare PETSc harness runs of one suite: the baseline (plain aij) against each of our types.

    report.py --dir arch/petsc-tests/<suite> --types "ellg pjds slicedell"
                    [--tap-log test__tap.log]
                    [--exclusions tests/petsc/exclusions.txt] [--expected "<test> ..."]
                    [--controls "aij aijperm"] [--title <text>] [--search "<pattern> ..."]
                    [--counts | --failed-tests | --passed-tests]

<dir>/<type>/<tap log> is the TAP log of a harness run (<type> = aij for the baseline; --tap-log, default
test__tap.log, names it as the harness does: PETSC_TAPLOG in conf/ellg.mk). A test
case is one TAP label (a test, or one value of a {{...}} loop: ksp_ksp_tutorials-ex2_1,
snes_tutorials-ex19_1+nsize-2); it passes when its run and its diff are "ok". A case counts for a
type only when it passed with aij; it then passes, fails (not ok, timed out, or no line: it did
not run) or is excluded by the exclusion file:

    <pattern> <reason>       the cases whose name, or the name of whose test (before "+"),
                             matches the shell pattern
    :type-names <reason>     the cases whose output differs from PETSc's expected output only in
                             the names of our types and the info lines of our formats: their
                             output, with seqaijellg etc. read as seqaij, seqgpu as seq, our factor
                             package ellg as petsc, and those
                             lines left out, passes the test's own diff (petscdiff with the
                             test's filters). A loop case is run again for this, as the harness
                             keeps only the output of a loop's last value.
    :fails-with-aij <reason> the cases that fail (other than by a timeout) in the control run
                             with -mat_type aij -dm_mat_type aij, PETSc alone (--controls aij)

--controls names the control runs <dir>/control-<c> (the failing tests again, with -mat_type <c>
-dm_mat_type <c> and without our library; see tests/petsc/petsc.mk): each failure says whether the test
fails there too, i.e. whether plain PETSc with that matrix type (aij: the option itself;
aijperm: an AIJ subclass of PETSc's own) fails it as well.

--expected names the tests that have to pass with aij too (the CI subset): one of them that fails
or does not run with aij is a failure of the baseline. Without it, cases that fail with aij are
listed but do not count (they are PETSc's or the machine's, not ours).

Prints per type "<type>: N passed, M failed (K excluded, baseline B)", a table group x type
(passed/counted %, excluded; counted = B - K), the exclusions used, the failures, and a last
line "N passed, M failed, K excluded" over all types; with --counts "counts N M K" lines (for
check_total in conf/test.mk) instead of the last line. --failed-tests prints only the tests
(make targets) with a case that failed with one of the types, for the control runs;
--passed-tests the tests with a case that passed with aij, which the types then run. --search
keeps only the tests that match one of the harness's gmakesearch patterns (% matches any text),
the part of the suite that a narrower run ran. Exit status 1 when a case failed or none passed.
"""
import argparse
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile

TAPLOG = 'test__tap.log'                # the default of --tap-log
TYPE_NAMES_RULE = ':type-names'
AIJ_RULE = ':fails-with-aij'

# What our types change in views: their names (type_names()), and the lines of the stored format
# that the ASCII info view of our matrices adds (format, kernel, device bytes, backend, ...)
INFO_LINE = re.compile(r'^\s*(aijgpu chose |format: |ELLG width |column indices: |kernel[: ]|long rows: |pJDS |SELL-C-sigma: |'
                       r'\(options since the build|slices \d|device bytes: |update buffers: |backend: |'
                       r'rank 0, (off-)?diagonal block:|halo exchange: |CSRG rows |MatSOR: )')


def type_names(types):
    """[(pattern, replacement)]: the seq and mpi names of our matrix types (root r: seqaij<r>, or seq<r>
    for a root that begins with aij) read as SeqAIJ's and MPIAIJ's, our vectors as PETSc's, and our
    factor package as PETSc's"""
    names = sorted(set(t if t.startswith('aij') else 'aij' + t for t in types))
    pats = [(re.compile(r'\b(seq|mpi)gpu\b'), r'\1'),
            (re.compile(r'(package used to perform factorization:) ellg\b'), r'\1 petsc')]
    if names:
        pats.insert(0, (re.compile(r'\b(seq|mpi)(?:%s)\b' % '|'.join(map(re.escape, names))), r'\1aij'))
    return pats


def read_tap(path):
    """{label: (status, note)}: status pass, fail or skip (SKIP, TODO: the harness did not run
    it, e.g. for a missing package); note says why a case failed. None without a log."""
    st = {}
    try:
        f = open(path, errors='replace')
    except OSError:
        return None
    with f:
        for line in f:
            m = re.match(r'\s*(not )?ok (\S+)(?: # (.*))?$', line.rstrip('\n'))
            if not m:
                continue
            notok, label, comment = m.group(1) is not None, m.group(2), m.group(3) or ''
            if comment.startswith('SKIP Command failed'):
                continue                    # follows the "not ok" of the run
            diff = label.startswith('diff-')
            if diff:
                label = label[5:]
            old = st.get(label, ('pass', ''))
            if notok:
                if 'timeout' in comment.lower():
                    note = 'timeout'
                elif diff:
                    note = 'output differs'
                else:
                    note = comment.replace('Error code: ', 'error code ') or 'error'
                if old[0] != 'fail':
                    st[label] = ('fail', note)
            elif re.match(r'(SKIP|TODO)', comment):
                if old[0] != 'fail':
                    st[label] = ('skip', comment)
            else:
                st.setdefault(label, old)
    return st


def read_exclusions(path):
    """[(pattern, reason)] from lines "<pattern> <reason>"; # starts a comment line"""
    excl = []
    if not path:
        return excl
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            parts = line.split(None, 1)
            if len(parts) < 2:
                sys.exit('%s:%d: "<test name pattern> <reason>" expected' % (path, n))
            if parts[0].startswith(':') and parts[0] not in (TYPE_NAMES_RULE, AIJ_RULE):
                sys.exit('%s:%d: unknown rule %s' % (path, n, parts[0]))
            excl.append((parts[0], parts[1]))
    return excl


def test_name(label):
    """the harness test (make target) a TAP label belongs to"""
    return label.split('+', 1)[0]


def loop_values(label):
    """(test, sorted ((variable, value), ...)) of a loop case: gmakegentest.py names the case
    <test>+<var>-<value>_<var>-<value>... with the variables in an order that may differ between
    runs (it comes from a Python set; conf/test.mk fixes the hash seed, older runs differ) and
    nsize-<n> followed by the next variable without "_". A value is taken to end at the first "_"
    (or, for nsize, after its digits): variable names have underscores, values seldom do."""
    name, _, suffix = label.partition('+')
    parts = suffix.split('-')
    var, pairs = parts[0], []
    for p in parts[1:-1]:
        if var == 'nsize':
            m = re.match(r'(\d*)_?(.*)$', p)
            value, nxt = m.group(1), m.group(2)
        else:
            value, _, nxt = p.partition('_')
        pairs.append((var, value))
        var = nxt
    pairs.append((var, parts[-1]))
    return name, tuple(sorted(pairs))


def group(label):
    """ksp_ksp_tutorials-ex2_1 -> ksp_ksp_tutorials"""
    return label.split('-', 1)[0]


def pattern_excluded(label, excl):
    for pat, _ in excl:
        if not pat.startswith(':') and (fnmatch.fnmatchcase(label, pat) or fnmatch.fnmatchcase(test_name(label), pat)):
            return pat
    return None


def normalize(src, dst, names):
    with open(src, errors='replace') as fi, open(dst, 'w') as fo:
        for line in fi:
            if INFO_LINE.match(line):
                continue
            for pat, rep in names:
                line = pat.sub(rep, line)
            fo.write(line)


def only_type_names(dirname, t, label, names):
    """whether the output of the case differs from PETSc's expected output only in our type names
    (names: type_names()) and the info lines of our formats (see :type-names above); None when it
    cannot tell"""
    g, testname = label.split('-', 1)
    testname = testname.split('+', 1)[0]
    rundir = os.path.join(dirname, t, *g.split('_'), 'run' + testname)
    diffcmd = os.path.join(rundir, 'diff-%s.sh' % label)
    if not os.path.isfile(diffcmd):
        return None
    tmp = tempfile.mkdtemp(prefix='triage-', dir=os.path.dirname(rundir))  # ../<program> works there
    try:
        for f in os.listdir(rundir):
            if os.path.isfile(os.path.join(rundir, f)):
                shutil.copy(os.path.join(rundir, f), tmp)
        if '+' in label:
            # the harness keeps the output of the last value of a loop only: run this one again,
            # with the PETSC_OPTIONS of the harness's script
            env = dict(os.environ)
            script = os.path.join(os.path.dirname(rundir), 'run%s.sh' % testname)
            with open(script, errors='replace') as f:
                m = re.search(r'^export PETSC_OPTIONS="\$\{PETSC_OPTIONS\} (.*)"$', f.read(), re.M)
            if m:
                env['PETSC_OPTIONS'] = (env.get('PETSC_OPTIONS', '') + ' ' + m.group(1)).strip()
            try:
                subprocess.run(['bash', '%s.sh' % label], cwd=tmp, env=env, timeout=600,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            except subprocess.TimeoutExpired:
                return None
        for f in os.listdir(tmp):
            if f.endswith('.tmp'):
                normalize(os.path.join(tmp, f), os.path.join(tmp, f + '.n'), names)
                os.replace(os.path.join(tmp, f + '.n'), os.path.join(tmp, f))
        with open(diffcmd) as f:
            cmd = f.read().strip()
        r = subprocess.run(['bash', '-c', cmd], cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return r.returncode == 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dir', required=True)
    ap.add_argument('--types', required=True)
    ap.add_argument('--tap-log', default=TAPLOG)
    ap.add_argument('--baseline', default='aij')
    ap.add_argument('--exclusions')
    ap.add_argument('--expected', default='')
    ap.add_argument('--controls', default='')
    ap.add_argument('--title', default='')
    ap.add_argument('--counts', action='store_true')
    ap.add_argument('--failed-tests', action='store_true')
    ap.add_argument('--passed-tests', action='store_true')
    ap.add_argument('--search', default='')
    return ap.parse_args()


def read_baseline(a, expected):
    """{label: (status, note)} of the baseline run, narrowed to --search; a test of the expected
    list that left no line did not run (e.g. its build failed); None without a log"""
    base = read_tap(os.path.join(a.dir, a.baseline, a.tap_log))
    if base is None:
        return None
    search = [p.replace('%', '*') for p in a.search.split()]
    if search:
        base = {l: r for l, r in base.items() if any(fnmatch.fnmatchcase(test_name(l), p) for p in search)}
    for e in expected:
        if not any(test_name(l) == e for l in base):
            base[e] = ('fail', 'did not run')
    return base


def label_in(res, l):
    """the label of res for the case l: l itself, or the same loop values in another order
    (see loop_values)"""
    if l in res or '+' not in l:
        return l if l in res else None
    key = loop_values(l)
    for k in res:
        if '+' in k and loop_values(k) == key:
            return k
    return None


def lookup(res, l):
    k = label_in(res, l)
    return res[k] if k else None


def status(res, l):
    """pass or fail, and why, of case l in the results res of a type (skipped counts as failed)"""
    s, note = lookup(res, l) or ('fail', 'did not run')
    if s == 'skip':
        s, note = 'fail', 'skipped: ' + note
    return s, note


class Tally:
    """the cases of each type: counts per type and per (group, type), the failures, the exclusions
    used and those that no longer exclude anything"""

    def __init__(self):
        self.total = {'pass': 0, 'fail': 0, 'excl': 0}
        self.counts = []
        self.failures = {}                  # label -> {type: note}
        self.used = {}                      # exclusion -> number of cases
        self.stale = []
        self.table = {}                     # (group, type) -> counts

    def add(self, c):
        self.counts.append((c['pass'], c['fail'], c['excl']))
        for k in self.total:
            self.total[k] += c[k]


def tally_type(a, t, ok, res, tally, excl, rules, controls, names):
    """counts the cases of type t (results res) among those that passed with the baseline (ok)"""
    c = {'pass': 0, 'fail': 0, 'excl': 0}
    for l in ok:
        g = tally.table.setdefault((group(l), t), {'pass': 0, 'fail': 0, 'excl': 0, 'base': 0})
        g['base'] += 1
        s, note = status(res, l)
        pat = pattern_excluded(l, excl)
        if s == 'fail':
            ctl = lookup(controls.get('aij') or {}, l)
            if pat:
                s = 'excl'
            elif AIJ_RULE in rules and ctl and ctl[0] == 'fail' and ctl[1] != 'timeout':
                s, pat = 'excl', AIJ_RULE
            elif (TYPE_NAMES_RULE in rules and note == 'output differs'
                  and only_type_names(a.dir, t, label_in(res, l), names)):
                s, pat = 'excl', TYPE_NAMES_RULE
            else:
                tally.failures.setdefault(l, {})[t] = note
            if pat:
                tally.used[pat] = tally.used.get(pat, 0) + 1
        elif pat:
            tally.stale.append('%s %s (%s)' % (t, l, pat))
        c[s] += 1
        g[s] += 1
    return c


def table_lines(types, groups, table, baseline):
    """the table group x type: passed/counted (the baseline's cases less the excluded ones), % and
    the number excluded"""
    rows = []
    for g in groups + ['all']:
        row = [g]
        for t in types:
            cells = [v for (gg, tt), v in table.items() if tt == t and g in (gg, 'all')]
            p, b, x = (sum(v[k] for v in cells) for k in ('pass', 'base', 'excl'))
            pct = '%5.1f%%' % (100.0 * p / (b - x)) if b > x else '     -'
            row.append('%d/%d %s, %d excl.' % (p, b - x, pct, x))
        rows.append(row)
    w = [max(len(r[i]) for r in rows + [['group'] + types]) for i in range(len(types) + 1)]
    out = [''.join('  %-*s' % (wi, c) for wi, c in zip(w, r)).rstrip() for r in [['group'] + types] + rows]
    out.append('  (passed/counted %%, excluded; counted: the cases that passed with %s less the '
               'excluded ones)' % baseline)
    return out


def failure_lines(tally, controls, types, baseline):
    """a line per failing case: the types it failed with, why, and how the control runs did"""
    out = []
    for l in sorted(tally.failures):
        notes = tally.failures[l]
        ctl = []
        for cname, cres in controls.items():
            r = lookup(cres or {}, l)
            if r:
                ctl.append('%s with -mat_type %s' % ('fails' if r[0] == 'fail' else 'passes', cname))
        kinds = sorted(set(notes.values()))
        out.append('    not ok: %s [%s] (%s)' % (l, ' '.join(t for t in [baseline] + types if t in notes),
                                            '; '.join(kinds + ctl)))
    return out


def main():
    a = parse_args()
    types = a.types.split()
    names = type_names(types)
    excl = read_exclusions(a.exclusions)
    rules = set(p for p, _ in excl if p.startswith(':'))
    expected = a.expected.split()
    title = a.title + ' ' if a.title else ''
    out = []

    base = read_baseline(a, expected)
    if base is None:
        out.append('%s%s: no results (%s)' % (title, a.baseline, os.path.join(a.dir, a.baseline, a.tap_log)))
        base = {e: ('fail', 'did not run') for e in expected}
    ok = sorted(l for l, (s, _) in base.items() if s == 'pass')
    bfail = sorted(l for l, (s, _) in base.items() if s == 'fail')
    nskip = sum(1 for s, _ in base.values() if s == 'skip')
    groups = sorted(set(group(l) for l in ok))
    results = {t: read_tap(os.path.join(a.dir, t, a.tap_log)) or {} for t in types}

    if a.passed_tests:
        print(' '.join(sorted(set(test_name(l) for l in ok))))
        return 0
    if a.failed_tests:
        print(' '.join(sorted(set(test_name(l) for t in types for l in ok if status(results[t], l)[0] == 'fail'))))
        return 0

    controls = {c: read_tap(os.path.join(a.dir, 'control-' + c, a.tap_log)) for c in a.controls.split()}
    tally = Tally()
    if expected:
        # the curated subset: the baseline counts as a suite of its own
        line = '%s%s: %d passed, %d failed' % (title, a.baseline, len(ok), len(bfail))
        out.append(line + (' (%d skipped)' % nskip if nskip else ''))
        tally.add({'pass': len(ok), 'fail': len(bfail), 'excl': 0})
        for l in bfail:
            tally.failures.setdefault(l, {})[a.baseline] = base[l][1]
    else:
        out.append('%s%s (baseline): %d passed; %d failed and %d skipped there do not count'
                   % (title, a.baseline, len(ok), len(bfail), nskip))
    for t in types:
        c = tally_type(a, t, ok, results[t], tally, excl, rules, controls, names)
        out.append('%s%s: %d passed, %d failed (%d excluded, baseline %d)'
                   % (title, t, c['pass'], c['fail'], c['excl'], len(ok)))
        tally.add(c)

    if types and groups:
        out += table_lines(types, groups, tally.table, a.baseline)
    for pat, reason in excl:
        if tally.used.get(pat):
            out.append('    excluded: %d by %s: %s' % (tally.used[pat], pat, reason))
    out += failure_lines(tally, controls, types, a.baseline)
    for s in tally.stale:
        out.append('    passes although excluded: ' + s)
    if not expected and bfail:
        out.append('    failing with %s too (not counted): %s' % (a.baseline, ' '.join(bfail)))

    print('\n'.join(out))
    if a.counts:
        for p, f, x in tally.counts:
            print('counts %d %d %d' % (p, f, x))
    else:
        total = tally.total
        print('%d passed, %d failed%s' % (total['pass'], total['fail'],
                                         ', %d excluded' % total['excl'] if total['excl'] else ''))
    sys.stdout.flush()
    return 1 if tally.total['fail'] or not tally.total['pass'] else 0


if __name__ == '__main__':
    sys.exit(main())
