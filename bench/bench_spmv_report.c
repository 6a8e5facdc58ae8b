/* The results of bench_spmv and how they are reported (bench_spmv_report.h) */
#include "bench_spmv_report.h"

PetscErrorCode BenchAddResult(Bench *b, const CSR *A, const char *format, const char *variant, const char *mode, Result **r)
{
  PetscFunctionBeginUser;
  PetscCall(BenchAppend(sizeof(Result), (void **)&b->results, &b->nresults, &b->maxresults, (void **)r));
  PetscCall(PetscStrncpy((*r)->matrix, A->name, sizeof((*r)->matrix)));
  PetscCall(PetscStrncpy((*r)->format, format, sizeof((*r)->format)));
  if (variant) PetscCall(PetscStrncpy((*r)->variant, variant, sizeof((*r)->variant)));
  PetscCall(PetscStrncpy((*r)->mode, mode, sizeof((*r)->mode)));
  (*r)->imatrix = b->imatrix;
  (*r)->nrows   = A->nrows;
  (*r)->ncols   = A->ncols;
  (*r)->nnz     = A->nnz;
  (*r)->bytes   = -1;
  (*r)->conv_ms = -1;
  (*r)->tol     = REL_TOL;
  PetscFunctionReturn(0);
}

PetscReal CSRBytes(PetscInt nrows, PetscInt nnz)
{
  return 12.0 * nnz + 4.0 * (nrows + 1);
}

PetscErrorCode RowName(const Result *r, char *name, size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, len, "%s%s%s", r->format, r->variant[0] ? "/" : "", r->variant));
  PetscFunctionReturn(0);
}

PetscBool IsCusparse(const Result *r)
{
  return (PetscBool)!strcmp(r->format, "cusparse");
}

PetscBool IsPetsc(const Result *r)
{
  return (PetscBool)!strcmp(r->format, "petsc");
}

