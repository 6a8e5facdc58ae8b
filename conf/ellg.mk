# Build configuration of PETSc-ELLG, included by the top-level makefile.
#
#   PETSC_DIR, PETSC_ARCH  where PETSc is (default: Debian's petsc-dev, /usr/lib/petsc)
#   CUDA_DIR               the CUDA toolkit (default /usr/local/cuda); without nvcc there the
#                          library is built with the host backend only
#   CUDA_ARCH              GPU architectures for nvcc, e.g. "90" (default: 80 90; CUDA 13 supports 75 and newer); PTX of
#                          the newest is embedded too, so later GPUs run it
#   PREFIX                 install prefix for `make install`
#   ELLG_ARCH              build folder (default: arch for Debian's PETSc, else arch-petsc-<version>)

PETSC_DIR  ?= /usr/lib/petsc
PETSC_ARCH ?=
CUDA_DIR   ?= /usr/local/cuda
CUDA_ARCH  ?= 80 90
PREFIX     ?= /usr/local

PETSC_VARIABLES := $(wildcard $(PETSC_DIR)/$(PETSC_ARCH)/lib/petsc/conf/petscvariables)
ifneq ($(PETSC_VARIABLES),)
include $(PETSC_VARIABLES)
endif

NVCC := $(wildcard $(CUDA_DIR)/bin/nvcc)
ifeq ($(WITH_CUDA),0)
NVCC :=
endif
ELLG_HAVE_CUDA := $(if $(NVCC),1,0)
# a PETSc built with CUDA (aijcusparse, cuda vectors), whose CUDA vectors the cuda backend then uses in place
PETSC_WITH_CUDA      := $(if $(shell grep -s '^\#define PETSC_HAVE_CUDA 1' $(PETSC_DIR)/$(PETSC_ARCH)/include/petscconf.h),1,0)
ELLG_HAVE_PETSC_CUDA := $(if $(NVCC),$(PETSC_WITH_CUDA),0)
# an NVIDIA driver on this machine: the tests that need a GPU (`requires: gpu`) run only here
ELLG_HAVE_GPU := $(if $(wildcard /dev/nvidiactl),1,0)

# Build folders: arch/ (objects, tests) and lib/ for the default PETSc; for another one (make
# PETSC_DIR=<prefix> ...) arch-petsc-<version>/, with its lib/ inside, so that builds against several
# PETSc versions live side by side. ELLG_ARCH names the folder.
PETSC_VERSION := $(shell awk '/^\#define PETSC_VERSION_(MAJOR|MINOR|SUBMINOR) / { v = v s $$3; s = "." } END { print v }' \
                   $(firstword $(wildcard $(PETSC_DIR)/$(PETSC_ARCH)/include/petscversion.h $(PETSC_DIR)/include/petscversion.h) /dev/null))
ifeq ($(PETSC_DIR)$(PETSC_ARCH),/usr/lib/petsc)
ELLG_ARCH ?= arch
else
ELLG_ARCH ?= arch-petsc-$(PETSC_VERSION)
endif
ELLG_ARCH_DIR := $(ELLG_ARCH)
OBJDIR        := $(ELLG_ARCH_DIR)/obj
LIBDIR        := $(if $(filter arch,$(ELLG_ARCH)),lib,$(ELLG_ARCH)/lib)
LIBNAME       := libpetscellg.so

# The library's version (PETSCELLG_VERSION of include/petscellg.h), which petscellg.pc gives
ELLG_VERSION := $(shell sed -n 's/^\#define PETSCELLG_VERSION "\(.*\)"/\1/p' include/petscellg.h)

