#!/usr/bin/env python3
"""PETSc-ELLG from petsc4py: the library loaded through petsc4py.init() (-dll_append), then for each of our types
a 2D Laplacian assembled from Python with that type, solved with CG and Jacobi, against AIJ: the matrix is of the
type, its product and its solution are AIJ's (to roundoff), with the same iterations. Prints a suite line and a
counts line, as make check's suites do; skipped (one skip) when petsc4py cannot be imported or is of another
PETSc than the library.

usage: check.py <libpetscellg.so> <PETSc version the library was built against, e.g. 3.18.5>"""
import sys

TYPES = ['ellg', 'pjds', 'slicedell', 'csrg', 'aijgpu']
SUITE = 'petsc4py:'


def report(passed, failed, skipped, notes):
    print(f'{SUITE:<26} {passed:4d} ok, {len(failed)} not ok, {skipped} skipped' + (f' ({notes})' if notes else ''))
    for name in failed:
        print(f'    not ok: {name}')
    print(f'counts {passed} {len(failed)} {skipped}')
    sys.exit(1 if failed else 0)


def laplacian(PETSc, mtype, n):
    A = PETSc.Mat().create(comm=PETSc.COMM_SELF)
    A.setSizes([n * n, n * n])
    A.setType(mtype)
    A.setPreallocationNNZ(5)
    for row in range(n * n):
        i, j = row % n, row // n
        cols, vals = [row], [4.0]
        for c, ok in ((row - 1, i > 0), (row + 1, i < n - 1), (row - n, j > 0), (row + n, j < n - 1)):
            if ok:
                cols.append(c)
                vals.append(-1.0)
        A.setValues([row], cols, vals)
    A.assemble()
    return A


def solve(PETSc, A):
    x, b = A.createVecs()
    b.set(1.0)
    ksp = PETSc.KSP().create(comm=PETSc.COMM_SELF)
    ksp.setOperators(A)
    ksp.setType('cg')
    ksp.getPC().setType('jacobi')
    ksp.setTolerances(rtol=1e-10)
    ksp.solve(b, x)
    its = ksp.getIterationNumber()
    ksp.destroy()
    return x, its


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    lib, version = sys.argv[1], sys.argv[2]
    try:
        import petsc4py
        petsc4py.init(['check.py', '-dll_append', lib])
        from petsc4py import PETSc
    except ImportError as e:
        report(0, [], 1, f'petsc4py: {e}')
    have = '.'.join(str(v) for v in PETSc.Sys.getVersion())
    if have.split('.')[:2] != version.split('.')[:2]:
        report(0, [], 1, f'petsc4py of PETSc {have}, the library of {version}')
    n, failed, passed = 24, [], 0
    ref = laplacian(PETSc, 'aij', n)
    xref, itsref = solve(PETSc, ref)
    for t in TYPES:
        A = laplacian(PETSc, t, n)
        y, yref = A.createVecs()
        y.setRandom()
        y.copy(yref)
        A.mult(xref, y)
        ref.mult(xref, yref)
        x, its = solve(PETSc, A)
        prod = (y - yref).norm() <= 1e-12 * yref.norm()
        sol = (x - xref).norm() <= 1e-8 * xref.norm()
        ok = A.getType().startswith('seqaij') and A.getType() != 'seqaij' and prod and sol and its == itsref
        if ok:
            passed += 1
        else:
            failed.append(f'{t}: type {A.getType()}, product {"ok" if prod else "differs"}, solution {"ok" if sol else "differs"}, {its} iterations against {itsref}')
        A.destroy()
    report(passed, failed, 0, '')


if __name__ == '__main__':
    main()
