# PETSc's own tests with our types, included by the top-level makefile after conf/test.mk.
#
#   make check-petsc      PETSc's installed ksp/ksp, ksp/pc and snes tutorials (CHECK_PETSC_GROUPS)
#                         through PETSc's harness: first plainly (aij, the baseline), then with
#                         each of our types T ($(ELLG_MAT_TYPES)) substituted through EXTRA_OPTIONS:
#                         -mat_type T -dm_mat_type T -vec_type gpu -dm_vec_type gpu (see
#                         CHECK_PETSC_OPTIONS). Long: about an hour on 2 cores.
#   make check-petsc-ci   the representative subset that `make check` runs (CHECK_PETSC_CI_TESTS)
#   make check-petsc-ex2  PETSc's ksp/ksp/tutorials ex2 tests only
#   make check-petsc-report [CHECK_PETSC_SUITE=all|ci|ex2]  the report of the last run again
#
# Narrower runs: make check-petsc CHECK_PETSC_SEARCH='snes_tutorials-ex19_%' (gmakesearch
# patterns), CHECK_PETSC_TYPES=pjds, CHECK_PETSC_TIMEOUT=<s>, CHECK_JOBS=<n>; the harness's
# variables pass through (V=1, CUDAMEMCHECK=1, VALGRIND=1, ...).
#
# A test case (a TAP label: one test, or one value of a {{...}} loop) counts for a type only when
# it passed with aij. For each type the report says "<type>: N passed, M failed (K excluded,
# baseline B)", then a table group x type (passed/baseline, %), the failures, and a last line
# "N passed, M failed, K excluded"; the target fails when a case failed. Cases whose name
# matches a pattern of conf/petsc-exclusions.txt (with the reason why the test cannot give the
# same output with another type) are excluded, not failed. conf/petsc-report.py does the count.
#
# Results: arch/petsc-tests/<suite>/<type> (suite: all, ci, ex2; type: aij and ours), each a
# harness TESTDIR with its TAP log (test__tap.log), counts/ and run folders. The programs are
# built once, in the aij folder; the folders of the other types get hard links to them.

