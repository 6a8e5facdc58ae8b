# PETSc's own tests with our types, included by the top-level makefile after conf/test.mk.
#
#   make check-petsc      PETSc's installed ksp/ksp, ksp/pc and snes tutorials (CHECK_PETSC_GROUPS)
#                         and the mat tests and tutorials where a -mat_type applies
#                         (CHECK_PETSC_MAT_SEARCH) through PETSc's harness: first plainly (aij, the
#                         baseline), then with each of our types T ($(ELLG_MAT_TYPES)) substituted
#                         through EXTRA_OPTIONS: -mat_type T -dm_mat_type T -vec_type V
#                         -dm_vec_type V (CHECK_PETSC_OPTIONS; V: CHECK_PETSC_VEC_TYPE); then the
#                         tests that failed with a type again in the control runs
#                         (CHECK_PETSC_CONTROLS). Long: well over an hour on 2 cores.
#   make check-petsc-ci   the representative subset that `make check` runs (CHECK_PETSC_CI_TESTS)
#   make check-petsc-ex2  PETSc's ksp/ksp/tutorials ex2 tests only
#   make check-petsc-mat  the mat tests and tutorials only
#   make check-petsc-report [CHECK_PETSC_SUITE=all|ci|ex2|mat]  the report of the last run again
#   make check-petsc-views  the report's :type-names rule against our types' views (make check runs it)
#
# Narrower runs: make check-petsc CHECK_PETSC_SEARCH='snes_tutorials-ex19_%' (gmakesearch
# patterns), CHECK_PETSC_TYPES=pjds, CHECK_PETSC_TIMEOUT=<s> (per test, default 300),
# CHECK_JOBS=<n>; the harness's variables pass through (V=1, CUDAMEMCHECK=1, VALGRIND=1, ...).
# Another PETSc: make check PETSC_DIR=<prefix> (after its env.sh, if it has one) runs its own
# installed examples (<prefix>/share/petsc/examples) and harness, results in arch-petsc-<version>/.
#
# A test case (a TAP label: one test, or one value of a {{...}} loop) counts for a type only when
# it passed with aij. For each type the report says "<type>: N passed, M failed (K excluded,
# baseline B)", then a table group x type (passed/counted %, excluded; counted = B - K), the
# exclusions used, the failures (each with the control runs' verdicts), and a last line
# "N passed, M failed, K excluded"; the target fails when a case failed. tests/petsc/exclusions.txt
# says which cases cannot give PETSc's output with another type, and why: by name, or by a rule
# that the report checks case by case (the output differs only in the type names; the test fails
# in plain PETSc given -mat_type aij). tests/petsc/report.py does the count.
#
# Results: arch/petsc-tests/<suite>/<type> (suite: all, ci, ex2, mat; type: aij, ours, and
# control-<c> for the control runs), each a harness TESTDIR with its TAP log (PETSC_TAPLOG,
# conf/ellg.mk: test__tap.log for an installed PETSc), counts/ and run folders. The programs are
# built once, in the aij folder; the other folders get hard links to them.