# For petscellg.pc (make install). PETSc's headers include mpi.h and its macros call MPI
# (PETSC_COMM_SELF is MPI_COMM_SELF), but PETSc.pc names no MPI flags where PETSc compiles with an
# MPI wrapper (mpicc), as Debian's does: the .pc adds those of PETSc's MPI, so that a plain cc
# compiles and links. They are PETSc's MPI_INCLUDE and MPI_LIB where it was configured with the
# MPI's folders, else what its wrapper adds: MPICC_SHOW as PETSc's configure recorded it (newer
# PETSc), else asked of $(PCC) (Open MPI's -showme, MPICH's -show). Evaluated by install only.
comma           := ,
ELLG_MPI_SHOW    = $(or $(MPICC_SHOW),$(shell $(PCC) -showme 2>/dev/null || $(PCC) -show 2>/dev/null))
ELLG_MPI_CFLAGS  = $(or $(MPI_INCLUDE),$(filter -I% -D% -pthread,$(ELLG_MPI_SHOW)))
ELLG_MPI_LIBS    = $(or $(MPI_LIB),$(filter -L% -l% -Wl$(comma)% -pthread,$(ELLG_MPI_SHOW)))
# The library is built against this PETSc minor release (x.y: its ABI), which the .pc requires, so
# that pkg-config fails rather than mixing in another PETSc's PETSc.pc; PETSc's lib folder is
# the executable's rpath too (PETSc.pc has none), so that it runs without LD_LIBRARY_PATH.
ELLG_PC_REQUIRES = $(shell echo $(PETSC_VERSION) | awk -F. '{ print "PETSc >= " $$1 "." $$2 ", PETSc < " $$1 "." $$2 + 1 }')
ELLG_PETSC_LIBDIR = $(abspath $(PETSC_DIR)/$(PETSC_ARCH)/lib)

# $(call petsc_version_ge,<x.y.z>): non-empty when the PETSc found is version x.y.z or later
petsc_version_ge = $(if $(PETSC_VERSION),$(filter $(1),$(firstword $(shell printf '%s\n' $(1) $(PETSC_VERSION) | sort -V))))

# The TAP log that the harness's test scripts write into their TESTDIR, test_<arch>_tap.log (the one
# place that names it: gmakefile.test, conf/test.mk and tests/petsc/petsc.mk take it from here, and
# tests/petsc/report.py from its --tap-log). <arch> is PETSC_ARCH in PETSc's own tests (empty for an
# installed PETSc: test__tap.log); in ours, a package's tests (gmakegentest.py --pkg-arch=$(ELLG_ARCH)),
# it is PETSC_ARCH too up to PETSc 3.23.4, and the package's arch from 3.23.5 on, whose gmakegentest.py
# substitutes --pkg-arch: test_arch-petsc-3.26.1_tap.log for the build against 3.26.1.
PETSC_TAPLOG := test_$(PETSC_ARCH)_tap.log
ELLG_TAPARCH := $(if $(call petsc_version_ge,3.23.5),$(ELLG_ARCH_DIR),$(PETSC_ARCH))
ELLG_TAPLOG  := test_$(ELLG_TAPARCH)_tap.log

ELLG_CFLAGS   := -O2 -g -fPIC -Wall -Wno-unused-function -std=gnu11
ELLG_CPPFLAGS := -Iinclude -Isrc/include -I$(ELLG_ARCH_DIR)/include $(PETSC_CC_INCLUDES)
NVCC_GENCODE  := $(foreach a,$(CUDA_ARCH),-gencode arch=compute_$(a),code=sm_$(a)) \
                 -gencode arch=compute_$(lastword $(CUDA_ARCH)),code=compute_$(lastword $(CUDA_ARCH))
NVCC_FLAGS    := -O3 -std=c++17 -Xcompiler -fPIC -Isrc/include $(NVCC_GENCODE)
CUDA_LIBS     :=
ifneq ($(NVCC),)
CUDA_LIBS     := -L$(CUDA_DIR)/lib64 -Wl,-rpath,$(CUDA_DIR)/lib64 -lcublas -lcusparse -lcudart
endif

# Build lines as PETSc's build prints them, "  CC      <target>"; make V=1 prints the whole commands
Q   := $(if $(filter 1,$(V)),,@)
say  = $(if $(filter 1,$(V)),,@printf '  %-7s %s\n' $(1) $@)

# Open MPI refuses to start as root unless told (tests, demo and bench run MPI programs)
ifeq ($(shell id -u),0)
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
endif
