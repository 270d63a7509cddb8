#!/bin/sh
# SPDX-License-Identifier: MIT
# Run a matrix of gdrperf tests x paths over a size range, gathering one CSV.
set -u

usage() {
	cat <<'USAGE'
Usage: scripts/tools/sweep.sh --server HOST | --local-server  --csv FILE [options] [-- gdr options]

Runs one client per (test, path) in turn, each covering the whole size range,
and appends every result to one CSV file (gdr_* --csv=FILE).

  --server HOST       server to run against; start the matching server there
                      yourself for each run (the command is printed first; each
                      client retries connecting for --wait seconds)
  --local-server      start each server on this host (127.0.0.1) in the
                      background, e.g. in the VM with soft-RoCE
  --tests LIST        comma list of tests: write_bw,read_bw,send_bw,write_lat,
                      read_lat,send_lat (default write_bw)
  --paths LIST        comma list of: host (host memory), direct (GPUDirect),
                      staged (host bounce buffers), compare (direct and staged
                      rows per size) (default host)
  --sizes MIN:MAX[:F] size range, passed as --sizes (default 2:8M:2)
  --csv FILE          CSV file the results are appended to (required)
  --gpu IDX|auto      GPU for direct/staged/compare: --use_cuda=IDX (default
                      auto; not added when the gdr options name a GPU)
  --port N            TCP port (default 18515)
  --wait SEC          client --connect_timeout (default 60)
  --server-opts OPTS  extra options for a --local-server server (e.g. "-d rxe0")
  --bindir DIR        where gdr_* are (default: the build directory beside this
                      script if it has them, else the current directory, else PATH)
  --keep-going        go on after a failed run (the exit status is still 1)
  --dry-run           print the commands, run nothing
  -h, --help          this text
Everything after -- goes to every client (e.g. -d mlx5_0 -x 3 -n 2000).
Exit status: 0 all runs passed, 1 a run failed, 2 usage error.
Example:
  scripts/tools/sweep.sh --server gpu2 --tests write_bw,read_lat --paths direct,staged \
      --sizes 64:1M:4 --csv out.csv -- -d mlx5_0
USAGE
}

die() {
	echo "sweep.sh: error: $*" >&2
	exit 2
}

server='' local_server=0 tests=write_bw paths=host sizes=2:8M:2 csv='' gpu=auto
port=18515 wait_s=60 server_opts='' bindir='' keep_going=0 dry=0
while [ $# -gt 0 ]; do
	case $1 in
	--server) [ $# -ge 2 ] || die "--server needs a host"; server=$2; shift ;;
	--server=*) server=${1#*=} ;;
	--local-server) local_server=1 ;;
	--tests) [ $# -ge 2 ] || die "--tests needs a list"; tests=$2; shift ;;
	--tests=*) tests=${1#*=} ;;
	--paths) [ $# -ge 2 ] || die "--paths needs a list"; paths=$2; shift ;;
	--paths=*) paths=${1#*=} ;;
	--sizes) [ $# -ge 2 ] || die "--sizes needs MIN:MAX[:F]"; sizes=$2; shift ;;
	--sizes=*) sizes=${1#*=} ;;
	--csv) [ $# -ge 2 ] || die "--csv needs a file"; csv=$2; shift ;;
	--csv=*) csv=${1#*=} ;;
	--gpu) [ $# -ge 2 ] || die "--gpu needs IDX or auto"; gpu=$2; shift ;;
	--gpu=*) gpu=${1#*=} ;;
	--port) [ $# -ge 2 ] || die "--port needs a number"; port=$2; shift ;;
	--port=*) port=${1#*=} ;;
	--wait) [ $# -ge 2 ] || die "--wait needs seconds"; wait_s=$2; shift ;;
	--wait=*) wait_s=${1#*=} ;;
	--server-opts) [ $# -ge 2 ] || die "--server-opts needs options"; server_opts=$2; shift ;;
	--server-opts=*) server_opts=${1#*=} ;;
	--bindir) [ $# -ge 2 ] || die "--bindir needs a directory"; bindir=$2; shift ;;
	--bindir=*) bindir=${1#*=} ;;
	--keep-going) keep_going=1 ;;
	--dry-run) dry=1 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done

[ -n "$csv" ] || die "--csv FILE is required"
if [ $local_server = 1 ]; then
	[ -z "$server" ] || die "--server and --local-server exclude each other"
	server=127.0.0.1
