# Tests, included at the end of the top-level makefile.
#
#   make check            conf/deps.sh (installs missing Debian packages as root, else says what
#                         to install), builds the library, then runs every test: the harness tests
#                         of tests/, tutorials/ and bench/ (gmakefile.test) and a subset of PETSc's own
#                         installed KSP and SNES tutorials, plainly and with each of our types
#                         ($(ELLG_MAT_TYPES), check-petsc-ci in tests/petsc/petsc.mk), check-pkgconfig,
#                         check-petsc4py and check-scripts;
#                         ends with one line "N passed, M failed" (", K skipped" when K > 0) and
#                         fails when M > 0 or N = 0
#   make test             only the harness tests; gmakefile.test's variables pass through:
#                         search='tests-ex1_*', EXTRA_OPTIONS='-ellg_backend host', V=1, ...; ends
#                         with "N passed, M failed" as check does, and fails when M > 0
#   make check-petsc ...  PETSc's tests with our types: see tests/petsc/petsc.mk
#   make check-pkgconfig  a program built by a plain cc with the installed petscellg.pc's flags runs
#   make memcheck         on a GPU node: the core tests (MEMCHECK_TESTS) with each process under
#                         compute-sanitizer's memcheck (conf/memcheck-mpiexec as the harness's mpiexec;
#                         COMPUTE_SANITIZER: its path, found on the PATH or in the CUDA toolkit); a test
#                         fails on any error the tool reports, and a last line counts the processes checked
#   make cleantest        removes the test results
#
# A test is one harness test case (each value of a {{...}} loop is one); it passes when it ran
# and its output matched. Results: arch/tests and arch/petsc-tests/<suite>/<type> (in
# arch-petsc-<version>/ for another PETSc), each with its TAP log (ELLG_TAPLOG and PETSC_TAPLOG, see
# conf/ellg.mk), counts/ and the run folders. CHECK_JOBS tests (default: one per CPU) run at once.

CHECK_JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
CHECK_TESTDIR  := $(CURDIR)/$(ELLG_ARCH_DIR)/tests
CHECK_PETSCDIR := $(CURDIR)/$(ELLG_ARCH_DIR)/petsc-tests
hash           := \#

# Our matrix types (root names); PETSc's tests run with each (tests/petsc/petsc.mk: CHECK_PETSC_OPTIONS)
ELLG_MAT_TYPES    := ellg pjds slicedell csrg aijgpu
# PETSc's harness makefile, as installed (Debian's hardcodes a ...-real-debug PETSC_DIR: override it).
# gmakegentest.py names the cases of a loop over several variables in the order of a Python set:
# a fixed hash seed gives them the same names in every test folder. One OpenMP thread per MPI rank:
# the harness runs CHECK_JOBS tests at once, each with its nsize ranks, and OpenMP threads on top
# of those (Debian's SuperLU_DIST uses them) oversubscribe the cores: ksp ex5f_superlu_dist_3, 15
# ranks on 2 cores, takes 130 s with a thread per core and rank, 2 s with one.
PETSC_TEST_MAKE = PYTHONHASHSEED=0 OMP_NUM_THREADS=1 $(MAKE) --no-print-directory -f $(PETSC_DIR)/share/petsc/examples/gmakefile.test \
  PETSC_DIR=$(PETSC_DIR) PETSC_ARCH=$(PETSC_ARCH)

