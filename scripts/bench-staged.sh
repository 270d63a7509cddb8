#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/bench-staged.sh - what does the staging pipeline cost? In ONE boot of the
# Soft-RoCE VM (scripts/rxe-vm.sh), host memory on both sides, runs
#   gdr_write_bw --compare and gdr_send_bw --compare   at 64 KiB and 1 MiB
# BENCH_RUNS times each (default 3). --compare measures the direct path and the staged
# path (bounce buffers + copies, here memcpy) back to back on the same size. Prints the
# median BW average of each path, the ratio staged/direct and the pipeline's cost
# (1 - ratio), and writes the table to results/bench-staged-<date>.md.
#
# Usage: scripts/bench-staged.sh [BUILD_DIR]  (folder holding gdr_*; default <repo>/build/werror)
# Environment: BENCH_RUNS (3), BENCH_ITERS (300), BENCH_OUT (the .md file).
set -uo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$src/build/werror}" 2>/dev/null && pwd) || { echo "bench-staged: no build folder ${1:-$src/build/werror} (run scripts/test.sh or pass one)" >&2; exit 2; }
[ -x "$bin/gdr_write_bw" ] || { echo "bench-staged: $bin has no gdr_write_bw" >&2; exit 2; }
runs=${BENCH_RUNS:-3}
iters=${BENCH_ITERS:-300}
date=$(date -u +%Y-%m-%d)
out=${BENCH_OUT:-$src/results/bench-staged-$date.md}
work=$(mktemp -d /var/tmp/bench-staged.XXXX)

cat > "$work/inner.sh" <<INNER
#!/bin/bash
set -u
cd "$work"
port=19000
for r in \$(seq 1 $runs); do
  for t in write_bw send_bw; do
    for s in 64K 1M; do
      port=\$((port + 1))
      timeout 300 $bin/gdr_\$t -d rxe0 -p \$port --quiet > srv.log 2>&1 &
      sp=\$!
      timeout 300 $bin/gdr_\$t -d rxe0 -p \$port --connect_timeout=20 --compare -s \$s -n $iters \\
        --csv=runs.csv --quiet 10.9.0.1 > cli.log 2>&1 || { echo "run \$t \$s failed"; cat cli.log srv.log; }
      wait \$sp
    done
  done
done
INNER
chmod +x "$work/inner.sh"
RXE_VM_LOG=$work/console.log bash "$src/scripts/rxe-vm.sh" "$work/inner.sh" "$work" > "$work/vm.out" 2>&1
rc=$?
[ -s "$work/runs.csv" ] || { echo "bench-staged: no results (VM exit $rc); see $work" >&2; exit 1; }

python3 - "$work/runs.csv" "$out" "$runs" "$iters" "$(uname -n)" "$date" "$0 $*" <<'PY'
import csv, statistics, sys
path, out, runs, iters, host, date, cmd = sys.argv[1:]
rows = list(csv.DictReader(open(path)))
groups = {}
for r in rows:
    groups.setdefault((r["test"], int(r["bytes"]), r["path"]), []).append(float(r["bw_avg_MiBps"]))
lines = [f"# Staging pipeline cost on Soft-RoCE (host memory, --compare)", "",
         f"Machine: {host} (build machine: Debian 12, 2 cores), Soft-RoCE rxe0 in a QEMU TCG VM; "
         f"date {date}; command: `{cmd.strip()}`; {runs} runs of -n {iters} per size; "
         "figures are medians of BW average in MiB/s (2^20 B/s).", "",
         "| test | bytes | direct | staged | staged/direct | pipeline cost |",
         "|---|---|---|---|---|---|"]
for (test, size) in sorted({(t, b) for t, b, _ in groups}):
    d = statistics.median(groups.get((test, size, "host"), [0]))
    s = statistics.median(groups.get((test, size, "staged"), [0]))
    ratio = s / d if d else 0
    lines.append(f"| {test} | {size} | {d:.2f} | {s:.2f} | {ratio:.3f} | {100 * (1 - ratio):.1f}% |")
lines += ["", "Every figure: " + ", ".join(f"{t} {b} {p}: " + " ".join(f"{v:.2f}" for v in vs)
                                          for (t, b, p), vs in sorted(groups.items()))]
text = "\n".join(lines) + "\n"
open(out, "w").write(text)
print(text)
PY