CHECK_PETSC_GROUPS     ?= ksp_ksp_tutorials ksp_pc_tutorials snes_tutorials
# PETSc's mat tests and tutorials where a -mat_type applies: those of the programs that call
# MatSetFromOptions() (mat_tests-ex1_%, ...)
PETSC_EXAMPLES_SRC      = $(PETSC_DIR)/share/petsc/examples/src
CHECK_PETSC_MAT_SEARCH  = $(foreach f,$(shell cd $(PETSC_EXAMPLES_SRC)/mat 2>/dev/null && \
                            grep -l MatSetFromOptions tests/*.c tutorials/*.c),mat_$(subst /,-,$(basename $(f)))_%)
CHECK_PETSC_TYPES      ?= $(ELLG_MAT_TYPES)
CHECK_PETSC_TIMEOUT    ?= 300
CHECK_PETSC_EXCLUSIONS := $(CURDIR)/tests/petsc/exclusions.txt
# The vector type that goes with our matrix types: PETSc's own CUDA vectors (cuda) on a PETSc built
# with CUDA where a GPU is present, else our device vectors (gpu)
CHECK_PETSC_VEC_TYPE   ?= $(if $(filter 11,$(ELLG_HAVE_PETSC_CUDA)$(ELLG_HAVE_GPU)),cuda,gpu)
# Every run with options put in (our types, the control runs) also gets -options_left no: a test
# need not use all of them (-dm_mat_type in a test without a DM, -vec_type where the matrix makes the
# vectors), and PETSc from 3.20 lists unused options at the end of the output by default (3.18,
# Debian's build, only in a debug build); the option changes nothing else.
CHECK_PETSC_EXTRA      := -options_left no
# Our types' MatSOR is multicolor SOR by default, SOR in another ordering than PETSc's natural one, whose
# residual histories PETSc's expected outputs print (ksp ex32_4 and ex4_component, whose multigrid smooths
# with SOR): the suite compares with PETSc's exact SOR (-mat_gpu_sor host, the option users have for it);
# tests/ex12 checks the multicolor SOR against PETSc's SOR of the matrix permuted to the color order.
CHECK_PETSC_OPTIONS_SOR := -mat_gpu_sor host
CHECK_PETSC_OPTIONS     = -dll_append $(CURDIR)/$(LIBDIR)/$(LIBNAME) -mat_type $(1) -dm_mat_type $(1) \
                          -vec_type $(CHECK_PETSC_VEC_TYPE) -dm_vec_type $(CHECK_PETSC_VEC_TYPE) $(CHECK_PETSC_OPTIONS_SOR) $(CHECK_PETSC_EXTRA)

# The subset for CI (make check): PETSc tests that pass with aij on Debian's PETSc and do not print
# the type, each run with every type (the baseline must pass them too): KSP on assembled matrices
# (ex2: many Krylov methods and preconditioners; ex3, ex5, ex7 in parallel), DMDA matrices and
# vectors (-dm_mat_type: ksp ex29, ex32, ex34, ex45; snes ex5, ex14, ex19, ...), MPI (2 to 8
# ranks), multigrid, GAMG and ML, PCHMG with MAIJ interpolation (ksp ex4), in-place transposes
# (ksp ex56_2), PCASM, fieldsplit, FAS, finite-difference coloring. 67 cases (63 with the CUDA build
# of 3.26.1: below); 2 to 4 minutes on 2 cores with the builds. (PETSc has ksp ex45 only at 4 ranks, and its snes ex5 cases at 2 ranks print
# the type: ksp ex29_5, ex34_2 and snes ex19_1 are the DMDA cases at 2 ranks.)
# ksp ex2: all its cases but those Debian's PETSc skips (hpddm, mkl_pardiso_*), those that set
# -mat_type sell themselves (sell, sell_mumps), print the type (bjacobi_2) or are excluded (fbcgs_2)
PETSC_EX2_TESTS := $(addprefix ksp_ksp_tutorials-ex2_,1 2 3 4 5 bjacobi bjacobi_3 chebyest_1 \
  chebyest_2 fbcgs groppcg pc_symmetric pipebcgs pipecg pipecg2 pipecg2_2 pipecgrr \
  pipecr pipelcg pipeprcg pipeprcg_rcw qmrcgs qmrcgs_2 spqr symmetric_pc symmetric_pc2 \
  telescope umfpack)
CHECK_PETSC_CI_TESTS := $(PETSC_EX2_TESTS) \
  $(addprefix ksp_ksp_tutorials-,ex3_1 ex4_component ex4_gamg_asm ex5_1 ex5_2 ex5_asm ex7_1 ex8_1 \
    ex9_1 ex29_1 ex29_5 ex32_1 ex34_2 ex45_1 ex55_1 ex56_2 ex56_ml) \
  $(addprefix ksp_pc_tutorials-,ex1_1 ex2_1 ex3_1) \
  $(addprefix snes_tutorials-,ex1_1 ex3_1 ex3_10 ex5_5_fas ex5_5_newton_asm_dmda ex5_6 ex14_1 ex19_1 \
    ex19_2 ex19_bjacobi ex19_fas ex19_fdcoloring_ds ex19_fieldsplit_2 ex35_1 ex46_ew_1)

# Where the PETSc found differs from Debian's 3.18, in this one place: the cases of the list that its
# harness does not have, and their stand-ins.
# - Cases that need an external package: the harness has them only when the PETSc was configured
#   with it (PETSC_HAVE_<package> in its petscconf.h). Debian's 3.18 has all; the CUDA build of
#   3.26.1 (../shared/petsc) none: ksp ex29_5 (hypre: ksp ex34_2 and snes ex19_1 remain the DMDA
#   cases at 2 ranks), ex2_spqr and ex2_umfpack (SuiteSparse), ex56_ml (ML).
# - PETSc 3.23 rewrote the tests of ksp ex32 (its -da_refine of Q0 elements was fixed): its unnamed
#   case (ex32_1: full multigrid on 3 levels) is gone; ex32_4, the smallest of the new ones (multigrid
#   on 2 levels, SOR smoothing, SVD on the coarse level), stands in for it.
PETSC_CI_PACKAGE_TESTS := HYPRE:ksp_ksp_tutorials-ex29_5 SUITESPARSE:ksp_ksp_tutorials-ex2_spqr \
  SUITESPARSE:ksp_ksp_tutorials-ex2_umfpack ML:ksp_ksp_tutorials-ex56_ml
PETSC_HAVE_PACKAGES    := $(shell sed -n 's/^\#define PETSC_HAVE_\([A-Z0-9_]*\) 1$$/\1/p' \
                            $(PETSC_DIR)/$(PETSC_ARCH)/include/petscconf.h 2>/dev/null)
CHECK_PETSC_CI_TESTS   := $(filter-out $(foreach p,$(PETSC_CI_PACKAGE_TESTS),$(if $(filter \
                            $(firstword $(subst :, ,$(p))),$(PETSC_HAVE_PACKAGES)),,$(lastword $(subst :, ,$(p))))), \
                            $(CHECK_PETSC_CI_TESTS))
ifneq ($(call petsc_version_ge,3.23.0),)
CHECK_PETSC_CI_TESTS   := $(patsubst %-ex32_1,%-ex32_4,$(CHECK_PETSC_CI_TESTS))
endif

# Which tests a suite runs (gmakesearch patterns); check-petsc-ci also counts their baseline
check-petsc check-petsc-report: CHECK_PETSC_SUITE  ?= all
check-petsc:                    CHECK_PETSC_SEARCH ?= $(CHECK_PETSC_GROUPS:%=%-%) $(CHECK_PETSC_MAT_SEARCH)
check-petsc-mat:                CHECK_PETSC_SUITE  := mat
check-petsc-mat:                CHECK_PETSC_SEARCH ?= $(CHECK_PETSC_MAT_SEARCH)
check-petsc-ci check-petsc-ci-run check-petsc-ci-report: CHECK_PETSC_SUITE := ci
check-petsc-ci check-petsc-ci-run: CHECK_PETSC_SEARCH := $(CHECK_PETSC_CI_TESTS)
check-petsc-ci check-petsc-ci-report: CHECK_PETSC_EXPECTED := $(CHECK_PETSC_CI_TESTS)
check-petsc-ex2:                CHECK_PETSC_SUITE  := ex2
check-petsc-ex2:                CHECK_PETSC_SEARCH ?= ksp_ksp_tutorials-ex2_%

check-petsc check-petsc-ci check-petsc-ex2 check-petsc-mat: all
	-@$(petsc_suite_run)
	@$(petsc_suite_report)

check-petsc-report:
	@$(petsc_suite_report)

# the :type-names rule of the report against our types' views (tests/petsc/views.py), with PETSc's ksp ex2 that
# check-petsc-ci builds in its aij folder: a suite line and a counts line for make check
check-petsc-views:
	@$(PYTHON) tests/petsc/views.py --program $(CHECK_PETSCDIR)/ci/aij/ksp/ksp/tutorials/ex2 --types '$(CHECK_PETSC_TYPES)' \
	  --mpiexec '$(MPIEXEC)' --options '$(call CHECK_PETSC_OPTIONS,{type})'

# for `make check`: the CI subset's run, then its report as counts lines for check_total
check-petsc-ci-run:
	-@$(petsc_suite_run)
check-petsc-ci-report:
	@$(petsc_suite_report) --counts

CHECK_PETSC_SUITEDIR = $(CHECK_PETSCDIR)/$(CHECK_PETSC_SUITE)

# Runs the suite's tests with aij (which builds the programs), then with each type those of them
# that passed with aij (only those count: the others, some of which hang, cost time alone), then the tests
# that failed with a type again in the control runs (CHECK_PETSC_CONTROLS: -mat_type <c>
# -dm_mat_type <c>, without our library; CHECK_PETSC_CONTROL_VEC), which tell failures that PETSc
# gives too apart. Each
# folder gets hard links to the programs built in the aij one (make then finds them up to date).
# CHECK_PETSC_BASELINE=keep takes the aij results already in the suite's aij folder (its TAP log,
# e.g. from a run on another machine) instead of running them, so that the types can be run one at
# a time (CHECK_PETSC_TYPES=pjds, CHECK_PETSC_CONTROLS= ) or on part of the suite (the types run, and
# the report counts, the tests of CHECK_PETSC_SEARCH that passed in it); the programs are then built
# in the first type's folder and linked from there into the others.
CHECK_PETSC_CONTROLS ?= aij aijperm
# the control runs take the vector type of the runs with our types when it is PETSc's own (cuda):
# tests that PETSc fails with its CUDA vectors alone are told apart too (snes ex19_fas converges in
# 197 steps instead of 20 with -dm_mat_type aij -dm_vec_type cuda in PETSc 3.26)
CHECK_PETSC_CONTROL_VEC = $(if $(filter gpu,$(CHECK_PETSC_VEC_TYPE)),,-vec_type $(CHECK_PETSC_VEC_TYPE) -dm_vec_type $(CHECK_PETSC_VEC_TYPE))
CHECK_PETSC_BASELINE ?= run

petsc_share_builds = src=$$(for d in aij $$(ls $(CHECK_PETSC_SUITEDIR)); do \
      test $$d = $(1) || ! find $(CHECK_PETSC_SUITEDIR)/$$d -name '*.o' -print -quit 2>/dev/null | grep -q . || { echo $$d; break; }; \
    done); \
  test -z "$$src" || ( cd $(CHECK_PETSC_SUITEDIR)/$$src && find . -name '*.o' ) | while read o; do \
    mkdir -p $(CHECK_PETSC_SUITEDIR)/$(1)/$${o%/*}; \
    for f in $$o $${o%.o}.d $${o%.o}; do \
      test ! -f $(CHECK_PETSC_SUITEDIR)/$$src/$$f || ln -f $(CHECK_PETSC_SUITEDIR)/$$src/$$f $(CHECK_PETSC_SUITEDIR)/$(1)/$$f; \
    done; \
  done

# The harness generates a folder's test scripts (testfiles) once: removing them makes it generate
# them again, with the fixed names of PETSC_TEST_MAKE (conf/test.mk), in folders of older runs too.
define petsc_suite_run
  rm -f $(CHECK_PETSC_SUITEDIR)/*/testfiles; \
  $(if $(filter keep,$(CHECK_PETSC_BASELINE)), \
    test -f $(CHECK_PETSC_SUITEDIR)/aij/$(PETSC_TAPLOG) || { echo "CHECK_PETSC_BASELINE=keep: no baseline in $(CHECK_PETSC_SUITEDIR)/aij/$(PETSC_TAPLOG)"; exit 1; };, \
    $(PETSC_TEST_MAKE) -k -j$(CHECK_JOBS) TESTDIR=$(CHECK_PETSC_SUITEDIR)/aij \
      TIMEOUT=$(CHECK_PETSC_TIMEOUT) gmakesearch='$(strip $(CHECK_PETSC_SEARCH))' test;) \
  passed=$$($(petsc_suite_report) --passed-tests); \
  [ -z "$$passed" ] || for t in $(CHECK_PETSC_TYPES); do \
    $(call petsc_share_builds,$$t); \
    $(PETSC_TEST_MAKE) -k -j$(CHECK_JOBS) TESTDIR=$(CHECK_PETSC_SUITEDIR)/$$t TIMEOUT=$(CHECK_PETSC_TIMEOUT) \
      EXTRA_OPTIONS="$(call CHECK_PETSC_OPTIONS,$$t)" gmakesearch="$$passed" test; \
  done; \
  failed=$$($(petsc_suite_report) --failed-tests); \
  rm -rf $(addprefix $(CHECK_PETSC_SUITEDIR)/control-,$(CHECK_PETSC_CONTROLS)); \
  if [ -n "$$failed" ]; then \
    echo "Control runs of the tests that failed: $$failed"; \
    for c in $(CHECK_PETSC_CONTROLS); do \
      $(call petsc_share_builds,control-$$c); \
      $(PETSC_TEST_MAKE) -k -j$(CHECK_JOBS) TESTDIR=$(CHECK_PETSC_SUITEDIR)/control-$$c TIMEOUT=$(CHECK_PETSC_TIMEOUT) \
        EXTRA_OPTIONS="-mat_type $$c -dm_mat_type $$c $(CHECK_PETSC_CONTROL_VEC) $(CHECK_PETSC_EXTRA)" gmakesearch="$$failed" test; \
    done; \
  fi
endef

petsc_suite_report = $(PYTHON) tests/petsc/report.py --dir $(CHECK_PETSC_SUITEDIR) --tap-log $(PETSC_TAPLOG) \
  --types '$(CHECK_PETSC_TYPES)' --exclusions $(CHECK_PETSC_EXCLUSIONS) --title 'PETSc $(CHECK_PETSC_SUITE):' \
  --controls '$(CHECK_PETSC_CONTROLS)' $(if $(CHECK_PETSC_EXPECTED),--expected '$(strip $(CHECK_PETSC_EXPECTED))') \
  $(if $(CHECK_PETSC_SEARCH),--search '$(strip $(CHECK_PETSC_SEARCH))')

.PHONY: check-petsc-views check-petsc check-petsc-ci check-petsc-ex2 check-petsc-mat check-petsc-report check-petsc-ci-run check-petsc-ci-report
