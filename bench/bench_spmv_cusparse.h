/*
   The cuSPARSE rows of bench_spmv: SpMV on the bench's own device copy of the matrix, in CSR and in
   sliced ELL (bench_cusparse.h), timed as the device rows of our formats and checked against AIJ's
   (bench_spmv_cusparse.c).
*/
#pragma once
#include "bench_cusparse.h"
#include "bench_spmv_report.h"

/* The cuSPARSE row of one format on cs, the bench's own device copy of the matrix and of x: A stored in
   the format (timed: the copy of CSR, or SELL made on the host and copied), then each SpMV algorithm of the
   format timed as the device rows of our formats (once, untimed, with -check_only), the best kept. A matrix
   cuSPARSE cannot store in the format, or has no algorithm for, is a skipped row that says why */
PetscErrorCode RunCusparseFormat(Bench *b, const CSR *csr, BenchCusparse cs, BenchCusparseFormat format, Vec yref);

/* The cuSPARSE rows: CSR (the better of ALG1 and ALG2) and sliced ELL (SELL_ALG1), skipped without a GPU */
PetscErrorCode RunCusparse(Bench *b, const CSR *csr, Vec x, Vec yref);
