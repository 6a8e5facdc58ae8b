# The benchmarks' sources, for conf/bench.mk and gmakefile.test: the programs, the code they share
# (compiled once, linked into each) and the parts of bench_spmv
BENCH_PROGRAMS   := bench_spmv bench_spmm bench_assembly bench_mpi
BENCH_SHARED     := bench_common bench_csr bench_files bench_generators bench_matrices
BENCH_SPMV_PARTS := bench_spmv_cusparse bench_spmv_petsccuda bench_spmv_report bench_spmv_settings
