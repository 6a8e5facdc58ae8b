#!/usr/bin/env python3
"""Solver benchmark: PETSc's tutorials ksp ex45 and snes ex19 and its GPU benchmark bench_kspsolve
run as users run them, with each matrix type, and our tutorial ex2 (a double operator with a single-precision
preconditioning matrix) with each of our types; one table of iterations, PCSetUp, KSPSolve and
whole-run time (PETSc's -log_view, max over ranks), the setup's costliest events of each
bench_kspsolve run, and the rows as JSON. Driven by `make bench-solve` (conf/bench.mk).

Types: aij runs on -nproc ranks (mpiexec) with PETSc's vectors; aijcusparse on one process with
PETSc's cuda vectors; any other type is one of ours, on one process, loaded with -dll_append -lib
and given -vec_type vectors. -gpu_ranks runs the GPU types (ours, aijcusparse) also on that many
processes, all on the one GPU (each process picks the node's GPUs round robin); run it under CUDA MPS
(nvidia-cuda-mps-control -d) to let their kernels share the GPU at once."""

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

# program: grid dimensions, the options that report its iterations
PROGRAMS = {'ex45': (3, '-ksp_converged_reason'), 'ex19': (2, '-snes_converged_reason -ksp_converged_reason'),
            'bench_kspsolve': (3, '-ksp_converged_reason'), 'ex2': (3, '')}
# our tutorials/ex2: CG (rtol 1e-8 on the true residual) solved with the operator as its own Pmat and with a Pmat of
# single-precision values (MatGPUSetValuePrecision()); our types only (OURS_ONLY)
OURS_ONLY = {'ex2'}
CG = '-ksp_type cg -ksp_rtol 1e-8'
# bench_kspsolve: its 27-point Laplacian (SPD) assembled with MatSetValuesCOO(), PCSetUp and KSPSolve in stages of
# their own (-split_ksp); not GAMG, which reaches its iteration limit with aijcusparse too
SPLIT = '-split_ksp ' + CG
# case: program, options, PC label (PCMG on ex19's DMDA, not refined, has one level)
CASES = {
    'ex45-jacobi': ('ex45', CG + ' -pc_type jacobi', 'jacobi'),
    'ex45-ilu': ('ex45', CG + ' -pc_type ilu', 'ilu'),
    'ex45-gamg': ('ex45', CG + ' -pc_type gamg', 'gamg'),
    # PCGAMG's aggressive level by MIS-2 (MATCOARSENMISK at distance 2) in place of the squared graph (PETSc >= 3.20;
    # before, the default)
    'ex45-gamg-mis2': ('ex45', CG + ' -pc_type gamg -pc_gamg_aggressive_square_graph false', 'gamg, MIS-2'),
    'ex19-default': ('ex19', '', 'default (ilu)'),
    'ex19-mg': ('ex19', '-pc_type mg', 'mg, 1 level'),
    'kspsolve-jacobi': ('bench_kspsolve', SPLIT + ' -pc_type jacobi', 'jacobi'),
    'kspsolve-ilu': ('bench_kspsolve', SPLIT + ' -pc_type ilu', 'ilu'),
    'ex2-gamg-fp32': ('ex2', '-pc_type gamg', 'gamg, fp32 Pmat'),
    'ex2-ilu-fp32': ('ex2', '-pc_type ilu', 'ilu, fp32 Pmat'),
}
GRIDS = {'full': {'ex45': 160, 'ex19': 384, 'bench_kspsolve': 150, 'ex2': 160},
         'small': {'ex45': 40, 'ex19': 64, 'bench_kspsolve': 30, 'ex2': 40}}
# the setup stages of bench_kspsolve (-split_ksp), and the events that only wrap others in them
SETUP_STAGES = ('Step1', 'Step2a')
WRAPPERS = {'KSPSetUp', 'PCSetUp', 'PCSetUpOnBlocks'}
TOP_EVENTS = 5
CPU_TYPE, CUDA_TYPE = 'aij', 'aijcusparse'


