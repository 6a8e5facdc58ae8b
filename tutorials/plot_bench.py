#!/usr/bin/env python3
"""Plots the JSON that bench_spmv writes (-json): effective bandwidth and speedup against
cuSPARSE per matrix, one line per format and mode.

    python3 tutorials/plot_bench.py arch/bench/bench_spmv.json [-o bench_spmv.png]

Needs matplotlib.
"""
import argparse
import json
import sys


def series(results):
    """{label: {matrix: result}} of the rows that ran, label = format and mode; the matrices in order"""
    lines, matrices = {}, []
    for r in results:
        if r["matrix"] not in matrices:
            matrices.append(r["matrix"])
        if r["skipped"] is not None:
            continue
        label = f'{r["format"]} {r["mode"]}' + (f' ({r["backend"]})' if r["backend"] == "host" and r["format"] != "aij" else "")
        lines.setdefault(label, {})[r["matrix"]] = r
    return lines, matrices


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", help="file written by bench_spmv -json")
    parser.add_argument("-o", "--output", default="bench_spmv.png", help="image to write (format from the suffix)")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_bench.py needs matplotlib (Debian: apt-get install python3-matplotlib)")

    with open(args.json) as f:
        bench = json.load(f)
    lines, matrices = series(bench["results"])
    x = range(len(matrices))
    fig, (bw, sp) = plt.subplots(2, 1, figsize=(max(6, 1.2 * len(matrices) + 3), 8), sharex=True)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (label, rows) in enumerate(sorted(lines.items())):
        color = colors[k % len(colors)]
        xs = [i for i, m in enumerate(matrices) if m in rows]
        bw.plot(xs, [rows[matrices[i]]["GBs"] for i in xs], marker="o", color=color, label=label)
        speedups = [(i, rows[matrices[i]]["speedup_vs_cusparse"]) for i in xs if rows[matrices[i]]["speedup_vs_cusparse"] is not None]
        if speedups and not label.startswith(("aij", "cusparse")):
            sp.plot([i for i, _ in speedups], [s for _, s in speedups], marker="o", color=color, label=label)
    copy = bench["copy_bandwidth_GBs"]["reference"]
    if copy:
        bw.axhline(copy, color="gray", linestyle="--", label=f"copy bandwidth {copy:.0f} GB/s")
    device = bench["device"] or "no GPU"
    bw.set_title(f"SpMV, backend {bench['backend']} ({device})")
    bw.set_ylabel(f"effective GB/s ({bench['model_bytes']} bytes)")
    bw.set_yscale("log")
    bw.grid(True, which="both", alpha=0.3)
    bw.legend(fontsize="small")
    sp.axhline(1.0, color="gray", linestyle="--")
    sp.set_ylabel("speedup vs cuSPARSE CSR")
    sp.grid(True, alpha=0.3)
    if sp.get_legend_handles_labels()[0]:
        sp.legend(fontsize="small")
    sp.set_xticks(list(x))
    sp.set_xticklabels(matrices, rotation=30, ha="right")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