# A fresh make reads PETSc's variables after conf/deps.sh may have installed PETSc. Failing tests
# do not stop the run; the last command counts them.
check:
	@sh conf/deps.sh
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) all
	@rm -f $(CHECK_TESTDIR)/$(ELLG_TAPLOG) $(CHECK_PETSCDIR)/ci/*/$(PETSC_TAPLOG)
	-@$(MAKE) --no-print-directory -k -j$(CHECK_JOBS) -f gmakefile.test test TESTDIR=$(CHECK_TESTDIR)
	-@$(MAKE) --no-print-directory check-petsc-ci-run
	@expected=$$($(MAKE) -s --no-print-directory -f gmakefile.test print-test TESTDIR=$(CHECK_TESTDIR) | tail -n 1); \
	{ $(call check_count,tests tutorials and benchmarks,$(CHECK_TESTDIR),$$expected); \
	  $(MAKE) -s --no-print-directory check-petsc-ci-report; \
	  $(MAKE) -s --no-print-directory check-petsc-views; \
	  $(MAKE) -s --no-print-directory check-pkgconfig; \
	  $(MAKE) -s --no-print-directory check-petsc4py; \
	  $(MAKE) -s --no-print-directory check-scripts; } | $(check_total)

test: all
	@rm -f $(CHECK_TESTDIR)/$(ELLG_TAPLOG)
	-@$(MAKE) --no-print-directory -j$(CHECK_JOBS) -f gmakefile.test test TESTDIR=$(CHECK_TESTDIR)
	@$(call check_count,harness tests,$(CHECK_TESTDIR),) | $(check_total)

# the tests whose code paths every change to device code must keep clean under compute-sanitizer: products, value
# and structure changes, factors, SOR and transposes, aijgpu's choice, the graph, COO assembly of matrices and
# vectors, the log counts and single-precision values
MEMCHECK_TESTS    ?= tests-ex1_1 tests-ex2_1 tests-ex10_1 tests-ex12_1 tests-ex15_1 tests-ex17_1 tests-ex19_1 tests-ex20_1 tests-ex21_1 tests-ex22_1
MEMCHECK_JOBS     ?= 8
MEMCHECK_TIMEOUT  ?= 600
MEMCHECK_LOGDIR   := $(CHECK_TESTDIR)/memcheck
COMPUTE_SANITIZER ?= $(firstword $(shell command -v compute-sanitizer 2>/dev/null) $(wildcard $(CUDA_DIR)/bin/compute-sanitizer $(CUDA_DIR)/compute-sanitizer/compute-sanitizer /usr/local/cuda*/bin/compute-sanitizer /usr/local/cuda*/compute-sanitizer/compute-sanitizer /opt/nvidia/compute-sanitizer*/compute-sanitizer /opt/nvidia/*/compute-sanitizer/compute-sanitizer))

memcheck: all
	@test -n "$(COMPUTE_SANITIZER)" || { echo "make memcheck: compute-sanitizer is not on the PATH nor in $(CUDA_DIR): give its path as COMPUTE_SANITIZER=<path>"; exit 1; }
	@echo "compute-sanitizer: $(COMPUTE_SANITIZER)"
	@rm -rf $(MEMCHECK_LOGDIR) && mkdir -p $(MEMCHECK_LOGDIR)
	@rc=0; COMPUTE_SANITIZER="$(COMPUTE_SANITIZER)" MEMCHECK_LOGDIR=$(MEMCHECK_LOGDIR) PETSCMPIEXEC="$(CURDIR)/conf/memcheck-mpiexec $(MPIEXEC)" \
	  $(MAKE) --no-print-directory test search='$(MEMCHECK_TESTS)' CHECK_JOBS=$(MEMCHECK_JOBS) TIMEOUT=$(MEMCHECK_TIMEOUT) || rc=1; \
	n=$$(ls $(MEMCHECK_LOGDIR) | wc -l); bad=$$(grep -L 'ERROR SUMMARY: 0 errors' $(MEMCHECK_LOGDIR)/* 2>/dev/null); \
	echo "compute-sanitizer memcheck: $$n processes, $$(echo $$bad | wc -w) with errors (reports: $(MEMCHECK_LOGDIR))"; \
	for f in $$bad; do echo "--- $$f"; head -n 40 $$f; done; test $$rc = 0 -a $$n -gt 0 -a -z "$$bad"

cleantest:
	rm -rf $(CHECK_TESTDIR) $(CHECK_PETSCDIR) $(CHECK_PCPREFIX)

# check-pkgconfig: the installed petscellg.pc suffices to build a program with a plain C compiler
# (PKGCONFIG_CC, default cc, not PETSc's MPI wrapper) and run it: installs into CHECK_PCPREFIX, then
# compiles, links and runs conf/pkgconfig-check.c with pkg-config's flags (PETSc's PETSc.pc from
# its lib/pkgconfig). Prints a suite line and a counts line, as check_count does; without pkg-config
# the test is skipped. The commands and their output go to CHECK_PCPREFIX/check.log.
PKGCONFIG_CC   ?= cc
CHECK_PCPREFIX := $(CURDIR)/$(ELLG_ARCH_DIR)/pkgconfig-test
check-pkgconfig:
	@suite='pkg-config, plain cc:'; log=$(CHECK_PCPREFIX)/check.log; rm -rf $(CHECK_PCPREFIX); \
	if ! command -v pkg-config >/dev/null 2>&1; then \
	  printf '%-26s %4d ok, %d not ok, %d skipped (no pkg-config)\ncounts 0 0 1\n' "$$suite" 0 0 1; exit 0; fi; \
	mkdir -p $(CHECK_PCPREFIX); \
	if ( set -x; $(MAKE) --no-print-directory install PREFIX=$(CHECK_PCPREFIX) && \
	     export PKG_CONFIG_PATH=$(CHECK_PCPREFIX)/lib/pkgconfig:$(ELLG_PETSC_LIBDIR)/pkgconfig && \
	     cflags=$$(pkg-config --cflags petscellg) && libs=$$(pkg-config --libs petscellg) && \
	     $(PKGCONFIG_CC) $$cflags conf/pkgconfig-check.c $$libs -o $(CHECK_PCPREFIX)/pkgconfig-check && \
	     out=$$($(CHECK_PCPREFIX)/pkgconfig-check) && echo "$$out" && test "$$out" = ok ) > $$log 2>&1; then \
	  printf '%-26s %4d ok, %d not ok, %d skipped\ncounts 1 0 0\n' "$$suite" 1 0 0; \
	else printf '%-26s %4d ok, %d not ok, %d skipped\n    not ok: pkgconfig-check (see %s)\ncounts 0 1 0\n' "$$suite" 0 1 0 $$log; fi

# check-scripts: the tests of the benchmarks' Python scripts (bench/test_plot_bench.py: bench-plot's summary on
# results made by the test), a suite line and a counts line; the details in CHECK_SCRIPTS_LOG. Then whether
# docs/reference.md is what `make reference` makes of the manual pages now (a suite line and a counts line), and the
# tests of make memcheck's mpiexec, conf/memcheck-mpiexec (conf/test_memcheck_mpiexec.sh). A run that
# prints no counts (Python missing, a script that does not load) counts as one failure, its errors in
# CHECK_SCRIPTS_LOG.err
CHECK_SCRIPTS_LOG := $(CURDIR)/$(ELLG_ARCH_DIR)/tests/scripts.log
check-scripts:
	@mkdir -p $(dir $(CHECK_SCRIPTS_LOG)); \
	out=$$(python3 bench/test_plot_bench.py $(CHECK_SCRIPTS_LOG) 2> $(CHECK_SCRIPTS_LOG).err); \
	if printf '%s\n' "$$out" | grep -q '^counts '; then printf '%s\n' "$$out"; \
	else printf '%-26s %4d ok, %d not ok, %d skipped\n    not ok: bench/test_plot_bench.py did not run (see %s)\ncounts 0 1 0\n' 'python scripts:' 0 1 0 $(CHECK_SCRIPTS_LOG).err; fi; \
	python3 conf/manpages.py --check docs/reference.md || true; \
	out=$$(bash conf/test_memcheck_mpiexec.sh 2>> $(CHECK_SCRIPTS_LOG).err); \
	if printf '%s\n' "$$out" | grep -q '^counts '; then printf '%s\n' "$$out"; \
	else printf '%-26s %4d ok, %d not ok, %d skipped\n    not ok: conf/test_memcheck_mpiexec.sh did not run (see %s)\ncounts 0 1 0\n' 'memcheck wrapper:' 0 1 0 $(CHECK_SCRIPTS_LOG).err; fi

# check-petsc4py: the library loaded through petsc4py.init() and our types solving from Python
# (tests/petsc4py/check.py), with Debian's python3 where it is (Debian's python3-petsc4py is for its
# python); skipped where petsc4py is missing or of another PETSc. conf/deps.sh installs Debian's
# python3-petsc4py for Debian's PETSc.
PETSC4PY_PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
check-petsc4py: all
	@$(PETSC4PY_PYTHON) tests/petsc4py/check.py $(CURDIR)/$(LIB) $(PETSC_VERSION) || true

# docs/reference.md: the manual pages of the sources (conf/manpages.py); check-scripts checks it is current
reference:
	python3 conf/manpages.py > docs/reference.md

# $(call check_count,<suite>,<test dir>,<expected tests>) reads the TAP log of a run and prints a
# line for the suite, naming the tests that failed, then "counts <passed> <failed> <skipped>".
# A test case fails when a line of it (run or diff) is "not ok", is skipped when it says SKIP or
# TODO; an expected test without any line did not run (e.g. its build failed): it fails too.
# ("SKIP Command failed so no diff" only follows the "not ok" of a run.)
check_count = cat $(2)/$(ELLG_TAPLOG) 2>/dev/null | awk -v suite='$(1)' -v expected="$(strip $(3))" ' \
  /$(hash) SKIP Command failed/ { next } \
  /^ *(not )?ok / { notok = ($$1 == "not"); t = notok ? $$3 : $$2; sub(/^diff-/, "", t); \
    if (!(t in st)) st[t] = "pass"; \
    if (notok) st[t] = "fail"; else if ($$0 ~ /$(hash) (SKIP|TODO)/ && st[t] != "fail") st[t] = "skip" } \
  END { n = split(expected, e, " "); \
    for (i = 1; i <= n; i++) { ran = 0; for (t in st) if (t == e[i] || index(t, e[i] "+") == 1) ran = 1; \
      if (!ran) st[e[i] " (did not run)"] = "fail" } \
    for (t in st) { c[st[t]]++; if (st[t] == "fail") f[++nf] = t } \
    printf "%-26s %4d ok, %d not ok, %d skipped\n", suite ":", c["pass"], c["fail"], c["skip"]; \
    for (i = 2; i <= nf; i++) for (j = i; j > 1 && f[j - 1] > f[j]; j--) { t = f[j]; f[j] = f[j - 1]; f[j - 1] = t } \
    for (i = 1; i <= nf; i++) printf "    not ok: %s\n", f[i]; \
    printf "counts %d %d %d\n", c["pass"], c["fail"], c["skip"] }'

# adds up the counts lines into the final line; the status says whether all passed
check_total = awk '/^counts / { p += $$2; f += $$3; s += $$4; next } { print } \
  END { printf "%d passed, %d failed%s\n", p, f, s ? sprintf(", %d skipped", s) : ""; exit (f > 0 || p == 0) }'

.PHONY: check test memcheck cleantest check-pkgconfig check-petsc4py check-scripts reference