def split_list(s):
    return s.replace(',', ' ').split()


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('-dir', required=True, help='folder of the programs ex45, ex19 and bench_kspsolve; logs go to its logs/')
    p.add_argument('-ex2', help='our tutorials/ex2, for the cases ex2-*')
    p.add_argument('-lib', required=True, help='libpetscellg.so, for -dll_append')
    p.add_argument('-json', help='write the rows here')
    p.add_argument('-mpiexec', default='mpiexec', help='MPI launcher of the aij runs')
    p.add_argument('-types', required=True, help='matrix types, comma or space separated: aij, aijcusparse, ours')
    p.add_argument('-vec_type', default='gpu', help='vector type of our matrix types')
    p.add_argument('-cases', default=' '.join(CASES), help='cases: ' + ', '.join(CASES))
    p.add_argument('-nproc', type=int, default=len(os.sched_getaffinity(0)), help='ranks of the aij runs (default: the cores)')
    p.add_argument('-timeout', type=float, default=600, help='seconds per run')
    p.add_argument('-gpu_ranks', default='1', help='processes of the GPU types\' runs, a list: 1,2,4,8 runs each at each count')
    p.add_argument('-scale', choices=GRIDS, default='full', help='grid sizes: full (ex45 160^3, ex19 384^2) or small (40^3, 64^2)')
    p.add_argument('-ex45_n', type=int, help='ex45 grid points per dimension (overrides -scale)')
    p.add_argument('-ex19_n', type=int, help='ex19 grid points per dimension (overrides -scale)')
    p.add_argument('-kspsolve_n', type=int, help='bench_kspsolve grid points per dimension (overrides -scale)')
    p.add_argument('-ex2_n', type=int, help='ex2 grid points per dimension (overrides -scale)')
    a = p.parse_args()
    a.types, a.cases = split_list(a.types), split_list(a.cases)
    a.gpu_ranks = [int(r) for r in split_list(a.gpu_ranks)]
    for c in a.cases:
        if c not in CASES:
            p.error(f'unknown case {c}; cases: {", ".join(CASES)}')
        if CASES[c][0] == 'ex2' and not a.ex2:
            p.error(f'case {c} needs -ex2')
    a.grid = {'ex45': a.ex45_n or GRIDS[a.scale]['ex45'], 'ex19': a.ex19_n or GRIDS[a.scale]['ex19'],
              'bench_kspsolve': a.kspsolve_n or GRIDS[a.scale]['bench_kspsolve'], 'ex2': a.ex2_n or GRIDS[a.scale]['ex2']}
    return a


def type_setup(a, mtype, prog, granks):
    """Ranks, vector type and options of a matrix type (granks: the processes of a GPU type); bench_kspsolve takes
    -mat_type and makes its vectors with MatCreateVecs(), the matrix type's own, as does ex2, which is linked with
    our library."""
    if prog == 'ex2':
        return granks, 'gpu', f'-mat_type {mtype}'
    dm = '' if prog == 'bench_kspsolve' else 'dm_'
    vec = f' -{dm}vec_type ' if dm else ''
    if mtype == CPU_TYPE:
        return a.nproc, 'standard', ''
    if mtype == CUDA_TYPE:
        return granks, 'cuda', f'-{dm}mat_type aijcusparse' + (vec + 'cuda' if dm else '')
    return granks, a.vec_type if dm else 'gpu', f'-dll_append {shlex.quote(a.lib)} -{dm}mat_type {mtype}' + (vec + a.vec_type if dm else '')


def command(a, case, mtype, granks):
    """The command line of one run, its ranks, vector type and PC label."""
    prog, opts, pc = CASES[case]
    dim, report = PROGRAMS[prog]
    ranks, vec, type_opts = type_setup(a, mtype, prog, granks)
    if prog in ('bench_kspsolve', 'ex2'):
        grid = f'-n {a.grid[prog]}'
    else:
        grid = ' '.join(f'-da_grid_{x} {a.grid[prog]}' for x in 'xyz'[:dim])
    if ranks > 1 and 'ilu' in pc:  # PCILU is sequential: ILU blocks
        opts, pc = opts.replace('-pc_type ilu', '-pc_type bjacobi'), pc.replace('ilu', 'bjacobi+ilu')
    args = [a.ex2 if prog == 'ex2' else os.path.join(a.dir, prog)] + shlex.split(
        f'{grid} {opts} {type_opts} {report} -log_view')
    if ranks > 1:
        args = shlex.split(a.mpiexec) + ['-n', str(ranks)] + args
    return args, ranks, vec, pc


def run(args, log, timeout):
    """Runs args with its output in log; returns the exit status, None when it timed out."""
    with open(log, 'w') as f:
        f.write('$ ' + shlex.join(args) + '\n')
        f.flush()
        p = subprocess.Popen(args, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            return p.wait(timeout)
        except subprocess.TimeoutExpired:
            for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, None)):  # mpiexec cleans up on SIGTERM
                os.killpg(p.pid, sig)
                try:
                    p.wait(wait)
                    break
                except subprocess.TimeoutExpired:
                    pass
            return None


