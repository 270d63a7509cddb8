#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/bench/bench-staged.sh - how good is the staged pipeline? In ONE boot of the Soft-RoCE
# VM (scripts/ci/rxe-vm.sh), host memory on both sides, runs gdr_write_bw --compare and
# gdr_send_bw --compare over the sizes 64 KiB, 1 MiB and 16 MiB (--sizes=64K:16M:16),
# BENCH_RUNS times (default 5), interleaved (run 1 of every case, then run 2, ...). With a second build folder
# (BEFORE) each case also runs with those binaries, interleaved with the first.
# --compare measures the host path (direct, the wire reference) and the staged path
# (bounce ring + stager copies, here memcpy) back to back on the same size; builds that
# report it also give the staged model and efficiency (staged / model).
# Prints and writes (results/bench-staged-<date>.md) the medians: staged/direct and
# efficiency per build, test and size.
#
# Usage: scripts/bench/bench-staged.sh [BUILD_DIR [BEFORE_DIR]]  (folders holding gdr_*;
#        default <repo>/build/werror)
# Environment: BENCH_RUNS (5), BENCH_ITERS (-n, 30), BENCH_TESTS ("write_bw send_bw"), BENCH_OUT.
set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
dir() { (cd "$1" 2>/dev/null && pwd); }
bin=$(dir "${1:-$src/build/werror}") || { echo "bench-staged: no build folder ${1:-$src/build/werror} (run scripts/ci/test.sh or pass one)" >&2; exit 2; }
before=
if [ $# -ge 2 ]; then
	before=$(dir "$2") || { echo "bench-staged: no build folder $2" >&2; exit 2; }
fi
for b in $bin $before; do
	[ -x "$b/gdr_write_bw" ] || { echo "bench-staged: $b has no gdr_write_bw" >&2; exit 2; }
done
runs=${BENCH_RUNS:-5}
iters=${BENCH_ITERS:-30}
tests=${BENCH_TESTS:-write_bw send_bw}
date=$(date -u +%Y-%m-%dT%H:%MZ)
out=${BENCH_OUT:-$src/results/bench-staged-$(date -u +%Y-%m-%d).md}
work=$(mktemp -d /var/tmp/bench-staged.XXXX)

cat > "$work/inner.sh" <<INNER
#!/bin/bash
set -u
cd "$work"
port=19000
for r in \$(seq 1 $runs); do
  for t in $tests; do
    for b in after${before:+ before}; do
      [ \$b = after ] && d=$bin || d=$before
      port=\$((port + 1))
      timeout 600 \$d/gdr_\$t -d rxe0 -p \$port --quiet > srv.log 2>&1 &
      sp=\$!
      timeout 600 \$d/gdr_\$t -d rxe0 -p \$port --connect_timeout=20 --compare \\
        --sizes=64K:16M:16 -n $iters --csv=\$b.csv --quiet 10.9.0.1 > cli.log 2>&1 ||
        { echo "run \$b \$t failed"; cat cli.log srv.log; }
      wait \$sp
    done
  done
done
INNER
chmod +x "$work/inner.sh"
RXE_VM_TIMEOUT=${RXE_VM_TIMEOUT:-3000} RXE_VM_LOG=$work/console.log bash "$src/scripts/ci/rxe-vm.sh" "$work/inner.sh" "$work" > "$work/vm.out" 2>&1
rc=$?
[ -s "$work/after.csv" ] || { echo "bench-staged: no results (VM exit $rc); see $work" >&2; exit 1; }

python3 - "$work" "$out" "$runs" "$iters" "$(uname -n)" "$date" "$0 $*" "$before" <<'PY'
import csv, os, statistics, sys
work, out, runs, iters, host, date, cmd, before = sys.argv[1:]
lines = ["# Staged pipeline on Soft-RoCE (host memory, --compare)", "",
         f"Machine: {host} (build machine: Debian 12, 2 cores, shared), Soft-RoCE rxe0 in a "
         f"QEMU TCG VM; date {date}; command: `{cmd.strip()}`; {runs} interleaved runs per "
         f"case, -n {iters} per size. Medians over the runs. "
         "staged/direct: staged BW average over the host path's (direct, host memory) in the "
         "same run; efficiency: staged / model, model = min(copy rate alone, host wire rate).",
         "", "| build | test | bytes | direct MiB/s | staged MiB/s | staged/direct | efficiency | runs |",
         "|---|---|---|---|---|---|---|---|"]
for build in ["after", "before"]:
    path = os.path.join(work, build + ".csv")
    if not os.path.exists(path):
        continue
    rows = list(csv.DictReader(open(path)))
    runs_of = {}
    pend = {}
    for r in rows:
        if r.get("schema_version") == "schema_version":
            continue
        key = (r["test"], int(r["bytes"]))
        if r["path"] in ("host", "direct"):
            pend[key] = float(r["bw_avg_MiBps"])
        elif r["path"] == "staged" and key in pend:
            eff = r.get("efficiency") or ""
            runs_of.setdefault(key, []).append(
                (pend.pop(key), float(r["bw_avg_MiBps"]), float(eff) if eff else None))
    for (test, size), v in sorted(runs_of.items()):
        d = statistics.median(x[0] for x in v)
        s = statistics.median(x[1] for x in v)
        ratio = statistics.median(x[1] / x[0] for x in v if x[0] > 0)
        effs = [x[2] for x in v if x[2] is not None]
        eff = f"{statistics.median(effs):.3f}" if effs else "n/a"
        lines.append(f"| {build} | {test} | {size} | {d:.2f} | {s:.2f} | {ratio:.3f} | {eff} | {len(v)} |")
text = "\n".join(lines) + "\n"
open(out, "w").write(text)
print(text)
PY
