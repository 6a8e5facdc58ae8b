# Tutorials and benchmarks, included at the end of the top-level makefile.
#
#   make demo   [DEMO_ARGS=...]    tutorials/ex1: a 3D Laplacian solved with each matrix type
#   make bench  [BENCH_ARGS=...] [BENCH_EXTRA_ARGS=...]
#                                  bench/bench_spmv: MatMult per format next to AIJ on the
#                                  host and cuSPARSE CSR and sliced ELL (SELL), by default on the
#                                  suite $(BENCH_SUITE) (each generator class at 10^7
#                                  nonzeros and more) and on every .mtx and .mtx.gz file of
#                                  BENCH_REAL_DIR (../shared/matrices/real) when that folder is
#                                  there; a line per matrix as it is done, then a table (ms,
#                                  GFLOP/s, GB/s, %copy, speedup against the best cuSPARSE, device
#                                  MB, conversion ms, relative error), and JSON in $(BENCH_JSON).
#                                  BENCH_ARGS replaces the matrices and options, BENCH_EXTRA_ARGS
#                                  adds options: BENCH_EXTRA_ARGS=-sweep adds rows with other
#                                  settings of each format's options. Built against a PETSc with
#                                  CUDA (PETSC_DIR=...), also rows of PETSc's own aijcusparse and
#                                  sellcuda (-petsc_types; bench/bench_spmv_petsccuda.c)
#   make bench-plot                bench/plot_bench.py: a summary of $(BENCH_JSON) (geometric mean
#                                  against cuSPARSE, aijgpu's choices, the products bound by the launch,
#                                  % of copy bandwidth of the large matrices), then
#                                  charts next to it, bench_spmv_speedup.png and bench_spmv_roofline.png (matplotlib)
#   make bench-spmm [SPMM_ARGS=...] bench/bench_spmm: sparse times dense C = A B (MatMatMult with a
#                                  dense B of L = 1, 4, 8, 16, 32 columns) per format, B and C device
#                                  dense matrices on the device and plain dense ones on the host, next
#                                  to L separate MatMults, AIJ on the host and cuSPARSE SpMM; a table,
#                                  and JSON in $(SPMM_JSON)
#   make bench-assembly [ASSEMBLY_ARGS=...]
#                                  bench/bench_assembly: a SNES ex5 (2D Bratu) Jacobian on a
#                                  1024 x 1024 DMDA re-assembled per Newton step, per format next to
#                                  AIJ: MatAssemblyEnd, until ready on the device, and one copy of the
#                                  CSR values as the reference; a table, and JSON in $(ASSEMBLY_JSON)
#   make bench-mpi [BENCH_MPI_RANKS="1 2"] [BENCH_MPI_ARGS=...]
#                                  bench/bench_mpi: MatMult and CG+Jacobi on a 3D Laplacian at
#                                  each number of ranks (one GPU each), strong scaling on 300^3 and
#                                  weak scaling at 200^3 per rank, with the halo exchange overlapped
#                                  and not; a table row per run
#   make bench-solve [BENCH_SOLVE_ARGS=...] [BENCH_SOLVE_TYPES=...] [BENCH_SOLVE_VEC_TYPE=...]
#                                  bench/bench_solve.py: PETSc's tutorials as users run them, built from
#                                  PETSc's installed examples: ksp ex45 (3D Laplacian, 160^3, CG with
#                                  jacobi, ilu, gamg), snes ex19 (384^2, default PC and mg) and, where
#                                  the examples have it, bench_kspsolve (27-point, COO, 150^3; jacobi, ilu;
#                                  the setup's five costliest events of each run listed), with
#                                  each type of BENCH_SOLVE_TYPES: ours on one process (-dll_append,
#                                  -dm_mat_type, -dm_vec_type BENCH_SOLVE_VEC_TYPE: cuda where PETSc has
#                                  CUDA, else gpu), aijcusparse with cuda vectors on one process (where
#                                  PETSc has CUDA; without a GPU its rows show PETSc's error), aij on
#                                  all cores (mpiexec; ILU as bjacobi+ilu). One table of Newton steps,
#                                  KSP iterations, KSPSolve and whole-run time (-log_view, max over
#                                  ranks), a failed or timed-out run as such; logs and JSON in
#                                  $(BENCH_SOLVE_DIR). BENCH_SOLVE_ARGS: -cases, -nproc, -timeout
#                                  (s per run, default 600), -scale small (40^3, 64^2), -ex45_n,
#                                  -ex19_n, -types (python3 bench/bench_solve.py -h)
#   make tutorials                 only build them (ex1 and ex2 in $(TUTDIR), the benchmarks in $(BENCHDIR))
#
# The benchmarks' shared code (the bench/bench_*.c without a main: matrices, files, generators,
# timing, the parts of bench_spmv; bench/bench.mk) is compiled once and linked into each that uses
# it. With nvcc, the benchmarks are linked with their CUDA helper (device timing, copy bandwidth,
# copies, cuSPARSE); without, bench_spmv and bench_spmm time the host rows only and bench_assembly
# runs on the host backend only. The harness builds them on its own, without it.