def error_reason(out, rc):
    """PETSc's error message (its particular line first), else the last line of the output with a word."""
    petsc = [re.sub(r'^\[\d+\]PETSC ERROR:\s*', '', l) for l in out.splitlines() if 'PETSC ERROR:' in l]
    msg = [l for l in petsc if re.match(r'\w', l)]  # not the rules
    if 'Error Message' in out and len(msg) > 1:
        msg = [f'{msg[1]} ({msg[0]})']
    msg = msg[:1] or [l for l in out.splitlines()[1:] if re.search(r'[a-zA-Z]', l)][-1:]
    return (f'exit {rc}' if rc >= 0 else f'signal {-rc}') + ''.join(': ' + m.strip() for m in msg)


def ex45_rhs_norm(n):
    """|b| of ex45 on n^3 points: 6/(n-1) on the boundary points (the interior ones add < 1e-6)."""
    return 6 / (n - 1) * (n ** 3 - (n - 2) ** 3) ** 0.5


def parse_ex2(out):
    """ex2's two solves: the single-precision Pmat's iterations and KSPSolve time as the row's, the double one's beside
    them; whether both true residuals are below 1e-8."""
    r = {}
    m = re.search(r'^iterations: (\d+) with the double Pmat, (\d+) with the single one', out, re.M)
    if m:
        r['double_ksp_its'], r['ksp_its'] = int(m.group(1)), int(m.group(2))
    m = re.search(r'^KSPSolve: (\S+) s with the double Pmat, (\S+) s with the single one', out, re.M)
    if m:
        r['double_ksp_solve_s'], r['ksp_solve_s'] = float(m.group(1)), float(m.group(2))
    r['residual_above'] = len(re.findall(r'true residual ABOVE', out))
    return r


def parse(out):
    """Iterations, Newton steps and -log_view times of one run's output."""
    r = {}
    lin = re.findall(r'Linear solve (converged|did not converge) due to (\w+) iterations (\d+)', out)
    nonlin = re.findall(r'Nonlinear solve (converged|did not converge) due to (\w+) iterations (\d+)', out)
    if lin:
        r['ksp_its'] = sum(int(i) for _, _, i in lin)
    if nonlin:
        r['newton'] = sum(int(i) for _, _, i in nonlin)
    r['diverged'] = [why for how, why, _ in lin + nonlin if how != 'converged']
    m = re.search(r'^Time \(sec\):\s+(\S+)', out, re.M)
    if m:
        r['time_s'] = float(m.group(1))
    m = re.search(r'^KSPSolve\s+(\d+)\s+\S+\s+(\S+)', out, re.M)  # calls, ratio, max time
    if m:
        r['ksp_solves'], r['ksp_solve_s'] = int(m.group(1)), float(m.group(2))
    m = re.search(r'^Residual norm (\S+)', out, re.M)  # ex45: |b - A x|
    if m:
        r['residual'] = float(m.group(1))
    m = re.search(r'^Error norm:\s+(\S+)', out, re.M)  # bench_kspsolve: |x - u|, u = 1
    if m:
        r['error'] = float(m.group(1))
    m = re.search(r'Using PETSc Release Version (\S+)', out, re.I)
    if m:
        r['petsc'] = m.group(1).rstrip(',')
    stages = log_stages(out)
    setup = [t for st in stages.values() for e, t in st['events'].items() if e in ('PCSetUp', 'PCSetUpOnBlocks')]
    if setup:
        r['pc_setup_s'] = sum(setup)
    m = re.search(r'^PCSetUp:\s+(\S+) seconds', out, re.M)  # bench_kspsolve's own: PCSetUp and PCSetUpOnBlocks
    if m:
        r['pc_setup_s'] = float(m.group(1))
    if 'Step2a' in stages:
        ev = {}
        for name, st in stages.items():
            if name in SETUP_STAGES:
                for e, t in st['events'].items():
                    if e not in WRAPPERS:
                        ev[e] = ev.get(e, 0.0) + t
        r['setup_s'] = sum(st['time'] for name, st in stages.items() if name in SETUP_STAGES)
        r['setup_events'] = sorted(ev.items(), key=lambda kv: -kv[1])[:TOP_EVENTS]
    return r


STAGE_RE = re.compile(r'^\s*\d+:\s+(.*?):\s+(\S+)\s+\S+%', re.M)
EVENT_RE = re.compile(r'^(\S(?:.*?\S)?)\s+(\d+)\s+\d+\.\d\s+(\S+)\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+'
                      r'\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+(\d+)\s')