fi
[ -n "$server" ] || die "give --server HOST or --local-server"
case $port in '' | *[!0-9]*) die "--port '$port' is not a number" ;; esac

# Where the binaries are.
if [ -z "$bindir" ]; then
	here=$(cd "$(dirname "$0")" && pwd)
	for d in "$here/../.." "$PWD"; do
		if [ -x "$d/gdr_write_bw" ]; then
			bindir=$d
			break
		fi
	done
fi
bin() {
	if [ -n "$bindir" ]; then
		echo "$bindir/gdr_$1"
	else
		command -v "gdr_$1" || echo "gdr_$1"
	fi
}

# Does the user's option list already pick a GPU?
gpu_given=0
for a in "$@"; do
	case $a in --use_cuda* ) gpu_given=1 ;; esac
done

path_opts() {
	g=
	[ $gpu_given = 1 ] || g="--use_cuda=$gpu"
	case $1 in
	host) echo "" ;;
	direct) echo "$g" ;;
	staged) echo "$g --staged" ;;
	compare) echo "$g --compare" ;;
	*) die "unknown path '$1' (use host, direct, staged, compare)" ;;
	esac
}

# Check the whole matrix before running anything.
IFS_SAVE=$IFS
IFS=,
for t in $tests; do
	case $t in
	write_bw | read_bw | send_bw | write_lat | read_lat | send_lat) ;;
	*) die "unknown test '$t' (use write_bw, read_bw, send_bw, write_lat, read_lat, send_lat)" ;;
	esac
	[ $dry = 1 ] || [ -x "$(bin "$t")" ] ||
		die "$(bin "$t") not found or not executable: build gdrperf or give --bindir"
done
for p in $paths; do path_opts "$p" >/dev/null; done
IFS=$IFS_SAVE

show() {
	echo "+ $*" >&2
}

failed=0 runs=0
IFS=,
for t in $tests; do
	for p in $paths; do
		IFS=$IFS_SAVE
		popts=$(path_opts "$p")
		runs=$((runs + 1))
		echo "sweep.sh: run $runs: $t, path $p, sizes $sizes" >&2
		spid=
		# server-side local options: the GPU for non-host paths, never the test options
		sopts=
		[ "$p" = host ] || sopts="--use_cuda=$gpu"
		if [ $local_server = 1 ]; then
			# shellcheck disable=SC2086
			show "$(bin "$t")" -p "$port" --listen_timeout="$wait_s" $sopts $server_opts
			if [ $dry = 0 ]; then
				# shellcheck disable=SC2086
				"$(bin "$t")" -p "$port" --listen_timeout="$wait_s" $sopts $server_opts \
					>"$csv.server.log" 2>&1 &
				spid=$!
			fi
		else
			echo "sweep.sh: on $server start: gdr_$t -p $port $sopts" >&2
		fi
		# shellcheck disable=SC2086
		show "$(bin "$t")" -p "$port" --sizes="$sizes" --csv="$csv" \
			--connect_timeout="$wait_s" $popts "$@" "$server"
		rc=0
		if [ $dry = 0 ]; then
			# shellcheck disable=SC2086
			"$(bin "$t")" -p "$port" --sizes="$sizes" --csv="$csv" \
				--connect_timeout="$wait_s" $popts "$@" "$server" || rc=$?
		fi
		if [ -n "$spid" ]; then
			# the server ends with its client; give it a bounded time
			n=0
			while kill -0 "$spid" 2>/dev/null && [ $n -lt 100 ]; do
				sleep 0.1
				n=$((n + 1))
			done
			if kill -0 "$spid" 2>/dev/null; then
				echo "sweep.sh: warning: server for $t did not exit; stopping it" >&2
				kill "$spid" 2>/dev/null
			fi
			wait "$spid" || [ $rc != 0 ] || {
				rc=1
				echo "sweep.sh: server of run $runs failed, see $csv.server.log" >&2
			}
		fi
		if [ $rc != 0 ]; then
			failed=$((failed + 1))
			echo "sweep.sh: run $runs ($t, $p) failed (exit $rc)" >&2
			[ $keep_going = 1 ] || { echo "sweep.sh: stopping (use --keep-going to go on)" >&2; exit 1; }
		fi
		IFS=,
	done
done
IFS=$IFS_SAVE
[ -n "${spid:-}" ] && [ -f "$csv.server.log" ] && [ $failed = 0 ] && rm -f "$csv.server.log"
echo "sweep.sh: $runs run(s), $failed failed; results in $csv" >&2
[ $failed = 0 ]