PetscBool AnyPetsc(const Bench *b)
{
  for (PetscInt i = 0; i < b->nresults; i++)
    if (IsPetsc(&b->results[i])) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscBool Timed(const Result *r)
{
  return (PetscBool)(!r->skipped[0] && r->reps > 0);
}

PetscReal BestCusparseMs(const Bench *b, PetscInt m)
{
  PetscReal best = 0;

  for (PetscInt i = 0; i < b->nresults; i++) {
    const Result *r = &b->results[i];

    if (r->imatrix == m && IsCusparse(r) && Timed(r) && (!best || r->ms < best)) best = r->ms;
  }
  return best;
}

PetscReal GBs(const Result *r)
{
  return 1e-9 * MODEL_BYTES(r->nrows, r->nnz) / (1e-3 * r->ms);
}

PetscErrorCode PrintChecks(Bench *b, const CSR *A, PetscInt first)
{
  int width = 0;

  PetscFunctionBeginUser;
  PetscCall(PrintMatrixLine(A));
  for (PetscInt i = first; i < b->nresults; i++) {
    char name[64];

    PetscCall(RowName(&b->results[i], name, sizeof(name)));
    width = PetscMax(width, (int)strlen(name));
  }
  for (PetscInt i = first; i < b->nresults; i++) {
    const Result *r = &b->results[i];
    char          name[64];

    PetscCall(RowName(r, name, sizeof(name)));
    if (r->skipped[0]) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-*s %-5s skipped: %s\n", width, name, r->mode, r->skipped));
    else if (r->relerr < r->tol) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-*s %-5s product agrees with aij (relative error < %g)\n", width, name, r->mode, (double)r->tol));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-*s %-5s product DIFFERS from aij: relative error %g\n", width, name, r->mode, (double)r->relerr));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PrintProgress(Bench *b, const CSR *A, PetscInt first)
{
  const Result *best = NULL, *ours = NULL, *cusparse = NULL, *petsc = NULL, *single = NULL;
  PetscReal     cu = BestCusparseMs(b, b->imatrix);
  char          line[256], name[64];

  PetscFunctionBeginUser;
  for (PetscInt i = first; i < b->nresults; i++) {
    const Result *r = &b->results[i];

    if (IsCusparse(r)) cusparse = cusparse ? cusparse : r;
    else if (IsPetsc(r)) {
      if (Timed(r) && (!petsc || r->ms < petsc->ms)) petsc = r;
    } else if (!r->reference && !strcmp(r->mode, "GPU")) {
      ours = ours ? ours : r;
      if (Timed(r) && r->tol == REL_TOL && (!best || r->ms < best->ms)) best = r; /* in double, as cuSPARSE's */
      if (Timed(r) && r->tol != REL_TOL && (!single || r->ms < single->ms)) single = r;
    }
  }
  PetscCall(MatrixDescription(A, line, sizeof(line)));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%" PetscInt_FMT "/%" PetscInt_FMT "] %s: ", b->imatrix + 1, b->nmatrices, line));
  if (!best) PetscCall(PetscPrintf(PETSC_COMM_SELF, "none of our formats ran (%s)\n", ours ? ours->skipped : "no formats"));
  else {
    PetscCall(RowName(best, name, sizeof(name)));
    if (cu > 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "best %s %.2fx the best cuSPARSE", name, (double)(cu / best->ms)));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "best %s %.4f ms; no cuSPARSE time (%s)", name, (double)best->ms, cusparse ? cusparse->skipped : "not run"));
    if (petsc) {
      PetscCall(RowName(petsc, name, sizeof(name)));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, ", %.2fx the best of PETSc's (%s)", (double)(petsc->ms / best->ms), name));
    }
    if (single) {
      PetscCall(RowName(single, name, sizeof(name)));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "; in single precision %s %.2fx the best in double", name, (double)(best->ms / single->ms)));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n"));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode BenchNotLoaded(Bench *b, const char *spec, const char *why)
{
  char name[64];

  PetscFunctionBeginUser;
  PetscCall(SpecListAdd(&b->unloaded, spec));
  PetscCall(SpecListAdd(&b->unloaded_why, why));
  PetscCall(BenchMatrixNameOfFile(spec, name, sizeof(name)));
  if (!b->check_only && !b->bytes_only) PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%" PetscInt_FMT "/%" PetscInt_FMT "] ", b->imatrix + 1, b->nmatrices));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: not loaded: %s\n", name, why));
  PetscFunctionReturn(0);
}

