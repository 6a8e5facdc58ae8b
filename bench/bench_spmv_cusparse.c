/* The cuSPARSE rows of bench_spmv (bench_spmv_cusparse.h) */
#include "bench_spmv_cusparse.h"

PetscErrorCode RunCusparseFormat(Bench *b, const CSR *csr, BenchCusparse cs, BenchCusparseFormat format, Vec yref)
{
  const PetscBool sell = (PetscBool)(format == BENCH_CUSPARSE_SELL);
  Result         *r = NULL;

  PetscFunctionBeginUser;
  PetscCall(BenchAddResult(b, csr, "cusparse", sell ? "SELL" : "CSR", "GPU", &r));
  PetscCall(PetscStrncpy(r->vectors, "device", sizeof(r->vectors)));
  PetscCall(PetscStrncpy(r->backend, "cuda", sizeof(r->backend)));
  if (!cs) {
    PetscCall(PetscStrncpy(r->skipped, b->dev.none, sizeof(r->skipped)));
    PetscFunctionReturn(0);
  }
#if defined(BENCH_HAVE_CUDA)
  {
    const BenchCusparseAlg  csralgs[] = {BENCH_CUSPARSE_CSR_ALG1, BENCH_CUSPARSE_CSR_ALG2}, sellalgs[] = {BENCH_CUSPARSE_SELL_ALG1};
    const char             *csrnames[] = {"CSR-ALG1", "CSR-ALG2"}, *sellnames[] = {"SELL"};
    const BenchCusparseAlg *algs  = sell ? sellalgs : csralgs;
    const char *const      *names = sell ? sellnames : csrnames;
    const PetscInt          nalgs = sell ? 1 : 2, reps = b->check_only ? 1 : b->reps;
    PetscInt                ran = 0;
    PetscLogDouble          t0, t1;
    PetscReal              *t;
    size_t                  bytes;
    Vec                     y;
    int                     err;

    PetscCall(BenchSynchronizedTime(&b->dev, &t0));
    err = BenchCusparseSetMatrix(cs, format, (const int *)csr->rowptr, (const int *)csr->colidx, (const double *)csr->val, &bytes);
    PetscCall(BenchSynchronizedTime(&b->dev, &t1));
    if (err) {
      PetscCall(PetscSNPrintf(r->skipped, sizeof(r->skipped), "cuSPARSE could not store the matrix in %s: %s", r->variant, BenchCudaErrorString(err)));
      PetscFunctionReturn(0);
    }
    r->bytes   = (PetscReal)bytes;
    r->conv_ms = 1e3 * (t1 - t0);
    PetscCall(VecDuplicate(yref, &y));
    PetscCall(PetscMalloc1(reps, &t));
    for (PetscInt a = 0; a < nalgs; a++) {
      PetscScalar *ya;
      PetscReal    ms, relerr;

      err = BenchCusparseTime(cs, algs[a], b->queued && !b->check_only, b->check_only ? 0 : (int)b->warmup, (int)reps, (double *)t);
      if (err == BENCH_CUSPARSE_NOT_SUPPORTED) continue;
      PetscCallBenchCuda(err);
      PetscCall(Median(reps, t, &ms));
      PetscCall(VecGetArrayWrite(y, &ya));
      PetscCallBenchCuda(BenchCusparseGetResult(cs, (double *)ya));
      PetscCall(VecRestoreArrayWrite(y, &ya));
      PetscCall(RelativeError(y, yref, &relerr));
      r->relerr = PetscMax(r->relerr, relerr);
      if (!b->check_only && (!ran || ms < r->ms)) {
        r->ms = ms;
        PetscCall(PetscStrncpy(r->variant, names[a], sizeof(r->variant)));
      }
      ran++;
    }
    if (!ran) PetscCall(PetscSNPrintf(r->skipped, sizeof(r->skipped), "cuSPARSE has no SpMV algorithm for this matrix in %s", r->variant));
    else if (!b->check_only) r->reps = b->reps;
    PetscCall(PetscFree(t));
    PetscCall(VecDestroy(&y));
  }
#endif
  PetscFunctionReturn(0);
}

PetscErrorCode RunCusparse(Bench *b, const CSR *csr, Vec x, Vec yref)
{
  BenchCusparse cs = NULL;

  PetscFunctionBeginUser;
#if defined(BENCH_HAVE_CUDA)
  if (b->dev.device) {
    const PetscScalar *xa;

    PetscCheck(sizeof(PetscInt) == sizeof(int) && sizeof(PetscScalar) == sizeof(double), PETSC_COMM_SELF, PETSC_ERR_SUP, "The cuSPARSE reference needs 32-bit PetscInt and real double PetscScalar");
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCallBenchCuda(BenchCusparseCreate((int)csr->nrows, (int)csr->ncols, (const double *)xa, &cs));
    PetscCall(VecRestoreArrayRead(x, &xa));
  }
#endif
  PetscCall(RunCusparseFormat(b, csr, cs, BENCH_CUSPARSE_CSR, yref));
  PetscCall(RunCusparseFormat(b, csr, cs, BENCH_CUSPARSE_SELL, yref));
#if defined(BENCH_HAVE_CUDA)
  PetscCallBenchCuda(BenchCusparseDestroy(&cs));
#endif
  PetscFunctionReturn(0);
}