def log_stages(out):
    """-log_view's stages by first word: their time and each event's time (max over ranks). PETSc prints an
    event's time as n/a where GPU work may run past it (without -log_view_gpu_time): then its share of the
    stage's time stands in, to the percent."""
    stages, cur = {}, None
    summary = out.find('Summary of Stages:')
    times = {m.group(1).split()[0]: float(m.group(2)) for m in STAGE_RE.finditer(out[summary:].split('\n\n')[0])} if summary >= 0 else {}
    for line in out[out.find('--- Event Stage'):].splitlines() if summary >= 0 else []:
        m = re.match(r'^--- Event Stage \d+: (\S+)', line)
        if m:
            cur = stages.setdefault(m.group(1), {'time': times.get(m.group(1), 0.0), 'events': {}})
            continue
        m = EVENT_RE.match(line)
        if cur is not None and m:
            try:
                t = float(m.group(3))
            except ValueError:
                t = int(m.group(4)) / 100 * cur['time']
            cur['events'][m.group(1)] = t
        elif line.startswith('Object Type') or line.startswith('Memory usage'):
            break
    return stages


def bench(a, case, mtype, granks):
    args, ranks, vec, pc = command(a, case, mtype, granks)
    prog = CASES[case][0]
    n = a.grid[prog]
    log = os.path.join(a.dir, 'logs', f'{case}-{mtype}' + (f'-{ranks}' if mtype != CPU_TYPE and ranks > 1 else '') + '.log')
    t0 = time.time()
    rc = run(args, log, a.timeout)
    wall = time.time() - t0
    with open(log, errors='replace') as f:
        out = f.read()
    row = dict(case=case, grid=f'{n}^{PROGRAMS[prog][0]}', type=mtype, vec_type=vec, ranks=ranks, pc=pc,
               command=shlex.join(args), log=log, wall_s=round(wall, 3))
    row.update(parse(out))
    if prog == 'ex2':  # four solves in one -log_view: its own lines tell each solve's
        for k in ('ksp_its', 'ksp_solve_s', 'ksp_solves', 'pc_setup_s'):
            row.pop(k, None)
        row.update(parse_ex2(out))
    diverged, above = row.pop('diverged'), row.pop('residual_above', 0)
    needed = ['time_s', 'ksp_solve_s', 'ksp_its',
              {'ex45': 'residual', 'ex19': 'newton', 'bench_kspsolve': 'error', 'ex2': 'double_ksp_its'}[prog]]
    if rc is None:
        row['status'], row['reason'] = 'timeout', f'killed after {a.timeout:g} s'
    elif rc != 0:
        row['status'], row['reason'] = 'failed', error_reason(out, rc)
    elif diverged:
        row['status'], row['reason'] = 'diverged', ' '.join(diverged)
    elif any(k not in row for k in needed):
        row['status'], row['reason'] = 'failed', 'output without ' + ', '.join(k for k in needed if k not in row)
    elif prog == 'ex45' and row['residual'] > 1e-6 * ex45_rhs_norm(n):  # CG stops at 1e-8 of the preconditioned norm
        row['status'], row['reason'] = 'wrong', f'|b - A x| = {row["residual"]:.3g}, |b| = {ex45_rhs_norm(n):.3g}'
    elif prog == 'ex2' and above:
        row['status'], row['reason'] = 'wrong', 'a true residual above 1e-8'
    elif prog == 'ex19' and row['newton'] == 0:  # its initial guess is no solution
        row['status'], row['reason'] = 'wrong', 'no Newton step'
    elif prog == 'bench_kspsolve' and row['error'] > 1e-3 * n ** 1.5:  # |u| = n^(3/2); the 27-point operator's condition ~ n^2
        row['status'], row['reason'] = 'wrong', f'|x - u| = {row["error"]:.3g}, |u| = {n ** 1.5:.3g}'
    else:
        row['status'] = 'ok'
    return row


def fmt(v, spec):
    return '-' if v is None else format(v, spec)


