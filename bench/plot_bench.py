#!/usr/bin/env python3
"""Where the formats stand, and charts, from the JSON that bench_spmv writes (-json; make bench writes
arch/bench/bench_spmv.json). First a summary (needs nothing but Python): the best of our formats (device
vectors, any setting) against the best cuSPARSE time of each matrix, as a geometric mean over the
matrices with both, how many are slower, and the five least; and for each matrix of 10^7 nonzeros or
more the best of ours as a percentage of the copy bandwidth of the same run, on the model bytes and on
the format's own device bytes (+ 16 bytes per row for x and y); with rows of PETSc's own GPU types (petsc/<type>,
a PETSc built with CUDA), the best of ours against the best of them likewise. With rows of aijgpu, the type that
chooses the format: its geometric mean against the best cuSPARSE, the matrices on which it is more than 3% slower
than the fastest of our other types, and how many of its products take under LAUNCH_BOUND times the run's launch
floor (an empty kernel timed as the products), with the geometric mean over the others. Then the charts:

  <prefix>_speedup.png   per matrix, the speedup of each of our formats (device vectors, the format's own
                         choices) and of the best of ours (any -sweep setting too) against the best
                         cuSPARSE time of the matrix (CSR or SELL)
  <prefix>_roofline.png  per matrix, the effective bandwidth (model bytes / time) of each of our formats,
                         of cuSPARSE CSR and SELL and of PETSc's types, under the copy bandwidth measured
                         in the same run

    python3 bench/plot_bench.py arch/bench/bench_spmv.json [-o prefix]

The prefix defaults to the JSON file's name without .json. Needs matplotlib, from PyPI:
python3 -m pip install matplotlib
"""
import argparse
import json
import math
import os
import sys


LAUNCH_BOUND = 1.5  # a product under this many times an empty kernel's time is taken as bound by the launch


def device_rows(results):
    """The rows timed with device vectors, {series: {matrix: row}}, and the matrices in the order of the run.
    A series is our format with its own choices, cuSPARSE CSR or SELL, or one of PETSc's own types ("petsc
    <type>"); ours with every setting also go into "best of ours" (the fastest of them)."""
    series, matrices = {}, []
    for r in results:
        if r["matrix"] not in matrices:
            matrices.append(r["matrix"])
        if r["skipped"] is not None or r["ms"] is None or r["mode"] != "GPU":
            continue
        if r["format"] == "cusparse":
            name = "cusparse " + r["variant"].split("-")[0]  # CSR-ALG1, CSR-ALG2: CSR
        elif r["format"] == "petsc":
            name = "petsc " + r["variant"].split("/")[0]  # aijcusparse, sellcuda/idle: sellcuda
        else:
            best = series.setdefault("best of ours", {})
            if r["matrix"] not in best or r["ms"] < best[r["matrix"]]["ms"]:
                best[r["matrix"]] = r
            if r["variant"]:
                continue
            name = r["format"]
        series.setdefault(name, {})[r["matrix"]] = r
    return series, matrices


def summary(bench, series, matrices):
    """Prints the summary described at the top"""
    best = series.get("best of ours", {})
    speedups = [(best[m]["speedup_vs_cusparse"], m) for m in matrices if m in best and best[m]["speedup_vs_cusparse"]]
    if not speedups:
        print("no cuSPARSE timings: no comparison with cuSPARSE")
    else:
        slower = sorted(s for s in speedups if s[0] < 1)
        print(f"best of ours against the best cuSPARSE: geometric mean {gmean([x for x, _ in speedups]):.3f}x over {len(speedups)} matrices, "
              f"slower on {len(slower)}" + (": " + ", ".join(f"{m} {x:.2f}x" for x, m in slower[:5]) if slower else ""))
    petsc = [s for s in series if s.startswith("petsc ")]
    against = [(min(series[s][m]["ms"] for s in petsc if m in series[s]) / best[m]["ms"], m)
               for m in matrices if m in best and any(m in series[s] for s in petsc)]
    if against:
        slower = sorted(s for s in against if s[0] < 1)
        print(f"best of ours against the best of PETSc's types ({', '.join(s[6:] for s in sorted(petsc))}): geometric mean {gmean([x for x, _ in against]):.3f}x over "
              f"{len(against)} matrices, slower on {len(slower)}" + (": " + ", ".join(f"{m} {x:.2f}x" for x, m in slower[:5]) if slower else ""))
    chooser(bench, series, matrices)
    copy = bench["copy_bandwidth_GBs"]["reference"]
    for m in matrices:
        r = best.get(m)
        if not r or r["nnz"] < 10**7 or not copy:
            continue
        own = f", own bytes {100 * 1e-9 * (r['device_bytes'] + 16 * r['nrows']) / (1e-3 * r['ms']) / copy:.1f}%" if r["device_bytes"] else ""
        name = r["format"] + ("/" + r["variant"] if r["variant"] else "")
        print(f"  {m}: best {name} {r['ms']:.4f} ms, {r['pct_copy']:.1f}% of the copy bandwidth on the model bytes{own}")


def gmean(values):
    return math.exp(sum(math.log(x) for x in values) / len(values))