TUTDIR           := $(ELLG_ARCH_DIR)/tutorials
BENCHDIR         := $(ELLG_ARCH_DIR)/bench
DEMO_ARGS        ?= -n 100
BENCH_SUITE      ?= bench/data/default.suite
BENCH_REAL_DIR   ?= $(abspath ../shared/matrices/real)
BENCH_ARGS       ?= -suite $(BENCH_SUITE)$(if $(wildcard $(BENCH_REAL_DIR)/.), -matrices $(BENCH_REAL_DIR))
BENCH_EXTRA_ARGS ?=
BENCH_JSON       := $(BENCHDIR)/bench_spmv.json
SPMM_ARGS        ?=
SPMM_JSON        := $(BENCHDIR)/bench_spmm.json
ASSEMBLY_ARGS ?=
ASSEMBLY_JSON := $(BENCHDIR)/bench_assembly.json

TUT_CFLAGS := $(ELLG_CFLAGS) -Iinclude $(PETSC_CC_INCLUDES)
TUT_LIBS   := -L$(LIBDIR) -Wl,-rpath,'$$ORIGIN/../../$(LIBDIR)' -lpetscellg $(PETSC_LIB)
BENCH_CUDA := $(if $(NVCC),$(BENCHDIR)/bench_cuda.cu.o $(BENCHDIR)/bench_cusparse.cu.o)

# the benchmarks' sources (bench/bench.mk, which gmakefile.test reads too)
include bench/bench.mk
BENCH_SHARED_OBJS := $(BENCH_SHARED:%=$(BENCHDIR)/%.o)
BENCH_SPMV_OBJS   := $(BENCH_SPMV_PARTS:%=$(BENCHDIR)/%.o)
BENCH_OBJS        := $(BENCH_SHARED_OBJS) $(BENCH_SPMV_OBJS) $(BENCH_PROGRAMS:%=$(BENCHDIR)/%.o)

# ellgconf.h changes with the CUDA setting, so the benchmarks are recompiled too
$(BENCH_OBJS): TUT_CFLAGS += $(if $(NVCC),-DBENCH_HAVE_CUDA)
$(BENCH_OBJS): $(wildcard bench/bench_*.h) src/include/ellgcompat.h $(ELLG_ARCH_DIR)/include/ellgconf.h

$(TUTDIR)/%.o: tutorials/%.c include/petscellg.h | petsc-found
	@mkdir -p $(@D)
	$(call say,CC)
	$(Q)$(PCC) $(TUT_CFLAGS) -c $< -o $@

$(BENCHDIR)/%.o: bench/%.c include/petscellg.h | petsc-found
	@mkdir -p $(@D)
	$(call say,CC)
	$(Q)$(PCC) $(TUT_CFLAGS) -c $< -o $@

$(BENCHDIR)/%.cu.o: bench/%.cu bench/bench_cuda.h bench/bench_cusparse.h bench/bench_cudainternal.h
	@mkdir -p $(@D)
	$(call say,NVCC)
	$(Q)$(NVCC) $(NVCC_FLAGS) -c $< -o $@

$(TUTDIR)/ex1 $(TUTDIR)/ex2: $(TUTDIR)/%: $(TUTDIR)/%.o $(LIB)
	$(call say,CLINKER)
	$(Q)$(PCC) -o $@ $< $(TUT_LIBS)

$(BENCHDIR)/bench_spmv: $(BENCH_SPMV_OBJS)
$(BENCH_PROGRAMS:%=$(BENCHDIR)/%): $(BENCHDIR)/%: $(BENCHDIR)/%.o $(BENCH_SHARED_OBJS) $(BENCH_CUDA) $(LIB)
	$(call say,CLINKER)
	$(Q)$(PCC) -o $@ $(filter %.o,$^) $(TUT_LIBS) $(CUDA_LIBS)

tutorials: $(TUTDIR)/ex1 $(TUTDIR)/ex2 $(BENCH_PROGRAMS:%=$(BENCHDIR)/%)