def table(rows, a):
    petsc = next((r['petsc'] for r in rows if 'petsc' in r), '?')
    ours = [t for t in a.types if t not in (CPU_TYPE, CUDA_TYPE)]
    gpu_procs = 'one process' if a.gpu_ranks == [1] else f'{", ".join(map(str, a.gpu_ranks))} processes on the one GPU'
    print(f'\nPETSc {petsc}: ksp ex45 (3D Laplacian, {CG}), snes ex19 (Newton, GMRES), bench_kspsolve '
          f'(27-point Laplacian, COO assembly, {CG}), our ex2 (3D Laplacian, CG, fp32 Pmat)')
    if ours:
        print(f'  {", ".join(ours)}: {gpu_procs}, -dm_vec_type {a.vec_type} (bench_kspsolve: the type\'s own vectors)')
    if CUDA_TYPE in a.types:
        print(f'  {CUDA_TYPE}: {gpu_procs}, -dm_vec_type cuda (bench_kspsolve: the type\'s own vectors)')
    if CPU_TYPE in a.types:
        print(f'  {CPU_TYPE}: CPU, {a.nproc} rank' + 's' * (a.nproc > 1) + (
            '; ILU as -pc_type bjacobi, ILU blocks (PCILU is sequential)' if a.nproc > 1 else ''))
    print('ksp its: summed over the Newton steps; PCSetUp: PCSetUp and PCSetUpOnBlocks (bench_kspsolve: as it prints it); KSPSolve: its total time; run: the whole run '
          '("Time (sec)"); times from -log_view, max over ranks (where PETSc prints n/a for an event beside GPU '
          'work, its share of the stage\'s time, to the percent)\n')
    head = (f'{"case":<15} {"grid":>6} {"type":<11} {"vec":<8} {"ranks":>5} {"PC":<21} {"newton":>6} '
            f'{"ksp its":>7} {"PCSetUp s":>9} {"KSPSolve s":>10} {"run s":>8}  status')
    print(head)
    print('-' * len(head))
    for r in rows:
        status = r['status'] + (f': {r["reason"]}' if 'reason' in r else '')
        print(f'{r["case"]:<15} {r["grid"]:>6} {r["type"]:<11} {r["vec_type"]:<8} {r["ranks"]:>5} {r["pc"]:<21} '
              f'{fmt(r.get("newton"), "d"):>6} {fmt(r.get("ksp_its"), "d"):>7} {fmt(r.get("pc_setup_s"), ".3f"):>9} '
              f'{fmt(r.get("ksp_solve_s"), ".3f"):>10} {fmt(r.get("time_s"), ".2f"):>8}  {status[:90]}')
    fp32 = [r for r in rows if 'double_ksp_its' in r and 'ksp_solve_s' in r]
    if fp32:
        print('\nex2: the operator double; its preconditioner from a Pmat of single-precision values (fp32) against one from '
              'the operator itself (double); each KSPSolve time is that of a second solve, after an untimed one')
        for r in fp32:
            ratio = r['double_ksp_solve_s'] / r['ksp_solve_s'] if r['ksp_solve_s'] > 0 else 0
            print(f'{r["case"]:<15} {r["type"]:<11} {r["ranks"]:>2}: its {r["double_ksp_its"]} double, {r["ksp_its"]} fp32; '
                  f'KSPSolve {r["double_ksp_solve_s"]:.4f} s double, {r["ksp_solve_s"]:.4f} s fp32 ({ratio:.2f}x)')
    setups = [r for r in rows if r.get('setup_events')]
    if setups:
        print(f'\nbench_kspsolve setup (stages Step1, assembly, and Step2a, PCSetUp): its time and its '
              f'{TOP_EVENTS} costliest events (s), not counting those that wrap others ({", ".join(sorted(WRAPPERS))}), per type and ranks')
        for r in setups:
            ev = ', '.join(f'{e} {t:.3f}' for e, t in r['setup_events'])
            print(f'{r["case"]:<15} {r["type"]:<11} {r["ranks"]:>2} {r["setup_s"]:7.3f} s: {ev}')


def main():
    a = parse_args()
    os.makedirs(os.path.join(a.dir, 'logs'), exist_ok=True)
    rows = []
    for case in a.cases:
        for mtype in a.types:
            if CASES[case][0] in OURS_ONLY and mtype in (CPU_TYPE, CUDA_TYPE):
                continue
            for granks in [1] if mtype == CPU_TYPE else a.gpu_ranks:
                rows.append(bench(a, case, mtype, granks))
                r = rows[-1]
                print(f'bench-solve: {case} {mtype} {r["ranks"]}: {r["status"]} ({r["wall_s"]:.1f} s)', file=sys.stderr, flush=True)
    table(rows, a)
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(rows, f, indent=1)
        print(f'\nlogs in {os.path.join(a.dir, "logs")}, rows in {a.json}')


if __name__ == '__main__':
    main()
