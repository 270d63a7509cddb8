/* SPDX-License-Identifier: MIT */
/* Limits of this process: locked memory (ibv_reg_mr, QP and CQ rings pin host pages). */
#include <stdio.h>
#include <unistd.h>
#include <sys/resource.h>
#include "doctor.h"

void check_limits(struct doctor *d)
{
	struct rlimit rl;

	out_group(&d->out, "Limits");
	if (getrlimit(RLIMIT_MEMLOCK, &rl)) {
		out_add(&d->out, OUT_WARN, "limits.memlock", "check `ulimit -l`",
			"cannot read the memlock limit");
		return;
	}
	if (rl.rlim_cur == RLIM_INFINITY) {
		out_add(&d->out, OUT_OK, "limits.memlock", NULL, "memlock limit: unlimited");
	} else if (geteuid() == 0) {
		out_add(&d->out, OUT_OK, "limits.memlock", NULL,
			"memlock limit %llu KiB, but running as root lifts it (CAP_IPC_LOCK)",
			(unsigned long long)rl.rlim_cur / 1024);
	} else {
		out_add(&d->out, OUT_WARN, "limits.memlock",
			"`ulimit -l unlimited` (as root), or '* - memlock unlimited' in "
			"/etc/security/limits.conf; LimitMEMLOCK=infinity for services and "
			"--ulimit memlock=-1 for containers",
			"memlock limit %llu KiB: registering larger host buffers fails "
			"(ibv_reg_mr: Cannot allocate memory)",
			(unsigned long long)rl.rlim_cur / 1024);
	}
}
