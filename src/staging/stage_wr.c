/* SPDX-License-Identifier: MIT */
/* The staged loop's opcode of a wire unit from the verb's row (stage_wr.h). */
#include "stage_wr.h"

int gdr_stage_unit_op(enum gdr_wire_op op, bool end, bool flush, enum ibv_wr_opcode *opcode)
{
	switch (op) {
	case GDR_OP_WRITE: /* the run's last unit tells the target the run landed */
		*opcode = end ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
		return 0;
	case GDR_OP_WRITE_IMM: /* every unit consumes a receive, as on the direct path */
		*opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		return 0;
	case GDR_OP_SEND:
		*opcode = end && !flush ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
		return 0;
	case GDR_OP_READ:
		*opcode = IBV_WR_RDMA_READ;
		return 0;
	case GDR_OP_ATOMIC:
		break;
	}
	return -1;
}