CHECK_PETSC_GROUPS     ?= ksp_ksp_tutorials ksp_pc_tutorials snes_tutorials
# PETSc's mat tests and tutorials where a -mat_type applies: those of the programs that call
# MatSetFromOptions() (mat_tests-ex1_%, ...)
PETSC_EXAMPLES_SRC      = $(PETSC_DIR)/share/petsc/examples/src
CHECK_PETSC_MAT_SEARCH  = $(foreach f,$(shell cd $(PETSC_EXAMPLES_SRC)/mat 2>/dev/null && \
                            grep -l MatSetFromOptions tests/*.c tutorials/*.c),mat_$(subst /,-,$(basename $(f)))_%)
CHECK_PETSC_TYPES      ?= $(ELLG_MAT_TYPES)
CHECK_PETSC_TIMEOUT    ?= 120
CHECK_PETSC_EXCLUSIONS := $(CURDIR)/conf/petsc-exclusions.txt
CHECK_PETSC_OPTIONS     = -dll_append $(CURDIR)/$(LIBDIR)/$(LIBNAME) -mat_type $(1) -dm_mat_type $(1) \
                          -vec_type gpu -dm_vec_type gpu

# The subset for CI (make check): PETSc tests that pass with aij on Debian's PETSc, each run with
# every type (the baseline must pass them too). KSP on assembled matrices (ex2: many Krylov
# methods and preconditioners, ex23, ...), DMDA matrices and vectors (-dm_mat_type: ksp ex29,
# ex32, ex45, ex50, snes ex5, ex19, ...), MPI (nsize 2-4) and multigrid, fieldsplit, GAMG, ...
CHECK_PETSC_CI_TESTS := $(PETSC_EX2_TESTS) \
  $(addprefix ksp_ksp_tutorials-,ex1_1 ex1_2 ex1_3 ex3_1 ex5_1 ex5_2 ex7_1 ex8_1 ex9_1 ex23_1 \
    ex23_2 ex29_1 ex32_1 ex34_1 ex45_1 ex50_1 ex50_2 ex55_1 ex56_1) \
  $(addprefix ksp_pc_tutorials-,ex1_1 ex2_1 ex3_1) \
  $(addprefix snes_tutorials-,ex1_1 ex2_1 ex3_1 ex5_1 ex5_2 ex14_1 ex19_1 ex19_2 ex19_3 ex22_1 \
    ex35_1 ex48_1)

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

# for `make check`: the CI subset's run, then its report as counts lines for check_total
check-petsc-ci-run:
	-@$(petsc_suite_run)
check-petsc-ci-report:
	@$(petsc_suite_report) --counts

CHECK_PETSC_SUITEDIR = $(CHECK_PETSCDIR)/$(CHECK_PETSC_SUITE)

# Runs the suite's tests with aij (which builds the programs), then with each type, then the tests
# that failed with a type again in the control runs (CHECK_PETSC_CONTROLS: -mat_type <c>
# -dm_mat_type <c>, without our library), which tell failures that PETSc gives too apart. Each
# folder gets hard links to the programs built in the aij one (make then finds them up to date).
CHECK_PETSC_CONTROLS ?= aij aijperm

petsc_share_builds = ( cd $(CHECK_PETSC_SUITEDIR)/aij && find . -name '*.o' ) | while read o; do \
    mkdir -p $(CHECK_PETSC_SUITEDIR)/$(1)/$${o%/*}; \
    for f in $$o $${o%.o}.d $${o%.o}; do \
      test ! -f $(CHECK_PETSC_SUITEDIR)/aij/$$f || ln -f $(CHECK_PETSC_SUITEDIR)/aij/$$f $(CHECK_PETSC_SUITEDIR)/$(1)/$$f; \
    done; \
  done

define petsc_suite_run
  $(PETSC_TEST_MAKE) -k -j$(CHECK_JOBS) TESTDIR=$(CHECK_PETSC_SUITEDIR)/aij \
    TIMEOUT=$(CHECK_PETSC_TIMEOUT) gmakesearch='$(strip $(CHECK_PETSC_SEARCH))' test; \
  for t in $(CHECK_PETSC_TYPES); do \
    $(call petsc_share_builds,$$t); \
    $(PETSC_TEST_MAKE) -k -j$(CHECK_JOBS) TESTDIR=$(CHECK_PETSC_SUITEDIR)/$$t TIMEOUT=$(CHECK_PETSC_TIMEOUT) \
      EXTRA_OPTIONS="$(call CHECK_PETSC_OPTIONS,$$t)" gmakesearch='$(strip $(CHECK_PETSC_SEARCH))' test; \
  done; \
  failed=$$($(petsc_suite_report) --failed-tests); \
  rm -rf $(addprefix $(CHECK_PETSC_SUITEDIR)/control-,$(CHECK_PETSC_CONTROLS)); \
  if [ -n "$$failed" ]; then \
    echo "Control runs of the tests that failed: $$failed"; \
    for c in $(CHECK_PETSC_CONTROLS); do \
      $(call petsc_share_builds,control-$$c); \
      $(PETSC_TEST_MAKE) -k -j$(CHECK_JOBS) TESTDIR=$(CHECK_PETSC_SUITEDIR)/control-$$c TIMEOUT=$(CHECK_PETSC_TIMEOUT) \
        EXTRA_OPTIONS="-mat_type $$c -dm_mat_type $$c" gmakesearch="$$failed" test; \
    done; \
  fi
endef

petsc_suite_report = $(PYTHON) conf/petsc-report.py --dir $(CHECK_PETSC_SUITEDIR) \
  --types '$(CHECK_PETSC_TYPES)' --exclusions $(CHECK_PETSC_EXCLUSIONS) --title 'PETSc $(CHECK_PETSC_SUITE):' \
  --controls '$(CHECK_PETSC_CONTROLS)' $(if $(CHECK_PETSC_EXPECTED),--expected '$(strip $(CHECK_PETSC_EXPECTED))')

.PHONY: check-petsc check-petsc-ci check-petsc-ex2 check-petsc-mat check-petsc-report check-petsc-ci-run check-petsc-ci-report
