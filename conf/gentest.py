#!/usr/bin/env python3
"""PETSc's gmakegentest.py for PETSc-ELLG: the same scripts and makefile, from the test blocks of
tests/, tutorials/ and bench/.

PETSc's generator walks only folders whose path holds "/tests" or "/tutorials"; bench/ (the
benchmarks, whose check runs are harness tests too) is added to its walk here. Usage: as
gmakegentest.py, with --config=<folder of gmakegentest.py> first and --walk-also=<folders under
--srcdir> (comma separated) besides its options (gmakefile.test)."""

import optparse
import os
import sys


def parse_args(argv):
    p = optparse.OptionParser()
    for name in ('config', 'walk-also', 'petsc-dir', 'petsc-arch', 'srcdir', 'testdir', 'pkg-dir', 'pkg-name',
                 'pkg-arch', 'pkg-pkgs'):
        p.add_option('--' + name)
    opts, extra = p.parse_args(argv)
    if extra or not opts.config:
        p.error('usage: gentest.py --config=<dir> [--walk-also=a,b] <gmakegentest.py options>')
    return opts


def main(argv):
    opts = parse_args(argv)
    sys.path.insert(0, opts.config)
    import gmakegentest

    also = [d for d in (opts.walk_also or '').split(',') if d]
    walk = gmakegentest.generateExamples.walktree

    def walktree(self, top):
        data = walk(self, top)
        for d in also:
            root = os.path.join(top, d)
            if root in data:  # walked already: --srcdir's own path holds "/tests"
                continue
            files = sorted(f for f in os.listdir(root) if os.path.isfile(os.path.join(root, f)))
            self.genPetscTests(root, [], files, data)
        return data

    gmakegentest.generateExamples.walktree = walktree
    gmakegentest.main(petsc_dir=opts.petsc_dir, petsc_arch=opts.petsc_arch, pkg_dir=opts.pkg_dir,
                      pkg_arch=opts.pkg_arch, pkg_name=opts.pkg_name, pkg_pkgs=opts.pkg_pkgs, srcdir=opts.srcdir,
                      testdir=opts.testdir)


if __name__ == '__main__':
    main(sys.argv[1:])
