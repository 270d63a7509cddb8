/* SPDX-License-Identifier: MIT */
/* The staged loop's operation kind of a wire unit from the verb's row (stage_wr.h). */
#include "stage_wr.h"

int gdr_stage_unit_op(enum gdr_wire_op op, bool end, bool flush, uint8_t *kind)
{
	switch (op) {
	case GDR_OP_WRITE: /* the run's last unit tells the target the run landed */
		*kind = end ? GDR_XOP_WRITE_DATA : GDR_XOP_WRITE;
		return 0;
	case GDR_OP_WRITE_IMM: /* every unit consumes a receive, as on the direct path */
		*kind = GDR_XOP_WRITE_DATA;
		return 0;
	case GDR_OP_SEND:
		*kind = end && !flush ? GDR_XOP_SEND_DATA : GDR_XOP_SEND;
		return 0;
	case GDR_OP_READ:
		*kind = GDR_XOP_READ;
		return 0;
	case GDR_OP_ATOMIC:
		break;
	}
	return -1;
}