def chooser(bench, series, matrices):
    """aijgpu, the type that chooses the format: against the best cuSPARSE, and against the fastest of our other
    types with their own choices (within 3%); then over the matrices whose product takes more than LAUNCH_BOUND times
    the launch floor (an empty kernel timed as the products), those the launch does not bound"""
    rows = series.get("aijgpu", {})
    others = [s for s in series if s not in ("aijgpu", "best of ours") and not s.startswith(("cusparse", "petsc"))]
    timed = [m for m in matrices if m in rows and rows[m]["speedup_vs_cusparse"]]
    if not timed:
        return
    slower = sorted((rows[m]["speedup_vs_cusparse"], m) for m in timed if rows[m]["speedup_vs_cusparse"] < 1)
    print(f"aijgpu (the chooser) against the best cuSPARSE: geometric mean {gmean([rows[m]['speedup_vs_cusparse'] for m in timed]):.3f}x "
          f"over {len(timed)} matrices, slower on {len(slower)}" + (": " + ", ".join(f"{m} {x:.2f}x" for x, m in slower[:5]) if slower else ""))
    fastest = {m: min((series[s][m]["ms"], s) for s in others if m in series[s]) for m in timed if any(m in series[s] for s in others)}
    if fastest:
        off = [(rows[m]["ms"] / fastest[m][0], m) for m in fastest if rows[m]["ms"] > 1.03 * fastest[m][0]]
        print(f"  within 3% of the fastest of {', '.join(sorted(others))} on {len(fastest) - len(off)} of {len(fastest)}"
              + ("; the others: " + ", ".join(f"{m} {x:.2f}x the time of {fastest[m][1]}" for x, m in sorted(off, reverse=True)) if off else ""))
    floor = bench.get("launch_floor_ms")
    if floor:
        bound = [m for m in timed if rows[m]["ms"] < LAUNCH_BOUND * floor]
        rest = [rows[m]["speedup_vs_cusparse"] for m in timed if m not in bound]
        print(f"  launch floor {1e3 * floor:.2f} us (an empty kernel): {len(bound)} of the {len(timed)} products under {LAUNCH_BOUND} times it"
              + (f"; geometric mean over the other {len(rest)} {gmean(rest):.3f}x" if rest else ""))


def figure(plt, matrices, title, ylabel):
    fig, ax = plt.subplots(figsize=(max(8, 0.25 * len(matrices) + 3), 6))
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.set_yscale("log")
    ax.grid(True, which="both", axis="y", alpha=0.3)
    ax.set_xticks(range(len(matrices)))
    ax.set_xticklabels(matrices, rotation=90, fontsize="x-small")
    ax.set_xlim(-0.5, len(matrices) - 0.5)
    return fig, ax


def plot_series(ax, matrices, rows, key, **style):
    points = [(i, rows[m][key]) for i, m in enumerate(matrices) if m in rows and rows[m][key] is not None]
    if points:
        ax.plot([i for i, _ in points], [v for _, v in points], linestyle="none", **style)
    return bool(points)


def save(fig, ax, path):
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", help="file written by bench_spmv -json")
    parser.add_argument("-o", "--output", metavar="prefix", help="prefix of the PNG files (default: the JSON file's name without .json)")
    args = parser.parse_args()
    with open(args.json) as f:
        bench = json.load(f)
    if bench["run"] != "timing":
        sys.exit(f"{args.json}: a bench_spmv -{bench['run']} run, without timings: nothing to plot")
    series, matrices = device_rows(bench["results"])
    summary(bench, series, matrices)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_bench.py needs matplotlib, which is not installed: python3 -m pip install matplotlib (from PyPI)")

    prefix = args.output or os.path.splitext(args.json)[0]
    ours = sorted(s for s in series if not s.startswith(("cusparse", "petsc ")) and s != "best of ours")
    petsc = sorted(s for s in series if s.startswith("petsc "))
    device = bench["device"] or f"no GPU: {bench.get('no_device', '')}"
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]

    fig, ax = figure(plt, matrices, f"SpMV against the best cuSPARSE (CSR or SELL), backend {bench['backend']} ({device})", "speedup (best cuSPARSE ms / ms)")
    drawn = False
    for k, name in enumerate(ours):
        drawn |= plot_series(ax, matrices, series[name], "speedup_vs_cusparse", marker="o", markersize=4, color=colors[k % len(colors)], label=name)
    drawn |= plot_series(ax, matrices, series.get("best of ours", {}), "speedup_vs_cusparse", marker="*", markersize=9, color="black", label="best of ours")
    if drawn:
        ax.axhline(1.0, color="gray", linestyle="--", label="cuSPARSE")
        save(fig, ax, f"{prefix}_speedup.png")
    else:
        print(f"{args.json}: no speedups (no cuSPARSE timings): {prefix}_speedup.png not written")
    plt.close(fig)

    fig, ax = figure(plt, matrices, f"SpMV effective bandwidth, backend {bench['backend']} ({device})", f"GB/s ({bench['model_bytes']} bytes per product)")
    for k, name in enumerate(ours + [s for s in ("cusparse CSR", "cusparse SELL") if s in series] + petsc):
        cusparse, petscrow = name.startswith("cusparse"), name.startswith("petsc ")
        color = "gray" if name == "cusparse CSR" else "black" if cusparse else colors[k % len(colors)]
        plot_series(ax, matrices, series[name], "GBs", marker="s" if cusparse else "^" if petscrow else "o", markersize=4, color=color, label=name)
    chooser(bench, series, matrices)
    copy = bench["copy_bandwidth_GBs"]["reference"]
    if copy:
        ax.axhline(copy, color="red", linestyle="--", label=f"copy bandwidth {copy:.0f} GB/s (same run)")
    else:
        print(f"{args.json}: no copy bandwidth (no GPU): the roofline has no bound")
    save(fig, ax, f"{prefix}_roofline.png")
    plt.close(fig)


if __name__ == "__main__":
    main()
