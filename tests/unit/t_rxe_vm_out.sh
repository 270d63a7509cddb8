#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/rxe-vm.sh SCRIPT without OUTDIR: the outputs go to a new folder inside the
# checkout's build/ (not outside the checkout), named on stderr at once; outside a git
# checkout, to /var/tmp. No VM is booted: RXE_VM_TIMEOUT=0 is refused (exit 125) right
# after the folder is chosen, so the test reads the folder from that run's stderr.
srcdir=${srcdir:-.}
. "${srcdir:-.}/tests/lib.sh"
t_tmpdir t t_rxe_vm_out
fail=0
# run CHECKOUT: the folder the copy of rxe-vm.sh in CHECKOUT/scripts/ci names
run() {
	mkdir -p "$1/scripts/ci" && cp "$srcdir/scripts/ci/rxe-vm.sh" "$1/scripts/ci/" || exit 1
	echo 'exit 0' >"$1/job.sh"
	(cd "$t" && RXE_VM_TIMEOUT=0 GDR_BUILD_ROOT='' bash "$1/scripts/ci/rxe-vm.sh" "$1/job.sh" 2>"$1/err")
	echo $? >"$1/rc"
	sed -n 's/^rxe-vm: no OUTDIR given: outputs go to //p' "$1/err"
}
# rc CHECKOUT: that run's exit status was 125 (RXE_VM_TIMEOUT=0 refused, no VM)
rc() {
	[ "$(cat "$1/rc")" = 125 ] || { echo "FAIL: $1: exit $(cat "$1/rc"), want 125"; fail=1; }
}
mkdir -p "$t/clone/.git"
got=$(run "$t/clone")
rc "$t/clone"
case $got in
"$t"/clone/build/rxe-vm/out.??????) [ -d "$got" ] || { echo "FAIL: $got not made"; fail=1; } ;;
*) echo "FAIL: in a checkout: outputs go to '$got', want $t/clone/build/rxe-vm/out.XXXXXX"; fail=1 ;;
esac
got=$(run "$t/plain")
rc "$t/plain"
case $got in
/var/tmp/rxe-vm-out.??????) rmdir "$got" ;;
*)
	echo "FAIL: outside a checkout: outputs go to '$got', want /var/tmp/rxe-vm-out.XXXXXX"
	fail=1
	;;
esac
[ $fail = 0 ] && echo "ok: rxe-vm.sh without OUTDIR writes into the checkout's build/ (else /var/tmp) and says so"
exit $fail
