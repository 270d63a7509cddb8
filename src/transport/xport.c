/* SPDX-License-Identifier: MIT */
/* The transports this build has, by name (xport.h). A transport adds its row here. */
#include "config.h"
#include <string.h>
#include "verbs_api.h" /* gdr_xport_verbs */
#include "opts.h" /* GDR_XPORT_DEFAULT */
#include "xport.h"
#include "loop/loop_xp.h"

extern const struct gdr_xport_ops gdr_xport_ofi; /* transport/ofi (a stub without libfabric) */

static const struct gdr_xport_ops *const table[] = {
	&gdr_xport_verbs,
	&gdr_xport_loop,
	&gdr_xport_ofi,
	NULL, /* keeps the table non-empty; rows go above */
};

const struct gdr_xport_ops *gdr_xport_find(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i] && name && !strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

const char *gdr_xport_names(void)
{
	static char buf[128];

	if (buf[0])
		return buf;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (!table[i] || !table[i]->post)
			continue; /* a stub row (ofi/ofi_none.c): not a transport this build has */
		if (buf[0])
			strncat(buf, ", ", sizeof(buf) - strlen(buf) - 1);
		strncat(buf, table[i]->name, sizeof(buf) - strlen(buf) - 1);
	}
	return buf;
}

bool gdr_xport_via_ops(const struct gdr_xport_ops *xp)
{
	return xp && strcmp(xp->name, GDR_XPORT_DEFAULT);
}
