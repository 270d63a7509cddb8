/* SPDX-License-Identifier: MIT */
/*
 * The staging copiers' names: the one list (docs/ARCHITECTURE.md, "add a
 * copier"). Everything that names or counts copiers derives from it:
 * enum gdr_copier_kind and the registry (staging/copier.[ch]), the
 * --stage_copy words (options/opts_table.c), auto's candidates and the
 * copier names (staging/choice.c), the wire's bound on a peer's copier
 * (staging/choose.c) and gdr_stage_bw's --copier words (stagebw). It lives
 * in options, the lowest folder that needs it.
 *
 * GDR_GPU_COPIERS: the copiers of GPU memory, in order of preference on a
 * tie: each is a --stage_copy and --copier word and a candidate of auto.
 * GDR_COPIERS: those and the host-memory copier. X(name): gdr_copier_<name>_ops
 * in staging/copier_<name>.c, enum value GDR_COPIER_<NAME>.
 */
#ifndef GDR_COPIER_NAMES_H
#define GDR_COPIER_NAMES_H

#define GDR_GPU_COPIERS(X)                                                                         \
	X(ce, CE)                                                                                  \
	X(gdrcopy, GDRCOPY)                                                                        \
	X(sm, SM)                                                                                  \
	X(batch, BATCH)

#define GDR_COPIERS(X)                                                                             \
	GDR_GPU_COPIERS(X)                                                                         \
	X(memcpy, MEMCPY)

/*
 * The sm copier's most blocks in one block list (its kernel's table,
 * staging/sm_proto.h GDR_SM_LIST_MAX, asserted equal): a KV batch of more
 * is refused before any network step.
 */
#define GDR_COPIER_SM_LIST_MAX 1024

/* helpers for the lists: a name's word ("ce",) and a count (+1) */
#define GDR_COPIER_WORD(name, NAME) #name,
#define GDR_COPIER_ONE(name, NAME)  +1

/* how many GPU copiers: auto's candidates, the --copier words */
#define GDR_NGPU_COPIERS (0 GDR_GPU_COPIERS(GDR_COPIER_ONE))

#endif