PetscErrorCode PrintTable(Bench *b)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\nms: median of %" PetscInt_FMT " products after %" PetscInt_FMT " warm-up on the device (CUDA events; GPU: %s; xGPU: from an idle device), of 3-%" PetscInt_FMT " on the host; GB/s: model bytes 12 nnz + 20 rows per product\n", b->reps, b->warmup, b->queued ? "each launched while the device is held, the device's time" : "from an idle device", b->reps));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "modes: GPU = device vectors, xGPU = host vectors (transfers included); cusparse/CSR-ALGk: the better of CSR ALG1 and ALG2;\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "cusparse/SELL: sliced ELL, slices of %d rows in the matrix's order, SELL_ALG1; format/<setting>: a setting of -sweep\n", BENCH_CUSPARSE_SELL_SLICE));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "vs cuSP = the best cuSPARSE time of the matrix (CSR or SELL) / this time; dev MB: the matrix on the device (our formats: as\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "they report it; cuSPARSE: its arrays), MB = 2^20 bytes; conv ms: from the host CSR to the matrix ready on the device\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "(ours: MatCreate to the assembly that builds the format; cuSPARSE: CSR copied, or SELL made on the host and copied)\n"));
  if (AnyPetsc(b)) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "petsc/<type>: PETSc's own GPU type, MatConvert of AIJ, MatMult with VECCUDA vectors timed as our GPU rows (/idle: its MatMult\n"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "waits for the device, so it is timed from an idle device); its dev MB: the device memory its conversion and first\n"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "product took (cudaMemGetInfo, in 2 MiB steps; with PETSc's SpMV buffer); conv ms: to the end of that first MatMult,\n"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "which copies the matrix to the device\n"));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-20s %10s %11s %-24s %-5s %-7s %10s %8s %8s %6s %8s %9s %9s %9s\n", "matrix", "rows", "nnz", "format", "mode", "backend", "ms", "GFLOP/s", "GB/s", "%copy", "vs cuSP", "dev MB", "conv ms", "rel.err"));
  for (PetscInt i = 0; i < b->nresults; i++) {
    const Result   *r  = &b->results[i];
    const PetscReal cu = BestCusparseMs(b, r->imatrix);
    char            name[64], pct[16] = "-", speedup[16] = "-", MB[16] = "-", conv[16] = "-", err[16] = "reference";

    PetscCall(RowName(r, name, sizeof(name)));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-20s %10" PetscInt_FMT " %11" PetscInt_FMT " %-24s %-5s %-7s ", r->matrix, r->nrows, r->nnz, name, r->mode, r->backend));
    if (r->skipped[0]) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "skipped: %s\n", r->skipped));
      continue;
    }
    if (b->copy_GBs > 0) PetscCall(PetscSNPrintf(pct, sizeof(pct), "%.1f", (double)(100 * GBs(r) / b->copy_GBs)));
    if (cu > 0) PetscCall(PetscSNPrintf(speedup, sizeof(speedup), "%.2fx", (double)(cu / r->ms)));
    if (r->bytes >= 0) PetscCall(PetscSNPrintf(MB, sizeof(MB), "%.3f", (double)(r->bytes / 1048576.0)));
    if (r->conv_ms >= 0) PetscCall(PetscSNPrintf(conv, sizeof(conv), "%.3f", (double)r->conv_ms));
    if (!r->reference) PetscCall(PetscSNPrintf(err, sizeof(err), "%.1e", (double)r->relerr));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%10.4f %8.2f %8.1f %6s %8s %9s %9s %9s\n", (double)r->ms, (double)(2e-9 * r->nnz / (1e-3 * r->ms)), (double)GBs(r), pct, speedup, MB, conv, err));
  }
  for (PetscInt i = 0; i < b->unloaded.n; i++) {
    char name[64];

    PetscCall(BenchMatrixNameOfFile(b->unloaded.spec[i], name, sizeof(name)));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "not loaded: %s: %s\n", name, b->unloaded_why.spec[i]));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode WriteJSON(Bench *b, const char *path)
{
  FILE *fp;

  PetscFunctionBeginUser;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, path, "w", &fp));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "{\n  \"run\": \"%s\",\n  \"backend\": \"%s\",\n  \"device\": ", b->bytes_only ? "bytes_only" : b->check_only ? "check_only" : "timing", PetscELLGBackends[b->backend]));
  if (b->dev.device) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"%s\",\n", b->dev.name));
  else PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "null,\n  \"no_device\": \"%s\",\n", b->dev.none));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"copy_bandwidth_GBs\": {"));
  PetscCall(JSONNumber(fp, "memcpy", b->memcpy_GBs, (PetscBool)(b->copy_GBs > 0), ", "));
  PetscCall(JSONNumber(fp, "kernel", b->kernel_GBs, (PetscBool)(b->copy_GBs > 0), ", "));
  PetscCall(JSONNumber(fp, "reference", b->copy_GBs, (PetscBool)(b->copy_GBs > 0), "},\n"));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  "));
  PetscCall(JSONNumber(fp, "launch_floor_ms", b->floor_ms, (PetscBool)(b->floor_ms > 0), ",\n"));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"model_bytes\": \"12*nnz + 20*nrows\",\n  \"csr_bytes\": \"12*nnz + 4*(nrows+1)\",\n"));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"speedup_vs_cusparse\": \"the best cuSPARSE ms of the matrix (CSR or SELL) / ms\",\n  \"cusparse_sell_slice\": %d,\n", BENCH_CUSPARSE_SELL_SLICE));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"conv_ms\": \"wall clock from the host CSR to the matrix ready on the device\",\n  \"sweep\": %s,\n", b->sweep ? "true" : "false"));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"ms\": \"median product, device: CUDA events, launched while the device is held (mode GPU, queued) or from an idle device; host: wall clock\",\n  \"queued\": %s,\n  \"wall_ms\": \"median product by wall clock from an idle device until done\",\n", b->queued ? "true" : "false"));
  if (AnyPetsc(b)) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"petsc\": \"format petsc, variant <type>: PETSc's own GPU type (MatConvert of AIJ, MatMult with VECCUDA vectors, timed as the GPU rows; <type>/idle: timed from an idle device); device_bytes: the device memory its conversion and first product took (cudaMemGetInfo); conv_ms: to the end of its first product, which copies the matrix to the device\",\n"));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  \"reps\": %" PetscInt_FMT ",\n  \"warmup\": %" PetscInt_FMT ",\n  \"not_loaded\": [", b->reps, b->warmup));
  for (PetscInt i = 0; i < b->unloaded.n; i++) {
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%s\n    {\"matrix\": ", i ? "," : ""));
    PetscCall(JSONString(fp, b->unloaded.spec[i]));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ", \"reason\": "));
    PetscCall(JSONString(fp, b->unloaded_why.spec[i]));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "}"));
  }
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%s],\n  \"results\": [\n", b->unloaded.n ? "\n  " : ""));
  for (PetscInt i = 0; i < b->nresults; i++) {
    const Result   *r  = &b->results[i];
    const PetscBool ok = (PetscBool)!r->skipped[0], timed = Timed(r);
    const PetscReal cu = BestCusparseMs(b, r->imatrix);

    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "    {\"matrix\": "));
    PetscCall(JSONString(fp, r->matrix));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ", \"nrows\": %" PetscInt_FMT ", \"ncols\": %" PetscInt_FMT ", \"nnz\": %" PetscInt_FMT ", \"format\": \"%s\", \"variant\": ", r->nrows, r->ncols, r->nnz, r->format));
    PetscCall(JSONString(fp, r->variant));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ", \"mode\": \"%s\", \"vectors\": \"%s\", \"backend\": \"%s\", ", r->mode, r->vectors, r->backend));
    if (ok) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"skipped\": null, \"reps\": %" PetscInt_FMT ", ", r->reps));
    else {
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\"skipped\": "));
      PetscCall(JSONString(fp, r->skipped));
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ", \"reps\": 0, "));
    }
    PetscCall(JSONNumber(fp, "device_bytes", r->bytes, (PetscBool)(r->bytes >= 0), ", "));
    PetscCall(JSONNumber(fp, "csr_bytes", CSRBytes(r->nrows, r->nnz), PETSC_TRUE, ", "));
    PetscCall(JSONNumber(fp, "bytes_vs_csr", r->bytes / CSRBytes(r->nrows, r->nnz), (PetscBool)(r->bytes >= 0), ", "));
    PetscCall(JSONNumber(fp, "conv_ms", r->conv_ms, (PetscBool)(timed && r->conv_ms >= 0), ", "));
    PetscCall(JSONNumber(fp, "ms", r->ms, timed, ", "));
    PetscCall(JSONNumber(fp, "wall_ms", r->wall_ms, (PetscBool)(timed && r->wall_ms > 0), ", "));
    PetscCall(JSONNumber(fp, "GFLOPs", timed ? 2e-9 * r->nnz / (1e-3 * r->ms) : 0, timed, ", "));
    PetscCall(JSONNumber(fp, "GBs", timed ? GBs(r) : 0, timed, ", "));
    PetscCall(JSONNumber(fp, "pct_copy", timed && b->copy_GBs > 0 ? 100 * GBs(r) / b->copy_GBs : 0, (PetscBool)(timed && b->copy_GBs > 0), ", "));
    PetscCall(JSONNumber(fp, "speedup_vs_cusparse", timed && cu > 0 ? cu / r->ms : 0, (PetscBool)(timed && cu > 0), ", "));
    PetscCall(JSONNumber(fp, "rel_error", r->relerr, (PetscBool)(ok && !r->reference && !b->bytes_only), i + 1 < b->nresults ? "},\n" : "}\n"));
  }
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "  ]\n}\n"));
  PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  PetscFunctionReturn(0);
}