# a fresh make reads PETSc's variables after conf/deps.sh may have installed PETSc
demo:
	@sh conf/deps.sh
	@$(MAKE) --no-print-directory $(TUTDIR)/ex1
	$(TUTDIR)/ex1 $(DEMO_ARGS)

bench:
	@sh conf/deps.sh
	@$(MAKE) --no-print-directory $(BENCHDIR)/bench_spmv
	@mkdir -p $(dir $(BENCH_JSON))
	$(BENCHDIR)/bench_spmv $(BENCH_ARGS) $(BENCH_EXTRA_ARGS) -json $(BENCH_JSON)

bench-plot:
	python3 bench/plot_bench.py $(BENCH_JSON)

bench-spmm:
	@sh conf/deps.sh
	@$(MAKE) --no-print-directory $(BENCHDIR)/bench_spmm
	@mkdir -p $(dir $(SPMM_JSON))
	$(BENCHDIR)/bench_spmm $(SPMM_ARGS) -json $(SPMM_JSON)

bench-assembly:
	@sh conf/deps.sh
	@$(MAKE) --no-print-directory $(BENCHDIR)/bench_assembly
	@mkdir -p $(dir $(ASSEMBLY_JSON))
	$(BENCHDIR)/bench_assembly $(ASSEMBLY_ARGS) -json $(ASSEMBLY_JSON)

# the tutorials of bench-solve, compiled as PETSc compiles its examples
BENCH_SOLVE_DIR      := $(ELLG_ARCH_DIR)/bench-solve
BENCH_SOLVE_KSPSOLVE := $(wildcard $(PETSC_EXAMPLES_SRC)/ksp/ksp/tutorials/bench_kspsolve.c)
BENCH_SOLVE_PROGRAMS := $(BENCH_SOLVE_DIR)/ex45 $(BENCH_SOLVE_DIR)/ex19 $(if $(BENCH_SOLVE_KSPSOLVE),$(BENCH_SOLVE_DIR)/bench_kspsolve)
BENCH_SOLVE_TYPES    ?= $(strip $(ELLG_MAT_TYPES) $(if $(filter 1,$(PETSC_WITH_CUDA)),aijcusparse) aij)
BENCH_SOLVE_VEC_TYPE ?= $(if $(filter 1,$(ELLG_HAVE_PETSC_CUDA)),cuda,gpu)
BENCH_SOLVE_ARGS     ?=

$(BENCH_SOLVE_DIR)/ex45: $(PETSC_EXAMPLES_SRC)/ksp/ksp/tutorials/ex45.c
$(BENCH_SOLVE_DIR)/ex19: $(PETSC_EXAMPLES_SRC)/snes/tutorials/ex19.c
$(BENCH_SOLVE_DIR)/bench_kspsolve: $(BENCH_SOLVE_KSPSOLVE)
$(BENCH_SOLVE_PROGRAMS): | petsc-found
	@mkdir -p $(@D)
	$(call say,CC)
	$(Q)$(PCC) $(PCC_FLAGS) $(PETSC_CC_INCLUDES) -o $@ $< $(PETSC_LIB)

bench-solve:
	@sh conf/deps.sh
	@$(MAKE) --no-print-directory $(LIB) $(BENCH_SOLVE_PROGRAMS) $(TUTDIR)/ex2
	python3 bench/bench_solve.py -dir $(BENCH_SOLVE_DIR) -lib $(CURDIR)/$(LIB) -ex2 $(CURDIR)/$(TUTDIR)/ex2 -mpiexec "$(BENCH_MPIEXEC)" \
	  -types "$(BENCH_SOLVE_TYPES)" -vec_type $(BENCH_SOLVE_VEC_TYPE) -json $(BENCH_SOLVE_DIR)/bench_solve.json $(BENCH_SOLVE_ARGS)

BENCH_MPI_RANKS ?= 1 2
BENCH_MPI_ARGS  ?=
BENCH_MPIEXEC   ?= $(firstword $(wildcard $(PETSC_DIR)/bin/mpiexec) mpiexec)

bench-mpi:
	@sh conf/deps.sh
	@$(MAKE) --no-print-directory $(BENCHDIR)/bench_mpi
	@for s in "strong 300" "weak 200"; do set -- $$s; for p in $(BENCH_MPI_RANKS); do \
	  $(BENCH_MPIEXEC) -n $$p $(BENCHDIR)/bench_mpi -scaling $$1 -n $$2 $(BENCH_MPI_ARGS) || exit 1; done; done

.PHONY: tutorials demo bench bench-plot bench-spmm bench-assembly bench-mpi bench-solve
